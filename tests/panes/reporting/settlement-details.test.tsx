// What finance reads off the settlement screens: the batch and the batch report queue the settlement details (one
// row per transaction) as CSV or XLSX, by button or by the registry's command (Shift+G); a business transfer shows
// its remittance text and the payouts it pays, summing to it; a commission plan's month opens its commission per
// transaction. Found by role and name, as a screen reader would.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CommissionPlanPane } from '../../../panes/partners/commission-plan-pane.tsx';
import { CommissionTransactionsPane } from '../../../panes/partners/commission-transactions-pane.tsx';
import { BatchDetailPane, BatchReportPane } from '../../../panes/reporting/batch-report-pane.tsx';
import { TransferDetailPane } from '../../../panes/reporting/transfer-detail-pane.tsx';
import type { SettlementBatch, SettlementBatchDetail, TransferDetail } from '../../../src/contract/ledger-schemas.ts';
import type { CommissionPlanDetail, CommissionTransactionList } from '../../../src/contract/partner-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const groups = '/businesses/B1/merchants/M1/merchant-accountgroups';
const accountNumber = '3M1071602';
const batchId = `B${accountNumber}-20261014`;
const batch: SettlementBatch = {
  batchId,
  accountNumber,
  date: '2026-10-14T00:00:00.000Z',
  status: 'Closed',
  currency: 'GBP',
  salesCount: 2,
  salesAmount: 323.45,
  refundsAmount: 50,
  reversalsAmount: 70,
  feesAmount: 7.53,
  reserveAmount: 19.59,
  netAmount: 176.33,
  closedAt: '2026-10-15T00:00:00.000Z',
};
const detail: SettlementBatchDetail = { ...batch, results: [], numberOfResults: 0 };

function render(node: React.ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {node}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { user: userEvent.setup(), location };
}

function BatchReport() {
  const search = useSearch();
  return <BatchReportPane params={{ accountNumber }} search={search} capability="Batch report" />;
}

