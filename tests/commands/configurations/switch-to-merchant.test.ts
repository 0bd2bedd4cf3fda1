// 'Switch context to this merchant': offered on a merchant's detail page unless that merchant is already applied,
// and it follows /context/apply with the page as the route (which resolves names and the first configuration).
import { describe, expect, it, vi } from 'vitest';
import { merchantOfPath, switchToMerchantCommand } from '../../../commands/configurations/switch-to-merchant.ts';
import type { CommandServices } from '../../../commands/command.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { baseContext } from '../../app/support.tsx';

const onMerchantPage = (merchantId: string | null) =>
  baseContext({
    route: { id: 'merchantDetail', pattern: '/business/:businessId/merchants/:merchantId', path: '/business/100001/merchants/200002' },
    context: { ...baseContext().context, businessId: '100001', merchantId },
  });

describe('switch context to this merchant', () => {
  it.each([
    ["on another merchant's page", onMerchantPage('200001'), true],
    ['with no merchant applied', onMerchantPage(null), true],
    ["on the applied merchant's page", onMerchantPage('200002'), false],
    ['elsewhere', baseContext({ route: { id: 'dashboard', pattern: '/dashboard', path: '/dashboard' } }), false],
  ])('is available %s: %s', (_label, ctx, expected) => {
    expect(isAvailable(switchToMerchantCommand, ctx)).toBe(expected);
  });

  it('reads the ids from the path and applies them through /context/apply', async () => {
    expect(merchantOfPath('/business/100001/merchants/200002?tab=x')).toEqual({ businessId: '100001', merchantId: '200002' });
    expect(merchantOfPath('/business/100001')).toBeNull();
    const navigate = vi.fn();
    await switchToMerchantCommand.run({ context: () => onMerchantPage('200001'), navigate } as unknown as CommandServices, {});
    const target = new URL(String(navigate.mock.calls[0]?.[0]), 'http://portal.test');
    expect(target.pathname).toBe('/context/apply');
    expect(target.searchParams.get('route')).toBe('/business/100001/merchants/200002');
    expect(JSON.parse(target.searchParams.get('merchant') ?? '{}')).toMatchObject({ id: '200002' });
    expect(JSON.parse(target.searchParams.get('business') ?? '{}')).toMatchObject({ id: '100001' });
  });
});
