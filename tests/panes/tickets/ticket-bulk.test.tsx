// Bulk actions from the tickets overview: picked rows, then all matching, assigned as one server job over
// the filters; a requester may change status (the server lets them close only their own) but not assign.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { TicketListItem } from '../../../src/contract/ticket-schemas.ts';
import { TicketsPane } from '../../../panes/tickets/tickets-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row = (ticketId: string): TicketListItem => ({
  ticketId,
  businessId: 'B1',
  businessName: 'Alpha Trading',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  type: 'bug',
  status: 'Open',
  priority: 'High',
  subject: `Subject ${ticketId}`,
  createdUtc: '2026-11-01T10:00:00.000Z',
  lastUpdatedUtc: '2026-11-02T10:00:00.000Z',
  createdBy: { userId: 'user-9', name: 'Olive Owner' },
  assignee: null,
});
const job: BulkJob = {
  id: 'BLK00000000000000CC',
  area: 'tickets',
  action: 'assignee',
  status: 'queued',
  cancelRequested: false,
  totalItems: 42,
  processedItems: 0,
  succeededItems: 0,
  failedItems: 0,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  reportId: null,
  resultFileName: null,
  error: null,
};
const tickets = '/businesses/B1/merchants/M1/tickets';
const staff = ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'];

describe('bulk actions on tickets', () => {
  beforeEach(() => resetStores());

  it('assigns all matching tickets of a filtered view to a staff member as one server job', async () => {
    signIn({ permissions: staff, context: merchantContext, paths: ['/tickets'] });
    const api = fakeApi({
      [tickets]: () => ({ results: [row('TCK1'), row('TCK2')], numberOfResults: 42 }),
      '/ticket-assignees': () => ({ results: [{ userId: 'user-7', name: 'Grace Hopper' }] }),
    });
    (api.post as Mock).mockResolvedValue({ job });
    renderWithServices(<TicketsPane params={{}} search={`status=${encodeURIComponent('[eq]Open')}`} capability="Support tickets" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select TCK1' }, { timeout: 8000 }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('1 selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Select all 42 matching tickets' }));
    expect(within(bar).getByRole('status').textContent).toBe('All 42 matching selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Change assignee…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change assignee' });
    expect(within(dialog).getByText(/^42 tickets will be assigned/)).toBeTruthy();
    await within(dialog).findByRole('option', { name: 'Grace Hopper' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'New assignee' }), 'user-7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(api.post).toHaveBeenCalledTimes(1);
    const [path, body, options] = (api.post as Mock).mock.calls[0] as [string, Record<string, unknown>, { headers: Record<string, string> }];
    expect(path).toBe('/bulk-jobs');
    expect(body).toEqual({
      area: 'tickets',
      action: 'assignee',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1' },
      selection: { allMatching: true, filters: { status: '[eq]Open' }, includedIds: [], excludedIds: [] },
      params: { assigneeId: 'user-7' },
    });
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
    expect(screen.queryByRole('dialog', { name: 'Change assignee' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
  }, 20_000);

  it('offers a requester the status change of picked tickets, and no assignee change', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets'] });
    const api = fakeApi({ [tickets]: () => ({ results: [row('TCK1'), row('TCK2')], numberOfResults: 2 }) });
    (api.post as Mock).mockResolvedValue({ job: { ...job, action: 'status' } });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select TCK2' }, { timeout: 8000 }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).queryByRole('button', { name: 'Change assignee…' })).toBeNull();
    await userEvent.click(within(bar).getByRole('button', { name: 'Change status…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change status' });
    expect((within(dialog).getByRole('combobox', { name: 'New status' }) as HTMLSelectElement).value).toBe('Closed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start' }));
    const [, body] = (api.post as Mock).mock.calls[0] as [string, Record<string, unknown>];
    expect(body).toMatchObject({ action: 'status', selection: { allMatching: false, includedIds: ['TCK2'], excludedIds: [] }, params: { status: 'Closed' } });
  }, 20_000);
});
