// Navigation commands come from the route table: parameterless routes and routes whose parameters the
// applied context supplies.
import { describe, expect, it, vi } from 'vitest';
import { fillPattern, routeCommands, routePath, type NavigableRoute } from '../../commands/navigation/route-commands.ts';
import { isAvailable } from '../../commands/registry.ts';
import { navigableRoutes } from '../../src/app/app-registry.ts';
import { routes } from '../../src/app/routes.ts';
import { baseContext } from '../app/support.tsx';

describe('fillPattern', () => {
  it.each([
    ['/business/:businessId/pricing-plan', { businessId: 'B 1' }, '/business/B%201/pricing-plan'],
    ['/reporting/trading-account/:accountNumber?', {}, '/reporting/trading-account'],
    ['/reporting/trading-account/:accountNumber?', { accountNumber: '42' }, '/reporting/trading-account/42'],
    ['/business/:businessId', {}, null],
  ] as const)('%s with %j → %s', (pattern, params, expected) => {
    expect(fillPattern(pattern, params)).toBe(expected);
  });
});

describe('route commands', () => {
  const route = (extra: Partial<NavigableRoute>): NavigableRoute => ({
    id: 'x',
    pattern: '/x',
    permissions: [],
    contextParams: {},
    contextFree: true,
    conditionsMet: () => true,
    command: { title: 'Go to x', keywords: [] },
    ...extra,
  });

  it('skips routes with parameters the context cannot supply', () => {
    const commands = routeCommands([route({ id: 'detail', pattern: '/x/:id' }), route({ id: 'list' })]);
    expect(commands.map((command) => command.id)).toEqual(['nav.list']);
  });

  it('fills context parameters and is unavailable without them', async () => {
    const [command] = routeCommands([route({ id: 'business', pattern: '/business/:businessId', contextParams: { businessId: 'business' } })]);
    if (!command) throw new Error('no command');
    expect(isAvailable(command, baseContext())).toBe(false);
    const withBusiness = baseContext({ context: { ...baseContext().context, businessId: 'B1' } });
    expect(isAvailable(command, withBusiness)).toBe(true);
    const navigate = vi.fn();
    await command.run({ context: () => withBusiness, navigate } as never, { beside: true });
    expect(navigate).toHaveBeenCalledWith('/business/B1', { beside: true });
  });

  it('gives every menu entry of the table a command, and the documented go-to sequences', () => {
    const navigable = new Map(navigableRoutes().map((candidate) => [candidate.id, candidate]));
    for (const candidate of routes.filter((row) => row.menu)) expect(navigable.has(candidate.id)).toBe(true);
    expect(navigable.get('dashboard')?.command.shortcut).toBe('g d');
    expect(navigable.get('transactions')?.command.shortcut).toBe('g t');
    const virtualTerminal = navigable.get('virtualTerminal');
    expect(virtualTerminal && routePath(virtualTerminal, baseContext({ context: { ...baseContext().context, configurationId: 'C1' } }))).toBe(
      '/configurations/C1/virtual-terminal',
    );
  });
});
