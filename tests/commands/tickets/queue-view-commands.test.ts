// The queue views as commands: one per view, each with its 'v' sequence, staff-only where the view is staff's,
// opening the overview with the view's filters.
import { describe, expect, it, vi } from 'vitest';
import { ticketQueueViewCommands } from '../../../commands/tickets/queue-views.ts';
import { ticketCommands } from '../../../commands/tickets/ticket-commands.ts';
import { ticketQueueViewOf, ticketQueueViewPath } from '../../../src/contract/tickets.ts';
import { sessionStore } from '../../../src/state/session-store.ts';
import type { CommandServices } from '../../../commands/command.ts';

describe('the queue view commands', () => {
  it('are registered, one per view, with documented shortcuts and the staff permission where the view is staff’s', () => {
    expect(
      ticketQueueViewCommands.map((command) => [
        command.id,
        command.title,
        command.shortcut,
        command.permissions?.includes('Portal.Tickets.Read.Internal') ?? false,
      ]),
    ).toEqual([
      ['tickets.view.all', 'Tickets: All tickets', 'v a', false],
      ['tickets.view.open', 'Tickets: Open', 'v o', false],
      ['tickets.view.updatedByRequester', 'Tickets: Updated by requester', 'v r', true],
      ['tickets.view.mine', 'Tickets: Mine', 'v m', true],
      ['tickets.view.unassigned', 'Tickets: Unassigned', 'v u', true],
    ]);
    for (const command of ticketQueueViewCommands) expect(ticketCommands).toContain(command);
  });

  it('open the overview with the view’s filters (Mine: the signed-in user)', async () => {
    sessionStore.userInfo = { sub: 'user-1', email: 'a@b.test', given_name: 'A', family_name: 'B' } as typeof sessionStore.userInfo;
    const navigate = vi.fn();
    const services = { navigate } as unknown as CommandServices;
    const run = (id: string) => ticketQueueViewCommands.find((command) => command.id === id)?.run(services, {});
    await run('tickets.view.updatedByRequester');
    await run('tickets.view.mine');
    await run('tickets.view.all');
    expect(navigate.mock.calls.map(([path]) => path)).toEqual(['/tickets?updatedbyrequester=%5Beq%5Dtrue', '/tickets?assignee=%5Beq%5Duser-1', '/tickets']);
  });

  it('tell which view a set of filters is, and none for a mix', () => {
    expect(ticketQueueViewOf({}, 'u1')).toBe('all');
    expect(ticketQueueViewOf({ status: '[eq]Open', searchterm: '[eq]x' }, 'u1')).toBe('open');
    expect(ticketQueueViewOf({ assignee: '[eq]u1' }, 'u1')).toBe('mine');
    expect(ticketQueueViewOf({ assignee: '[eq]none' }, 'u1')).toBe('unassigned');
    expect(ticketQueueViewOf({ updatedbyrequester: '[eq]true' }, 'u1')).toBe('updatedByRequester');
    expect(ticketQueueViewOf({ status: '[eq]Open', assignee: '[eq]none' }, 'u1')).toBeNull();
    expect(ticketQueueViewPath('unassigned', null)).toBe('/tickets?assignee=%5Beq%5Dnone');
  });
});
