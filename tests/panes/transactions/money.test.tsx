// Money that reads right and presets that stay true, on the transactions overview and detail: refunds
// as refunds, refunded payments saying so, the Type column by default, type and currency filters, the amount
// filter asking for one currency, multi-selects applying on Apply, presets relative, described and shared.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import { ApiError } from '../../../src/api/api-error.ts';
import type { StoredPreset } from '../../../src/contract/filter-presets.ts';
import { calendarDate } from '../../../src/contract/calendar-date.ts';
import { datePresetRange } from '../../../src/contract/date-range-filter.ts';
import { amountInOwnCurrencyMessage } from '../../../src/contract/transactions.ts';
import type { TransactionDetail, TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { TransactionDetailPane } from '../../../panes/transactions/transaction-detail-pane.tsx';
import { TransactionsPane } from '../../../panes/transactions/transactions-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const item = (reference: string, amount: number, extra: Partial<TransactionListItem> = {}): TransactionListItem => ({
  reference,
  kind: 'payment',
  date: '2026-11-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  amount,
  currency: 'EUR',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ewalletType: null,
  paymentJobReference: `PJ-${reference}`,
  ...extra,
});
const listPath = '/businesses/B1/merchants/M1/transactions';
const page = [
  item('TXREFUND1', 60, { kind: 'refund' }),
  item('TXFULL01', 80, { refundedAmount: 80 }),
  item('TXPART01', 100, { refundedAmount: 20 }),
  item('TXPAID01', 15_800, { currency: 'JPY', refundedAmount: 0 }),
  item('TXCHARGE1', 45, { kind: 'chargeback' }),
];
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

function Pane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  const search = useSearch();
  return <TransactionsPane params={{}} search={search} capability="Transactions overview" />;
}

function setup(presets: StoredPreset[] = [], path = '/transactions') {
  const api = fakeApi({
    [listPath]: () => ({ results: page, numberOfResults: page.length, numberOfResultsIsEstimate: false }),
    '/filter-presets': () => ({ results: presets }),
    [`${listPath}/totals`]: () => ({
      currency: 'EUR',
      volume: 18_500,
      salesCount: 3,
      refunds: 8_000,
      refundsCount: 2,
      chargebacks: 0,
      chargebacksCount: 0,
      revenue: 10_500,
      unsuccessfulVolume: 5_500,
      unsuccessfulCount: 2,
    }),
  });
  const post = api.post as unknown as Mock;
  post.mockImplementation(async (_path: string, body: { name: string; filters: Record<string, string>; relativeDate: null }) =>
    presetOf('FPNEW', body.name, body.filters, { relativeDate: body.relativeDate }),
  );
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  const listCalls = () => api.get.mock.calls.filter(([called]) => called === listPath);
  const lastQuery = () => (listCalls().at(-1)![1] as { query: Record<string, string> }).query;
  return { api, post, location, lastQuery, listCalls, user: userEvent.setup() };
}

const rowOf = (reference: string) => screen.getByRole('rowheader', { name: reference }).closest('tr') as HTMLElement;

