// The outbox as a Technical admin reads it, against a fake Portal API: the list links each message, the HTML body
// is shown only inside a fully sandboxed frame (never in the portal's document), and the plain text as text.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { OutboxMessage } from '../../../src/contract/outbox.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import { OutboxMessagePane } from '../../../panes/outbox/outbox-message-pane.tsx';
import { OutboxPane, outboxViewOf } from '../../../panes/outbox/outbox-pane.tsx';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

function SearchAware() {
  return <OutboxPane params={{}} search={useSearch()} capability="Outbox" />;
}

const hostileHtml = '<p>Pay now</p><script>parent.alert(1)</script><img src=x onerror="parent.alert(2)">';
const message: OutboxMessage = {
  id: 'EM1',
  recipient: 'jo@example.com',
  subject: 'Your payment link',
  template: 'paymentLink',
  status: 'deliveredLocally',
  attempts: 1,
  createdAt: '2026-11-25T10:00:00.000Z',
  sentAt: '2026-11-25T10:00:02.000Z',
  html: hostileHtml,
  text: 'Pay now: https://portal.test/pay/PJ1',
  providerMessageId: '<EM1@portal.test>',
  lastError: null,
  nextAttemptAt: '2026-11-25T10:00:00.000Z',
  fromName: 'Harbour & Finch via Payments portal',
  replyTo: 'help@harbour.example',
};

describe('the outbox panes', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Outbox.Read'], paths: ['/outbox'] });
  });

  it('reads page, size, status and search from the link, ignoring what is not valid', () => {
    expect(outboxViewOf('?pagenumber=3&pagesize=50&status=failed&search=%20Jo%40ex%20')).toEqual({
      pageNumber: 3,
      pageSize: 50,
      status: 'failed',
      search: 'Jo@ex',
    });
    expect(outboxViewOf('?pagenumber=-1&pagesize=7&status=lost')).toEqual({ pageNumber: 1, pageSize: 25, status: null, search: '' });
    expect(outboxViewOf(`?search=${'x'.repeat(150)}`).search).toHaveLength(100);
  });

  it('searches recipient or subject on Enter, keeps the search in the address, and focuses it on the search request', async () => {
    const api = fakeApi({ '/outbox': () => ({ results: [message], numberOfResults: 1 }) });
    const location = memoryLocation({ path: '/outbox?status=failed', record: true });
    const paneId = workspaceStore.panes[0]?.id ?? '';
    renderWithServices(
      <PaneScopeContext value={{ paneId }}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <SearchAware />
        </Router>
      </PaneScopeContext>,
      createServices(),
    );
    const user = userEvent.setup();
    const form = await screen.findByRole('search', { name: 'Outbox search' });
    const field = within(form).getByRole('searchbox', { name: 'Search recipient or subject' });
    // Typing alone asks nothing of the server.
    await user.type(field, ' 100%_off ');
    const searched = () =>
      api.get.mock.calls.filter(([path, options]) => path === '/outbox' && (options as { query?: Record<string, unknown> }).query?.searchterm !== undefined);
    expect(searched()).toEqual([]);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/outbox?pagenumber=1&pagesize=25&status=failed&search=100%25_off'));
    await waitFor(() =>
      expect(api.get).toHaveBeenCalledWith(
        '/outbox',
        expect.objectContaining({
          query: expect.objectContaining({ status: '[eq]failed', searchterm: '[eq]100%_off', pagenumber: '1' }),
        }),
      ),
    );
    expect(field).toHaveProperty('value', '100%_off');
    // Going back to an address without a search empties the field.
    location.navigate('/outbox?status=failed');
    await waitFor(() => expect(field).toHaveProperty('value', ''));
    // The registry's Focus search (/) reaches the field through the pane's search capability.
    expect(workspaceStore.panes.find((pane) => pane.id === paneId)?.capabilities).toContain('search');
    field.blur();
    sendPaneRequest('search');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it('says when nothing matches the search', async () => {
    fakeApi({ '/outbox': () => ({ results: [], numberOfResults: 0 }) });
    renderWithServices(<OutboxPane params={{}} search="?search=nobody" capability="Outbox" />);
    expect(await screen.findByText('No emails matching “nobody”.')).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Search recipient or subject' })).toHaveProperty('value', 'nobody');
  });

  it('lists messages with their status and a link to each', async () => {
    fakeApi({ '/outbox': () => ({ results: [message], numberOfResults: 1 }) });
    renderWithServices(<OutboxPane params={{}} search="" capability="Outbox" />);
    const table = await screen.findByRole('table', { name: 'Outbox' });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no row');
    expect(within(row).getByRole('link', { name: 'Your payment link' }).getAttribute('href')).toBe('/outbox/EM1');
    expect(within(row).getByText('Delivered locally')).toBeTruthy();
    expect(within(row).getByText('jo@example.com')).toBeTruthy();
  });

  it('shows the HTML body only in a sandboxed frame, and the plain text on request', async () => {
    fakeApi({ '/outbox/EM1': () => message });
    const { container } = renderWithServices(<OutboxMessagePane params={{ emailId: 'EM1' }} search="" capability="Email" />);
    await screen.findByRole('heading', { level: 1, name: 'Your payment link' });
    // Who the shopper saw it from, and where a reply goes.
    expect(screen.getByText('From').nextElementSibling?.textContent).toBe('Harbour & Finch via Payments portal');
    expect(screen.getByText('Reply to').nextElementSibling?.textContent).toBe('help@harbour.example');
    const frame = screen.getByTitle('HTML body of Your payment link');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(hostileHtml);
    // Nothing of the body became part of the portal's document.
    expect(container.querySelector('script, img, [onerror]')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Plain text' }));
    expect(screen.getByLabelText('Plain text body of Your payment link').textContent).toBe(message.text);
    expect(screen.queryByTitle('HTML body of Your payment link')).toBeNull();
  });
});
