// 'Export tickets…' and 'Export users…': offered on their overview only, when its screen takes an
// export (it declares so only where the user may make reports) and with the permissions the server checks for the
// report job (the area's read and Portal.Reports.Create); they ask the screen for its export dialog.
import { describe, expect, it, vi } from 'vitest';
import type { CommandServices } from '../../commands/command.ts';
import { isAvailable } from '../../commands/registry.ts';
import { exportTicketsCommand } from '../../commands/tickets/export-tickets.ts';
import { exportUsersCommand } from '../../commands/users/export-users.ts';
import { baseContext } from '../app/support.tsx';

const on = (routeId: string, capabilities: string[], permissions: string[]) =>
  baseContext({
    permissions,
    route: { id: routeId, pattern: `/${routeId}`, path: `/${routeId}` },
    focusedPane: { id: 'p1', capabilities: capabilities as never },
  });

describe('export commands of the tickets and users overviews', () => {
  it.each([
    ['tickets.export', 'tickets', ['export'], ['Portal.Tickets.Read', 'Portal.Reports.Create'], true],
    ['tickets.export', 'tickets', ['export'], ['Portal.Tickets.Read'], false],
    ['tickets.export', 'tickets', [], ['Portal.Tickets.Read', 'Portal.Reports.Create'], false],
    ['tickets.export', 'tickets', ['export'], [], false],
    ['tickets.export', 'users', ['export'], ['Portal.Tickets.Read'], false],
    ['users.export', 'users', ['export'], ['Mapi.Users.Read', 'Portal.Reports.Create'], true],
    ['users.export', 'users', ['export'], ['Mapi.Users.Read'], false],
    ['users.export', 'users', [], ['Mapi.Users.Read', 'Portal.Reports.Create'], false],
    ['users.export', 'transactions', ['export'], ['Mapi.Users.Read'], false],
  ])('%s on %s with %j and %j is offered: %s', (id, routeId, capabilities, permissions, expected) => {
    const command = id === 'tickets.export' ? exportTicketsCommand : exportUsersCommand;
    expect(isAvailable(command, on(routeId, capabilities, permissions))).toBe(expected);
  });

  it('asks the focused screen for its export dialog', async () => {
    for (const command of [exportTicketsCommand, exportUsersCommand]) {
      const paneRequest = vi.fn();
      await command.run({ state: { paneRequest } } as unknown as CommandServices, {});
      expect(paneRequest).toHaveBeenCalledWith('export');
    }
  });
});
