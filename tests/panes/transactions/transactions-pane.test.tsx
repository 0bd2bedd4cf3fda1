// The transactions overview as a person uses it: list, sort, filter, presets, columns, export and the row cursor,
// against a fake Portal API, inside a pane with the real command registry and shortcut binder.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import { ApiError } from '../../../src/api/api-error.ts';
import type { StoredPreset } from '../../../src/contract/filter-presets.ts';
import type { TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { TransactionsPane } from '../../../panes/transactions/transactions-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const item = (reference: string, amount: number, status = 'paid'): TransactionListItem => ({
  reference,
  kind: 'payment',
  date: '2026-11-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  amount,
  currency: 'GBP',
  status,
  paymentMethod: 'card',
  channel: 'Gateway',
  ewalletType: null,
  paymentJobReference: `PJ-${reference}`,
  maskedCardNumber: '411111******1111',
});
const listPath = '/businesses/B1/merchants/M1/transactions';
const page = [item('TX0001', 12.5), item('TX0002', 99.99, 'declined'), item('TX0003', 5)];

function Pane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  const search = useSearch();
  return <TransactionsPane params={{}} search={search} capability="Transactions overview" />;
}

function setup(options: { fail?: boolean; path?: string } = {}) {
  const api = fakeApi({
    [listPath]: () => {
      if (options.fail) throw new ApiError({ status: 500, messages: [], kind: 'http', handled: true });
      return { results: page, numberOfResults: 3, numberOfResultsIsEstimate: false };
    },
    // The context-free list (scope=all, as the palette's preview looked).
    '/transactions': () => ({
      results: [{ ...item('TX9Z0001', 150), currency: 'EUR', maskedCardNumber: '510510******5100' }],
      numberOfResults: 1,
      numberOfResultsIsEstimate: false,
    }),
  });
  const post = api.post as unknown as Mock;
  const put = api.put as unknown as Mock;
  post.mockImplementation(async () => ({ reportId: 'RPT01', totalRows: 3 }));
  put.mockImplementation(async (_path: string, body: unknown) => ({ key: 'x', value: (body as { value: string }).value }));
  const location = memoryLocation({ path: options.path ?? '/transactions', record: true });
  const services = createServices();
  const paneId = workspaceStore.panes[0]?.id ?? '';
  const view = renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane />
      </Router>
    </PaneScopeContext>,
    services,
  );
  const lastQuery = () => (api.get.mock.calls.filter(([path]) => path === listPath).at(-1)![1] as { query: Record<string, string> }).query;
  return { api, post, put, location, view, lastQuery, user: userEvent.setup() };
}

const presetOf = (id: string, name: string, filters: Record<string, string>, extra: Partial<StoredPreset> = {}): StoredPreset => ({
  id,
  page: 'transactions',
  name,
  filters,
  relativeDate: null,
  sharing: 'personal',
  businessId: null,
  role: null,
  isDefault: false,
  ownerName: 'Pat Test',
  editable: true,
  version: 1,
  updatedUtc: '2026-11-01T10:00:00.000Z',
  ...extra,
});

const rowOf = (reference: string) => screen.getByRole('rowheader', { name: reference }).closest('tr') as HTMLElement;

