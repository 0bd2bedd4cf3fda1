// The support queue's views on the tickets overview (all, open, updated by requester, mine, unassigned): buttons that
// put the view's filters in the URL, the requester's flag on a row, staff's queue without a context, and the scope
// (this context or all businesses) remembered for the next visit.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TicketListItem } from '../../../src/contract/ticket-schemas.ts';
import { TicketsPane, rememberedTicketScope } from '../../../panes/tickets/tickets-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row = (ticketId: string, updatedByRequester = false): TicketListItem => ({
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
  updatedByRequester,
});
const merchantTickets = '/businesses/B1/merchants/M1/tickets';
const staff = ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'];
const requester = ['Portal.Tickets.Read', 'Portal.Tickets.Create'];
const urlParams = () => new URLSearchParams(window.location.search);

describe('the queue views of the tickets overview', () => {
  beforeEach(() => {
    resetStores();
    window.localStorage.clear();
    window.history.replaceState(null, '', '/tickets');
  });

  it('offers staff five views, marks the active one, and puts a view’s filters in the URL', async () => {
    signIn({ permissions: staff, context: merchantContext, paths: ['/tickets'] });
    fakeApi({ [merchantTickets]: () => ({ results: [row('TCK00001'), row('TCK00002', true)], numberOfResults: 2 }) });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    const views = screen.getByRole('group', { name: 'Queue views' });
    expect(
      within(views)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['All tickets', 'Open', 'Updated by requester', 'Mine', 'Unassigned']);
    expect(within(views).getByRole('button', { name: 'All tickets' }).getAttribute('aria-pressed')).toBe('true');

    // The flag: only on the row the requester updated, named so.
    const flaggedRow = (await screen.findByRole('rowheader', { name: 'TCK00002' }, { timeout: 20_000 })).closest('tr, [role="row"]') as HTMLElement;
    expect(within(flaggedRow).getByText('Updated by requester')).toBeTruthy();
    const quietRow = screen.getByRole('rowheader', { name: 'TCK00001' }).closest('tr, [role="row"]') as HTMLElement;
    expect(within(quietRow).queryByText('Updated by requester')).toBeNull();

    await userEvent.click(within(views).getByRole('button', { name: 'Updated by requester' }));
    expect(urlParams().get('updatedbyrequester')).toBe('[eq]true');
    await userEvent.click(within(views).getByRole('button', { name: 'Mine' }));
    expect(urlParams().get('assignee')).toBe('[eq]user-1');
    expect(urlParams().get('updatedbyrequester')).toBeNull();
    await userEvent.click(within(views).getByRole('button', { name: 'Unassigned' }));
    expect(urlParams().get('assignee')).toBe('[eq]none');
  }, 40_000);

  it('marks the view the URL shows, keeping the search beside it', () => {
    signIn({ permissions: staff, context: merchantContext, paths: ['/tickets'] });
    fakeApi({ [merchantTickets]: () => ({ results: [], numberOfResults: 0 }) });
    renderWithServices(
      <TicketsPane
        params={{}}
        search={`status=${encodeURIComponent('[eq]Open')}&searchterm=${encodeURIComponent('[eq]refund')}`}
        capability="Support tickets"
      />,
    );
    const views = screen.getByRole('group', { name: 'Queue views' });
    expect(within(views).getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(views).getByRole('button', { name: 'All tickets' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('offers a requester the views that are theirs: all and open', () => {
    signIn({ permissions: requester, context: merchantContext, paths: ['/tickets'] });
    fakeApi({ [merchantTickets]: () => ({ results: [], numberOfResults: 0 }) });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    expect(
      within(screen.getByRole('group', { name: 'Queue views' }))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['All tickets', 'Open']);
    expect(screen.queryByRole('group', { name: 'Which tickets' })).toBeNull();
  });

  it('shows staff without a context every business’s queue, with no scope to choose', async () => {
    signIn({ permissions: staff, context: {}, paths: ['/tickets'] });
    const api = fakeApi({ '/tickets': () => ({ results: [row('TCK00003', true)], numberOfResults: 1 }) });
    renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    expect(await screen.findByRole('rowheader', { name: 'TCK00003' }, { timeout: 20_000 })).toBeTruthy();
    expect(api.get.mock.calls.map(([path]) => path)).toContain('/tickets');
    expect(screen.queryByRole('group', { name: 'Which tickets' })).toBeNull();
  }, 40_000);

  it('remembers “All businesses”, so a URL without a scope (g s, a view command) opens it again', async () => {
    signIn({ permissions: staff, context: merchantContext, paths: ['/tickets'] });
    fakeApi({ [merchantTickets]: () => ({ results: [], numberOfResults: 0 }), '/tickets': () => ({ results: [], numberOfResults: 0 }) });
    const first = renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    await userEvent.click(within(screen.getByRole('group', { name: 'Which tickets' })).getByRole('button', { name: 'All businesses' }));
    expect(urlParams().get('scope')).toBe('all');
    expect(rememberedTicketScope('user-1')).toBe('all');
    first.unmount();

    window.history.replaceState(null, '', '/tickets');
    const second = renderWithServices(<TicketsPane params={{}} search="" capability="Support tickets" />);
    expect(urlParams().get('scope')).toBe('all');
    second.unmount();

    // Choosing 'This context' is remembered the same way.
    window.history.replaceState(null, '', '/tickets?scope=all');
    renderWithServices(<TicketsPane params={{}} search="scope=all" capability="Support tickets" />);
    await userEvent.click(within(screen.getByRole('group', { name: 'Which tickets' })).getByRole('button', { name: 'This context' }));
    expect(urlParams().get('scope')).toBeNull();
    expect(rememberedTicketScope('user-1')).toBe('context');
  }, 20_000);
});