describe('settlement details on the batch screens', () => {
  beforeEach(() => {
    resetStores();
    signIn({
      permissions: ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create'],
      context: merchantContext,
      paths: [`/reporting/batch-report/${accountNumber}/batch/${batchId}`],
    });
  });

  it('a batch queues its settlement details as CSV from its button', async () => {
    const api = fakeApi({ [`${groups}/${accountNumber}/batches/${batchId}`]: () => detail });
    const post = api.post as unknown as Mock;
    post.mockImplementation(async () => ({ reportId: 'RPT1', totalRows: 5 }));
    const { user } = render(
      <BatchDetailPane params={{ accountNumber, batchId }} search="" capability="Batch detail" />,
      `/reporting/batch-report/${accountNumber}/batch/${batchId}`,
    );
    await user.click(await screen.findByRole('button', { name: 'Download settlement details…' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Download settlement details' });
    expect(within(dialog).getByText(new RegExp(`settled in batch ${batchId}`))).toBeTruthy();
    // A batch is its own period: no month to choose; only CSV and XLSX are offered.
    expect(within(dialog).queryByLabelText('Month')).toBeNull();
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => (radio as HTMLInputElement).value),
    ).toEqual(['xlsx', 'csv']);
    await user.click(within(dialog).getByRole('radio', { name: 'CSV, comma separated (.csv)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
      `${groups}/${accountNumber}/batches/${batchId}/settlement-details/reports`,
      { fileType: 'csv', filters: {} },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Download settlement details' })).toBeNull());
  });

  it('the command (Shift+G) opens the same dialog where the screen offers it', async () => {
    fakeApi({ [`${groups}/${accountNumber}/batches/${batchId}`]: () => detail });
    render(
      <BatchDetailPane params={{ accountNumber, batchId }} search="" capability="Batch detail" />,
      `/reporting/batch-report/${accountNumber}/batch/${batchId}`,
    );
    await screen.findByRole('button', { name: 'Download settlement details…' }, { timeout: 15_000 });
    const services = createServices();
    const command = services.registry.get('reporting.downloadSettlementDetails');
    expect(command?.shortcut).toBe('Shift+G');
    expect(command?.title).toBe('Download settlement details (CSV/XLSX)…');
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('settlementDetails'));
    act(() => sendPaneRequest('settlementDetails'));
    expect(await screen.findByRole('dialog', { name: 'Download settlement details' })).toBeTruthy();
  });

  it("the batch report queues a month's settlement details (XLSX by default)", async () => {
    const api = fakeApi({ [`${groups}/${accountNumber}/batches`]: () => ({ results: [batch], numberOfResults: 1 }) });
    const post = api.post as unknown as Mock;
    post.mockImplementation(async () => ({ reportId: 'RPT2', totalRows: 40 }));
    const { user } = render(
      <BatchReport />,
      `/reporting/batch-report/${accountNumber}?date=%5Bgte%5D2026-10-01T00%3A00%3A00%5Band%5D%5Blte%5D2026-10-31T23%3A59%3A59`,
    );
    await user.click(await screen.findByRole('button', { name: 'Download settlement details…' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Download settlement details' });
    const month = within(dialog).getByLabelText('Month') as HTMLInputElement;
    expect(month.value).toBe('2026-10');
    await user.clear(month);
    await user.type(month, '2026-09');
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    const [path, body] = post.mock.calls[0] as [string, { fileType: string; filters: { date: string } }];
    expect(path).toBe(`${groups}/${accountNumber}/settlement-details/reports`);
    expect(body.fileType).toBe('xlsx');
    expect(body.filters.date).toContain('2026-09-01');
    expect(body.filters.date).toContain('2026-09-30');
  });
});

describe('a business transfer', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.BagsExternal.Read'], context: merchantContext, paths: ['/business/B1/merchants/M1/business-accounts-overview/5105002'] });
  });
  const transfer: TransferDetail = {
    id: 'R5105002-20261016',
    accountNumber: '5105002',
    transferDate: '2026-10-16T00:00:00.000Z',
    maturityDate: '2026-10-18T00:00:00.000Z',
    amount: 531.5,
    saleAmount: 550,
    currency: 'EUR',
    batchId: null,
    businessId: 'B1',
    remittanceText: 'PAYOUT R5105002-20261016 BUSINESS B1 2026-10-16',
    periodStart: '2026-10-09T00:00:00.000Z',
    payouts: [
      {
        postingId: 'payout:B3M2a-20261005',
        category: 'payout',
        batchId: 'B3M2a-20261005',
        merchantId: 'M2a',
        merchantName: 'Beta Web',
        merchantAccountNumber: '3M2a',
        batchDate: '2026-10-05T00:00:00.000Z',
        valueDate: '2026-10-06T00:00:00.000Z',
        amount: 390.15,
      },
      {
        postingId: 'payout:B3M2a-20261006',
        category: 'payout',
        batchId: 'B3M2a-20261006',
        merchantId: 'M2a',
        merchantName: 'Beta Web',
        merchantAccountNumber: '3M2a',
        batchDate: '2026-10-06T00:00:00.000Z',
        valueDate: '2026-10-07T00:00:00.000Z',
        amount: 141.35,
      },
    ],
    payoutsTotal: 531.5,
    carriedOver: 0,
  };

  it('shows the remittance text and the payouts it pays, totalling the transfer', async () => {
    fakeApi({ '/businesses/B1/business-accountgroups/5105002/transfers/R5105002-20261016': () => transfer });
    render(
      <TransferDetailPane
        params={{ businessId: 'B1', merchantId: 'M1', businessAccountId: '5105002', transferId: transfer.id }}
        search=""
        capability="Business transfer detail"
      />,
      '/',
    );
    expect(await screen.findByRole('heading', { name: `Transfer ${transfer.id}`, level: 1 }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText(transfer.remittanceText)).toBeTruthy();
    const table = screen.getByRole('table', { name: `Payouts in transfer ${transfer.id}` });
    const rows = within(table).getAllByRole('row');
    expect(rows.slice(1, 3).map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['Beta Web', 'Beta Web']);
    expect(within(rows[1] as HTMLElement).getByText(/B3M2a-20261005/)).toBeTruthy();
    const total = rows[rows.length - 1] as HTMLElement;
    expect(within(total).getByRole('rowheader').textContent).toBe('Total: the transfer');
    expect(within(total).getByText('€531.50')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Business account 5105002' }).getAttribute('href')).toBe(
      '/business/B1/merchants/M1/business-accounts-overview/5105002',
    );
  });
});

describe('commission per transaction', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Partner.Read'], paths: ['/partners/P1/commissions/CP-P1'] });
  });
  const list: CommissionTransactionList = {
    commissionPlanId: 'CP-P1',
    month: '2026-10',
    totals: [{ currency: 'GBP', volumeMinor: 2_159_900, feesMinor: 430, transactionCount: 2, commissionMinor: 60 }],
    results: [
      {
        reference: 'TXP0001',
        businessId: 'B1',
        businessName: 'Alpha Trading Ltd',
        merchantId: 'M1a',
        dateTimeUtc: '2026-10-11T00:00:00.000Z',
        currency: 'GBP',
        channel: 'Gateway',
        paymentMethod: 'card',
        cardType: 'Visa',
        feeMinor: 215,
        ruleId: 'R30',
        ruleDescription: 'GBP: 20% plus 1p',
        commissionMinor: 44,
      },
      {
        reference: 'TXP0005',
        businessId: 'B1',
        businessName: 'Alpha Trading Ltd',
        merchantId: 'M1a',
        dateTimeUtc: '2026-10-11T00:00:00.000Z',
        currency: 'GBP',
        channel: 'Moto',
        paymentMethod: 'card',
        cardType: 'Visa',
        feeMinor: 215,
        ruleId: null,
        ruleDescription: null,
        commissionMinor: 16,
      },
    ],
    numberOfResults: 2,
  };

  it('a month of the plan opens its commission per transaction', async () => {
    const plan: CommissionPlanDetail = {
      commissionPlanId: 'CP-P1',
      partnerId: 'P1',
      partnerName: 'Northwind Partners',
      name: 'Tiered revenue share',
      validFrom: '2026-01-01',
      validTo: null,
      status: 'Active',
      version: 1,
      editable: false,
      rules: [],
      totals: [{ currency: 'GBP', feesMinor: 430, commissionMinor: 60 }],
      months: [{ month: '2026-10', currency: 'GBP', volumeMinor: 2_159_900, feesMinor: 430, transactionCount: 2, unmatchedCount: 0, commissionMinor: 60 }],
    };
    fakeApi({ '/partners/P1/commission-plans/CP-P1': () => plan });
    render(
      <CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1' }} search="" capability="Commission plan" />,
      '/partners/P1/commissions/CP-P1',
    );
    const months = await screen.findByRole('table', { name: /Commission earned per month/ }, { timeout: 15_000 });
    expect(within(months).getByRole('link', { name: 'October 2026' }).getAttribute('href')).toBe(
      '/partners/P1/commissions/CP-P1/transactions/2026-10?currency=GBP',
    );
  });

  it("lists each transaction's fee, rule and share, with the month's total", async () => {
    const api = fakeApi({ '/partners/P1/commission-plans/CP-P1/transactions': () => list });
    render(
      <CommissionTransactionsPane
        params={{ partnerId: 'P1', commissionPlanId: 'CP-P1', month: '2026-10' }}
        search="currency=GBP"
        capability="Commission per transaction"
      />,
      '/partners/P1/commissions/CP-P1/transactions/2026-10',
    );
    expect(await screen.findByRole('heading', { name: 'Commission per transaction, October 2026 (GBP)', level: 1 }, { timeout: 15_000 })).toBeTruthy();
    expect(api.get).toHaveBeenCalledWith(
      '/partners/P1/commission-plans/CP-P1/transactions',
      expect.objectContaining({ query: { month: '2026-10', currency: 'GBP', pagenumber: '1', pagesize: '25' } }),
    );
    const table = await screen.findByRole('table', { name: 'Commission per transaction, by currency and reference' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['TXP0001', 'TXP0005']);
    expect(within(rows[0] as HTMLElement).getByText('GBP: 20% plus 1p')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('£0.44')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('No rule matched')).toBeTruthy();
    expect(screen.getByText('£0.60', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the commission plan' }).getAttribute('href')).toBe('/partners/P1/commissions/CP-P1');
  });
});
