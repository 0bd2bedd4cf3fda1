// The tickets overview's filter presets, saved in the database: shared with the applied context's business when asked,
// listed with their badge, applied with a message.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { TicketListItem } from '../../../src/contract/ticket-schemas.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { TicketsPane } from '../../../panes/tickets/tickets-pane.tsx';
import { fakeApi, fakePresetStore, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row: TicketListItem = {
  ticketId: 'TCK00001',
  businessId: 'B1',
  businessName: 'Alpha Trading',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  type: 'bug',
  status: 'Open',
  priority: 'High',
  subject: 'Export fails',
  createdUtc: '2026-11-01T10:00:00.000Z',
  lastUpdatedUtc: '2026-11-02T10:00:00.000Z',
  createdBy: { userId: 'user-9', name: 'Olive Owner' },
  assignee: null,
  updatedByRequester: false,
};

function Pane() {
  return <TicketsPane params={{}} search={useSearch()} capability="Support tickets" />;
}

describe('the tickets overview’s filter presets', () => {
  beforeEach(() => {
    resetStores();
    window.localStorage.clear();
  });

  it('saves the filters as a preset shared with the business, and applies it', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets'] });
    const presets = fakePresetStore();
    const api = fakeApi({
      '/businesses/B1/merchants/M1/tickets': () => ({ results: [row], numberOfResults: 1 }),
      '/filter-presets': presets.list,
    });
    presets.attach(api);
    const post = api.post as unknown as Mock;
    const location = memoryLocation({ path: `/tickets?status=${encodeURIComponent('[eq]open')}`, record: true });
    renderWithServices(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane />
      </Router>,
    );
    const user = userEvent.setup();
    await screen.findByRole('rowheader', { name: 'TCK00001' }, { timeout: 20_000 });
    await waitFor(() => expect(api.get).toHaveBeenCalledWith('/filter-presets', expect.objectContaining({ query: { page: 'tickets', businessId: 'B1' } })));

    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.type(screen.getByLabelText('Save current filters as'), 'Open ones');
    await user.click(screen.getByRole('checkbox', { name: 'Share with everyone on this business (read-only to them)' }));
    await user.click(screen.getByRole('button', { name: 'Save preset' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/businesses/B1/filter-presets',
        { page: 'tickets', name: 'Open ones', filters: { status: '[eq]open' }, relativeDate: null },
        undefined,
      ),
    );
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Open ones' saved."));

    await user.click(within(screen.getByRole('group', { name: 'Queue views' })).getByRole('button', { name: 'All tickets' }));
    await waitFor(() => expect(location.history.at(-1)).not.toContain('status='));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    expect(await screen.findByText('Shared with the business by Pat Test')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Open ones' }));
    await waitFor(() => expect(location.history.at(-1)).toContain(`status=${encodeURIComponent('[eq]open')}`));
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Open ones' applied."));
  }, 40_000);

  it('keeps staff’s presets without a business when they work without a context', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'], context: {}, paths: ['/tickets'] });
    const api = fakeApi({ '/tickets': () => ({ results: [row], numberOfResults: 1 }), '/filter-presets': () => ({ results: [] }) });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    await screen.findByRole('rowheader', { name: 'TCK00001' }, { timeout: 20_000 });
    await waitFor(() => expect(api.get).toHaveBeenCalledWith('/filter-presets', expect.objectContaining({ query: { page: 'tickets' } })));
    await userEvent.click(screen.getByRole('button', { name: 'Presets' }));
    expect(screen.getByText('No presets saved for this page yet.')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /^Share with/ })).toBeNull();
  }, 40_000);
});
