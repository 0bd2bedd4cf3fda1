// The two 'New order' commands ask the focused virtual terminal for a new order; the second with the argument the
// pane reads as 'clear the customer' (the command may not import the pane, so the number is checked here).
import { describe, expect, it, vi } from 'vitest';
import { newOrderCommand, newOrderNewCustomerCommand } from '../../../commands/virtual-terminal/new-order.ts';
import type { CommandServices } from '../../../commands/command.ts';
import { newCustomerOrder } from '../../../panes/virtual-terminal/virtual-terminal-pane.tsx';
import { baseContext } from '../../app/support.tsx';

describe('new order commands', () => {
  it('keep or clear the customer through the pane’s newOrder request', () => {
    const paneRequest = vi.fn();
    const services = { state: { paneRequest } } as unknown as CommandServices;
    void newOrderCommand.run(services, undefined as never);
    void newOrderNewCustomerCommand.run(services, undefined as never);
    expect(paneRequest.mock.calls).toEqual([['newOrder'], ['newOrder', newCustomerOrder]]);
  });

  it('are offered only where the focused pane takes a new order', () => {
    const on = baseContext({ focusedPane: { capabilities: ['newOrder'] } as never });
    const off = baseContext({ focusedPane: { capabilities: [] } as never });
    expect(newOrderNewCustomerCommand.when?.(on)).toBe(true);
    expect(newOrderNewCustomerCommand.when?.(off)).toBe(false);
  });
});