describe('the transactions overview', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.Transaction.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/transactions'] });
  });

  it('lists the applied context’s transactions, newest first, 25 a page', async () => {
    const { lastQuery } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    expect(lastQuery()).toEqual({ pagenumber: '1', pagesize: '25', OrderingField: 'date', OrderingDirection: 'Descending' });
    const grid = screen.getByRole('grid', { name: 'Transactions' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent?.replace(/[↑↓↕]/g, '')),
    ).toEqual(
      // The selection's checkbox column first, then the overview's own.
      ['Selected', 'Date', 'Reference', 'Merchant', 'Amount', 'Currency', 'Status', 'Payment method', 'Channel', 'E-wallet', 'Type'],
    );
    expect(within(rowOf('TX0001')).getByRole('gridcell', { name: '£12.50' })).toBeTruthy();
    expect(screen.getByText('1–3 of 3')).toBeTruthy();
  });

  it('sorts by a column and keeps the whole state in the URL, back on page 1', async () => {
    const { user, location, lastQuery } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    await user.click(screen.getByRole('button', { name: /Amount/ }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ pagenumber: '1', pagesize: '50', OrderingField: 'amount', OrderingDirection: 'Descending' }));
    expect(location.history.at(-1)).toBe('/transactions?pagesize=50&OrderingField=amount&OrderingDirection=Descending');
  });

  it('filters by status and searches, in the documented syntax', async () => {
    const { user, location, lastQuery } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('button', { name: /^Status:/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Declined' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: '[eq]declined' }));
    await user.type(screen.getByRole('searchbox', { name: /Search reference/ }), 'TX00{Enter}');
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: '[eq]declined', searchterm: '[eq]TX00' }));
    expect(decodeURIComponent(location.history.at(-1) ?? '')).toContain('status=[eq]declined&searchterm=[eq]TX00');
  });

  it('empties the list and says so when it cannot be loaded', async () => {
    setup({ fail: true });
    expect(await screen.findByRole('gridcell', { name: 'The transactions could not be loaded.' })).toBeTruthy();
    expect(screen.getByText('No results')).toBeTruthy();
  });

  it('moves the row cursor with j and k and opens rows with Enter and Shift+Enter', async () => {
    const { user, location } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('rows'));
    await user.keyboard('j');
    // The cursor row holds the tab stop (aria-selected says picked: the overview takes a selection).
    await waitFor(() => expect(rowOf('TX0002').tabIndex).toBe(0));
    await waitFor(() => expect(document.activeElement).toBe(rowOf('TX0002')));
    await user.keyboard('jk');
    await waitFor(() => expect(rowOf('TX0002').tabIndex).toBe(0));
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    await waitFor(() => expect(workspaceStore.panes.map((pane) => pane.path)).toEqual(['/transactions', '/transactions/TX0002']));
    await user.keyboard('{Enter}');
    expect(location.history.at(-1)).toBe('/transactions/TX0002');
  });

  it('saves, applies and removes a filter preset in the database, with success messages', async () => {
    const { user, api, post } = setup();
    const stored: StoredPreset[] = [];
    (api.get as Mock).mockImplementation(async (path: string) => {
      if (path === '/filter-presets') return { results: stored };
      if (path === listPath) return { results: page, numberOfResults: 3, numberOfResultsIsEstimate: false };
      throw new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: false });
    });
    post.mockImplementation(async (_path: string, body: { name: string; filters: Record<string, string>; relativeDate: null }) => {
      const preset = { ...presetOf(`FP${stored.length}`, body.name, body.filters), relativeDate: body.relativeDate };
      stored.push(preset);
      return preset;
    });
    (api.delete as Mock).mockImplementation(async () => {
      stored.length = 0;
    });
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('button', { name: /^Channel:/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Chp' }));
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.type(screen.getByLabelText('Save current filters as'), 'Card present{Enter}');
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/filter-presets',
        { page: 'transactions', name: 'Card present', filters: { channel: '[eq]chp' }, relativeDate: null },
        undefined,
      ),
    );
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => [toast.kind, toast.message])).toContainEqual(['success', "Filter preset 'Card present' saved."]),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    const apply = await screen.findByRole('button', { name: 'Card present' });
    expect(apply.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Channel: Chp')).toBeTruthy();
    await user.click(apply);
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Card present' applied."));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(screen.getByRole('button', { name: 'Remove preset Card present' }));
    await waitFor(() => expect(api.delete).toHaveBeenCalledWith('/filter-presets/FP0?version=1', undefined));
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Card present' removed."));
  });

  it('hides a column and remembers it for the user', async () => {
    const { user, put } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.keyboard('{Shift>}C{/Shift}');
    const dialog = await screen.findByRole('dialog', { name: 'Columns' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Currency' }));
    await waitFor(() => expect(put).toHaveBeenCalledWith('/user-settings/transactionsColumns', expect.anything(), undefined));
    expect(JSON.parse((put.mock.calls.at(-1)![1] as { value: string }).value).hidden).toContain('currency');
    expect(screen.queryByRole('columnheader', { name: 'Currency' })).toBeNull();
  });

  it('exports every matching row into the report queue and says so for 7.5 s', async () => {
    const { user, post } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.keyboard('{Shift>}X{/Shift}');
    const dialog = await screen.findByRole('dialog', { name: 'Export transactions' });
    expect(within(dialog).getByRole('status').textContent).toBe('3 transactions will be exported, every one that matches the filters.');
    await user.click(within(dialog).getByRole('radio', { name: 'CSV, comma separated (.csv)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        `${listPath}/full/reports`,
        {
          fileType: 'csv',
          columns: ['date', 'reference', 'merchant', 'amount', 'currency', 'status', 'paymentMethod', 'channel', 'ewalletType', 'kind'],
          filters: {},
          ordering: { OrderingField: 'date', OrderingDirection: 'Descending' },
        },
        undefined,
      ),
    );
    await waitFor(() =>
      expect(toastStore.toasts.at(-1)).toMatchObject({
        kind: 'info',
        message: 'Your report has been queued.',
        durationMs: 7500,
        link: { href: '/reporting-overview' },
      }),
    );
    expect(screen.queryByRole('dialog', { name: 'Export transactions' })).toBeNull();
  });

  it('focuses the search with /', async () => {
    const { user } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('search'));
    await user.keyboard('/');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: /Search reference/ })));
  });

  it('leaves Enter to a focused button', async () => {
    const { user } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' });
    // The pane offers its rows throughout; the row commands look at the focus when the key is pressed.
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('rows'));
    screen.getByRole('button', { name: 'Columns' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Columns' })).toBeTruthy();
    expect(workspaceStore.panes).toHaveLength(1);
  });

  describe('finding a payment by its card', () => {
    it('offers the masked card as a column to choose', async () => {
      const { user, put } = setup();
      await screen.findByRole('rowheader', { name: 'TX0001' }, { timeout: 60_000 });
      expect(screen.queryByRole('columnheader', { name: 'Card' })).toBeNull();
      await user.keyboard('{Shift>}C{/Shift}');
      const dialog = await screen.findByRole('dialog', { name: 'Columns' });
      await user.click(within(dialog).getByRole('checkbox', { name: 'Card number (masked)' }));
      await waitFor(() => expect(put).toHaveBeenCalledWith('/user-settings/transactionsColumns', expect.anything(), undefined));
      expect(JSON.parse((put.mock.calls.at(-1)![1] as { value: string }).value).hidden).not.toContain('maskedCardNumber');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Columns' })).toBeNull());
      await waitFor(() => expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toContain('Card'));
      expect(within(rowOf('TX0001')).getByRole('gridcell', { name: '411111******1111' })).toBeTruthy();
    }, 120_000);

    it('filters by the last four, the first six or both from the Card field', async () => {
      const { user, lastQuery, location } = setup();
      await screen.findByRole('rowheader', { name: 'TX0001' });
      const card = screen.getByRole('searchbox', { name: 'Card: last four or first six digits' });
      await user.type(card, '4242{Enter}');
      await waitFor(() => expect(lastQuery()).toMatchObject({ last4: '[eq]4242' }));
      expect(lastQuery().bin).toBeUndefined();
      expect(decodeURIComponent(location.history.at(-1) ?? '')).toContain('last4=[eq]4242');
      await user.clear(card);
      await user.type(card, '424242******4242{Enter}');
      await waitFor(() => expect(lastQuery()).toMatchObject({ last4: '[eq]4242', bin: '[eq]424242' }));
      await user.clear(card);
      await user.type(card, '42');
      expect(screen.getByText('Type the card’s last four digits, its first six, or both as 424242…4242.')).toBeTruthy();
    });

    it('opened from the palette, lists what its preview searched and says what it did not use', async () => {
      const { api } = setup({ path: '/transactions?scope=all&last4=[eq]5100&amount=[gte]100.001&unused=colour:red%20hi' });
      // The applied context is a merchant's, yet the list is the context-free one the preview looked through.
      await screen.findByRole('rowheader', { name: 'TX9Z0001' });
      const calls = api.get.mock.calls.filter(([path]) => path === '/transactions');
      expect((calls.at(-1)![1] as { query: Record<string, string> }).query).toMatchObject({ last4: '[eq]5100', amount: '[gte]100.001' });
      expect(api.get.mock.calls.some(([path]) => path === listPath)).toBe(false);
      expect(screen.getByText(/every transaction you may see, not only the context you chose/)).toBeTruthy();
      expect(screen.getByText('colour:red hi').closest('p')?.textContent).toMatch(/^Not used from the search: colour:red hi\./);
      expect(screen.getByText(/compared in each transaction’s own currency/)).toBeTruthy();
      expect((screen.getByRole('searchbox', { name: 'Card: last four or first six digits' }) as HTMLInputElement).value).toBe('5100');
    });
  });
});

vi.setConfig({ testTimeout: 15_000 });