describe('money on the transactions overview', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.Transaction.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/transactions'] });
  });

  it('shows a refund as a refund: a badge, a negative amount; a refunded payment says so instead of Paid', async () => {
    setup();
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    expect(screen.getByRole('columnheader', { name: 'Type' })).toBeTruthy();
    const refund = within(rowOf('TXREFUND1'));
    expect(refund.getByText('Refund')).toBeTruthy();
    expect(refund.getByRole('gridcell', { name: '-€60.00' })).toBeTruthy();
    expect(within(rowOf('TXFULL01')).getByText('Refunded')).toBeTruthy();
    expect(within(rowOf('TXPART01')).getByText('Partially refunded')).toBeTruthy();
    expect(within(rowOf('TXPART01')).queryByText('Paid')).toBeNull();
    expect(within(rowOf('TXPAID01')).getByText('Paid')).toBeTruthy();
    // A chargeback takes money back too: its own badge and a negative amount.
    const chargeback = within(rowOf('TXCHARGE1'));
    expect(chargeback.getByText('Chargeback')).toBeTruthy();
    expect(chargeback.getByRole('gridcell', { name: '-€45.00' })).toBeTruthy();
  });

  it('filters by type and currency, applied on Apply and not on the first tick', async () => {
    const { user, lastQuery, listCalls } = setup();
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('filters'));
    await user.keyboard('{Shift>}F{/Shift}');
    await user.click(await screen.findByRole('button', { name: /^Type:/ }));
    const before = listCalls().length;
    await user.click(screen.getByRole('checkbox', { name: 'Refund' }));
    await user.click(screen.getByRole('checkbox', { name: 'Capture' }));
    expect(listCalls().length).toBe(before);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ kind: '[eq]refund[and][eq]capture' }));
    await user.click(screen.getByRole('button', { name: /^Currency:/ }));
    await user.click(screen.getByRole('checkbox', { name: 'EUR' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastQuery()).toMatchObject({ kind: '[eq]refund[and][eq]capture', currency: '[eq]eur' }));
    // One currency: the totals line, counted as the dashboard counts.
    expect((await screen.findByLabelText(/Totals of these filters/)).textContent).toBe(
      'Volume €185.00 · Refunds -€80.00 · Revenue €105.00 · Unsuccessful €55.00',
    );
  });

  it('filters by amount without a currency in each row’s own currency, and says so', async () => {
    const { user, lastQuery } = setup();
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.type(screen.getByLabelText('Minimum amount'), '50');
    // Sent as typed, no currency asked for: the server compares each row in its own currency, and the list says so.
    await waitFor(() => expect(lastQuery().amount).toBe('[gte]50'));
    expect(lastQuery().currency).toBeUndefined();
    expect(await screen.findByText(amountInOwnCurrencyMessage)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Currency:/ }));
    await user.click(screen.getByRole('checkbox', { name: 'EUR' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ currency: '[eq]eur', amount: '[gte]50' }));
    expect(screen.queryByText(amountInOwnCurrencyMessage)).toBeNull();
  });

  it('sends the amount of a link that names no single currency, and says how it compares', async () => {
    const { lastQuery } = setup([], '/transactions?amount=[gte]50');
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    expect(lastQuery().amount).toBe('[gte]50');
    expect(screen.getByText(amountInOwnCurrencyMessage)).toBeTruthy();
  });

  it('applies a relative preset as of today, says what each preset filters, and keeps shared ones read-only', async () => {
    const presets = [
      presetOf('FP1', 'Refunds last month', { kind: '[eq]refund', currency: '[eq]EUR', amount: '[gte]50' }, { relativeDate: 'lastMonth' }),
      presetOf('FP2', 'Team view', { status: '[eq]declined' }, { sharing: 'business', businessId: 'B1', editable: false, ownerName: 'Sam Owner' }),
    ];
    const { user, lastQuery } = setup(presets);
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await screen.findByRole('button', { name: 'Refunds last month' });
    expect(screen.getByText('Date: Last month · Type: Refund · Currency: EUR · Amount ≥ 50')).toBeTruthy();
    expect(screen.getByText(/Shared with the business by Sam Owner \(read-only\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove preset Team view' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove preset Refunds last month' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refunds last month' }));
    const { start, end } = datePresetRange('lastMonth', calendarDate(new Date()));
    await waitFor(() =>
      expect(lastQuery()).toMatchObject({
        kind: '[eq]refund',
        currency: '[eq]EUR',
        amount: '[gte]50',
        date: `[gte]${start}T00:00:00[and][lte]${end}T23:59:59`,
      }),
    );
  });

  it('saves a date range that is a dropdown preset as relative, and can share it with the business', async () => {
    const { start, end } = datePresetRange('lastMonth', calendarDate(new Date()));
    const { user, post } = setup([], `/transactions?date=${encodeURIComponent(`[gte]${start}T00:00:00[and][lte]${end}T23:59:59`)}&kind=[eq]refund`);
    await screen.findByRole('rowheader', { name: 'TXREFUND1' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.type(screen.getByLabelText('Save current filters as'), 'Refunds, last month');
    await user.click(screen.getByRole('checkbox', { name: /Share with everyone on this business/ }));
    await user.click(screen.getByRole('button', { name: 'Save preset' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/businesses/B1/filter-presets',
        {
          page: 'transactions',
          name: 'Refunds, last month',
          filters: { kind: '[eq]refund' },
          relativeDate: 'lastMonth',
        },
        undefined,
      ),
    );
  });
});

describe('money on the transaction detail', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.Transaction.Read'], context: merchantContext, paths: ['/transactions'] });
  });

  const detail = (extra: Partial<TransactionDetail>): TransactionDetail => ({
    ...item('TX0001', 12.5),
    businessName: 'Alpha Trading',
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
    ...extra,
  });

  it('reads a refund as a refund, negative, and a partly refunded payment as such', async () => {
    fakeApi({
      '/transactions/TXR1': () => detail({ reference: 'TXR1', kind: 'refund', amount: 5, parentReference: 'TX0001' }),
      '/transactions/TX0001': () =>
        detail({
          refundedAmount: 5,
          linkedTransactions: [
            { reference: 'TXR1', kind: 'refund', relation: 'child', date: '2026-11-02T10:00:00.000Z', amount: 5, currency: 'EUR', status: 'paid' },
          ],
        }),
    });
    const view = renderWithServices(<TransactionDetailPane params={{ transactionReference: 'TXR1' }} search="" capability="Transaction" />);
    expect(await screen.findByRole('heading', { name: 'Refund TXR1', level: 1 })).toBeTruthy();
    expect(screen.getByText('-€5.00')).toBeTruthy();
    view.unmount();
    renderWithServices(<TransactionDetailPane params={{ transactionReference: 'TX0001' }} search="" capability="Transaction" />);
    expect(await screen.findByRole('heading', { name: 'Transaction TX0001', level: 1 })).toBeTruthy();
    expect(screen.getByText('Partially refunded')).toBeTruthy();
    expect(screen.getByText('Refunded €5.00 of €12.50')).toBeTruthy();
    const linked = screen.getByRole('row', { name: /TXR1/ });
    expect(within(linked).getByText('-€5.00')).toBeTruthy();
    expect(within(linked).getByText('Refund')).toBeTruthy();
  });
});

vi.setConfig({ testTimeout: 20_000 });
void ApiError;
