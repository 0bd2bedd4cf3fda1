// The ticket commands: where they are offered (a focused ticket, the permissions they need), what they change
// (one field, with the ticket's current version) and what they ask of the ticket's screen.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { CommandServices } from '../../../commands/command.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { ticketCommands } from '../../../commands/tickets/ticket-commands.ts';
import { focusedTicketId } from '../../../commands/tickets/ticket-command.ts';
import { configureApi } from '../../../src/api/api-client.ts';
import type { PortalApi } from '../../../src/api/http-client.ts';
import { ticketRequestStore } from '../../../src/state/ticket-requests.ts';
import { baseContext } from '../../app/support.tsx';

const onTicket = baseContext({
  route: { id: 'ticketDetail', pattern: '/tickets/:ticketId', path: '/tickets/TCK1?x=1' },
  context: { ...baseContext().context, businessId: 'B1' },
});
const command = (id: string) => {
  const found = ticketCommands.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no command ${id}`);
  return found;
};
const staff = ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'];
const requester = ['Portal.Tickets.Read', 'Portal.Tickets.Create'];

describe('ticket commands', () => {
  it('read the focused ticket from the pane’s path', () => {
    expect(focusedTicketId(onTicket)).toBe('TCK1');
    expect(focusedTicketId(baseContext())).toBeNull();
    expect(focusedTicketId(baseContext({ route: { id: 'ticketDetail', pattern: '/tickets/:ticketId', path: '/tickets/%E0%A4%A' } }))).toBeNull();
  });

  it.each([
    ['tickets.reply', requester, true],
    ['tickets.internalNote', requester, false],
    ['tickets.internalNote', staff, true],
    ['tickets.status.Closed', requester, false],
    ['tickets.status.InProgress', staff, true],
    ['tickets.priority.High', requester, true],
    ['tickets.assignToMe', requester, false],
    ['tickets.assignToMe', staff, true],
    ['tickets.attach', ['Portal.Tickets.Read'], false],
  ])('%s with %j is offered on a ticket: %s', (id, permissions, expected) => {
    expect(isAvailable(command(id), { ...onTicket, permissions })).toBe(expected);
    expect(isAvailable(command(id), { ...baseContext(), permissions })).toBe(false);
  });

  it('offers "Open a ticket about this" on a transaction, for its own business and merchant', async () => {
    const open = command('tickets.openAboutTransaction');
    const onTransaction = baseContext({
      permissions: requester,
      route: { id: 'transactionDetail', pattern: '/transactions/:transactionReference', path: '/transactions/TX1' },
    });
    expect(isAvailable(open, onTransaction)).toBe(true);
    expect(isAvailable(open, { ...onTransaction, permissions: ['Mapi.Transaction.Read'] })).toBe(false);
    const detail = {
      reference: 'TX1',
      kind: 'payment',
      date: '2026-11-01T10:00:00.000Z',
      businessId: 'B7',
      merchantId: 'M7',
      merchantName: 'M',
      amount: 1,
      currency: 'GBP',
      status: 'paid',
      paymentMethod: 'card',
      channel: 'Gateway',
      ewalletType: null,
      paymentJobReference: 'PJ1',
      businessName: 'B',
      partnerId: null,
      configurationId: 'C1',
      parentReference: null,
      maskedCardNumber: null,
      declineReason: null,
      customerEmail: null,
      originatingIpAddress: null,
      paymentMethods: [],
      paymentJob: null,
      linkedTransactions: [],
      cardNumberRevealable: false,
    };
    const navigate = vi.fn();
    const api = { get: vi.fn(async () => detail) } as unknown as PortalApi;
    await open.run({ context: () => onTransaction, navigate, api } as unknown as CommandServices, {});
    expect(navigate).toHaveBeenCalledWith('/tickets/add?type=dispute&transaction=TX1&business=B7&merchant=M7', { beside: true });
  });

  it('changes one field of the ticket with its current version', async () => {
    const detail = {
      ticketId: 'TCK1',
      businessId: 'B1',
      businessName: 'Alpha',
      merchantId: null,
      merchantName: null,
      type: 'bug',
      status: 'Open',
      priority: 'Low',
      subject: 'S',
      description: 'D',
      createdUtc: '2026-11-01T10:00:00.000Z',
      lastUpdatedUtc: '2026-11-01T10:00:00.000Z',
      createdBy: { userId: 'u1', name: 'U' },
      assignee: { userId: 'u2', name: 'Staff' },
      version: 7,
      linkedTransactionReference: null,
      linkedPaymentJobReference: null,
      attachments: [],
      allAttachments: [],
      commentCount: 0,
    };
    const put = vi.fn(async () => detail);
    const api = { get: vi.fn(async () => detail), put } as unknown as PortalApi;
    configureApi(api);
    const toast = vi.fn();
    const services = {
      context: () => ({ ...onTicket, permissions: staff }),
      api,
      queryClient: new QueryClient(),
      state: { toast },
    } as unknown as CommandServices;
    await command('tickets.status.OnHold').run(services, {});
    expect(put).toHaveBeenCalledWith('/tickets/TCK1', {
      type: 'bug',
      priority: 'Low',
      status: 'OnHold',
      subject: 'S',
      description: 'D',
      assigneeId: 'u2',
      version: 7,
    });
    expect(toast).toHaveBeenCalledWith({ kind: 'success', message: 'Ticket status set to On hold.' });
  });

  it('asks the ticket’s screen to open the composer or the file picker', () => {
    const services = { context: () => onTicket } as unknown as CommandServices;
    command('tickets.attach').run(services, {});
    expect(ticketRequestStore.request).toMatchObject({ ticketId: 'TCK1', kind: 'attach' });
    command('tickets.reply').run(services, {});
    expect(ticketRequestStore.request).toMatchObject({ ticketId: 'TCK1', kind: 'reply' });
  });
});
