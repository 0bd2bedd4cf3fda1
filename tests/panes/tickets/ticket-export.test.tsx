// Export from the tickets overview: the header's Export and the selection bar's 'Export selected…'
// queue a bulk 'export' job (a report in My report queue) over the picks or over every ticket matching the filters.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { TicketListItem } from '../../../src/contract/ticket-schemas.ts';
import { TicketsPane, visibleTicketExportColumns } from '../../../panes/tickets/tickets-pane.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
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
  id: 'BLK00000000000000EE',
  area: 'tickets',
  action: 'export',
  status: 'queued',
  cancelRequested: false,
  totalItems: 1,
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
const requester = ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Reports.Create'];

describe('export of tickets', () => {
  beforeEach(() => resetStores());

  it("maps the visible columns to the export's, Business bringing the merchant along", () => {
    expect(visibleTicketExportColumns(['ticketId', 'business', 'status', 'unknown'])).toEqual(['ticketId', 'business', 'merchant', 'status']);
  });

  it('exports the picked tickets through My report queue, with the visible columns', async () => {
    signIn({ permissions: requester, context: merchantContext, paths: ['/tickets'] });
    const api = fakeApi({ [tickets]: () => ({ results: [row('TCK1'), row('TCK2')], numberOfResults: 30 }) });
    (api.post as Mock).mockResolvedValue({ job });
    renderWithServices(<TicketsPane params={{}} search={`status=${encodeURIComponent('[eq]Open')}`} capability="Support tickets" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select TCK2' }, { timeout: 15_000 }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Export selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export tickets' });
    expect(within(dialog).getByRole('status').textContent).toBe('1 ticket will be exported, the one you selected.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /CSV/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    const [path, body, options] = (api.post as Mock).mock.calls[0] as [
      string,
      { params: { columns: string[] } } & Record<string, unknown>,
      { headers: Record<string, string> },
    ];
    expect(path).toBe('/bulk-jobs');
    expect(body).toMatchObject({
      area: 'tickets',
      action: 'export',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1' },
      selection: { allMatching: false, filters: { status: '[eq]Open' }, includedIds: ['TCK2'], excludedIds: [] },
      params: { fileType: 'csv' },
    });
    expect(body.params.columns).toContain('ticketId');
    expect(body.params.columns).not.toContain('lastComment');
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => toast.message)).toContain('The export is being made: it will wait for you in My report queue.'),
    );
    expect(screen.queryByRole('dialog', { name: 'Export tickets' })).toBeNull();
  }, 40_000);

  it('exports every matching ticket from the header, with all columns, and offers no export without Portal.Reports.Create', async () => {
    signIn({ permissions: requester, context: merchantContext, paths: ['/tickets'] });
    const api = fakeApi({ [tickets]: () => ({ results: [row('TCK1')], numberOfResults: 30 }) });
    (api.post as Mock).mockResolvedValue({ job });
    const view = renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    await screen.findByRole('checkbox', { name: 'Select TCK1' }, { timeout: 15_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export tickets' });
    expect(within(dialog).getByRole('status').textContent).toBe('30 tickets will be exported, every one that matches the filters.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /All 14 columns/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    const [, body] = (api.post as Mock).mock.calls[0] as [string, { params: { columns: string[] } } & Record<string, unknown>];
    expect(body).toMatchObject({ selection: { allMatching: true, includedIds: [], excludedIds: [] }, params: { fileType: 'xlsx' } });
    expect(body.params.columns).toHaveLength(14);
    view.unmount();
    resetStores();
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets'] });
    fakeApi({ [tickets]: () => ({ results: [row('TCK1')], numberOfResults: 1 }) });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    await screen.findByRole('checkbox', { name: 'Select TCK1' }, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  }, 40_000);
});
