// The transaction detail (linked transactions, masked card, the audited reveal) and My report queue (states,
// progress, expiry, filters, download, delete, retry, cancel), against a fake Portal API.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import type { QueuedReport } from '../../../src/contract/report-schemas.ts';
import type { TransactionDetail } from '../../../src/contract/transaction-schemas.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { TransactionDetailPane } from '../../../panes/transactions/transaction-detail-pane.tsx';
import { describeFilters, ReportQueuePane } from '../../../panes/reporting-overview/report-queue-pane.tsx';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const detail = (overrides: Partial<TransactionDetail> = {}): TransactionDetail => ({
  reference: 'TX0001',
  kind: 'payment',
  date: '2026-11-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  amount: 12.5,
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ewalletType: null,
  paymentJobReference: 'PJ0001',
  businessName: 'Alpha Trading',
  partnerId: null,
  configurationId: 'C1',
  parentReference: null,
  maskedCardNumber: '411111******1111',
  declineReason: null,
  customerEmail: 'ada@example.test',
  originatingIpAddress: null,
  paymentMethods: [{ paymentMethod: 'card', ewalletType: null, maskedCardNumber: '411111******1111' }],
  paymentJob: {
    reference: 'PJ0001',
    orderNumber: 'ORD-1',
    status: 'paid',
    createDateTimeUtc: '2026-11-01T09:59:00.000Z',
    amount: 12.5,
    currency: 'GBP',
    configurationId: 'C1',
  },
  linkedTransactions: [
    { reference: 'TX0002', kind: 'refund', relation: 'child', date: '2026-11-02T10:00:00.000Z', amount: 5, currency: 'GBP', status: 'paid' },
  ],
  cardNumberRevealable: false,
  ...overrides,
});

describe('the transaction detail', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transaction.Read'], paths: ['/transactions/TX0001'] });
  });

  it('shows the transaction, its payment job and linked transactions, and only the masked card', async () => {
    fakeApi({ '/transactions/TX0001': () => detail() });
    renderWithServices(<TransactionDetailPane params={{ transactionReference: 'TX0001' }} search="" capability="Transaction detail" />);
    expect(await screen.findByRole('heading', { name: 'Transaction TX0001', level: 1 })).toBeTruthy();
    expect(screen.getAllByText('£12.50')).toHaveLength(2);
    expect(screen.getByLabelText('Card number').textContent).toBe('411111******1111');
    expect(screen.queryByRole('button', { name: 'Reveal card number' })).toBeNull();
    const linked = screen.getByRole('table', { name: 'Linked transactions' });
    expect(within(linked).getByRole('link', { name: 'TX0002' }).getAttribute('href')).toBe('/transactions/TX0002');
    expect(within(linked).getByText('Refund')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'PJ0001' }).getAttribute('href')).toBe('/configurations/C1/payments/PJ0001');
  });

  it('reveals the full card number on request where allowed, and hides it again', async () => {
    const api = fakeApi({
      '/transactions/TX0001': () => detail({ cardNumberRevealable: true }),
      '/transactions/TX0001/cardNumber': () => ({ cardNumber: '4111111111111111' }),
    });
    renderWithServices(<TransactionDetailPane params={{ transactionReference: 'TX0001' }} search="" capability="Transaction detail" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reveal card number' }));
    await waitFor(() => expect(screen.getByLabelText('Card number').textContent).toBe('4111111111111111'));
    expect(api.get).toHaveBeenCalledWith('/transactions/TX0001/cardNumber', { handleErrors: expect.any(Function) });
    expect(screen.getByText('Revealing the card number asks for your password and is recorded in the audit log.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Hide card number' }));
    expect(screen.getByLabelText('Card number').textContent).toBe('411111******1111');
  });

  it('says when the transaction is not there', async () => {
    const { ApiError } = await import('../../../src/api/api-error.ts');
    fakeApi({
      '/transactions/TX0404': () => {
        throw new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: true });
      },
    });
    renderWithServices(<TransactionDetailPane params={{ transactionReference: 'TX0404' }} search="" capability="Transaction detail" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The requested record was not found.');
  });
});

const report = (overrides: Partial<QueuedReport>): QueuedReport => ({
  id: 'RPT01',
  reportType: 'transactions',
  fileType: 'csv',
  status: 'queued',
  state: 'queued',
  context: { level: 'business', businessId: 'B1', title: 'Alpha Trading', timeZone: 'Europe/London' },
  filters: {},
  ordering: { OrderingField: 'date', OrderingDirection: 'Descending' },
  columns: ['date', 'reference'],
  startDate: null,
  endDate: null,
  totalRows: 1000,
  processedRows: 0,
  attempts: 0,
  queuedAt: '2026-11-21T10:00:00.000Z',
  generatedAt: null,
  expirationDateTime: null,
  deletedAt: null,
  fileName: null,
  fileSize: null,
  error: null,
  ...overrides,
});

describe('my report queue', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'], paths: ['/reporting-overview'] });
  });

  const reports = [
    report({
      id: 'RPT01',
      status: 'generating',
      state: 'generating',
      processedRows: 250,
      attempts: 1,
      filters: { status: '[eq]paid[and][eq]declined', channel: '[eq]chp' },
    }),
    report({
      id: 'RPT02',
      status: 'generated',
      state: 'generated',
      fileType: 'xlsx',
      processedRows: 1000,
      generatedAt: '2026-11-21T10:01:00.000Z',
      expirationDateTime: '2026-12-05T10:01:00.000Z',
      fileName: 'transactions-2026-11-21-RPT02.xlsx',
      fileSize: 20480,
    }),
    report({ id: 'RPT03', status: 'generated', state: 'expired', generatedAt: '2026-10-01T10:00:00.000Z', expirationDateTime: '2026-10-15T10:00:00.000Z' }),
    report({ id: 'RPT04', status: 'failed', state: 'failed', error: 'The report could not be generated after 3 attempts.' }),
    report({ id: 'RPT05' }),
  ];

  function setup() {
    const api = fakeApi({ '/reports': () => ({ results: reports, numberOfResults: reports.length }) });
    return { api, user: userEvent.setup(), ...renderWithServices(<ReportQueuePane params={{}} search="" capability="Report queue" />) };
  }
  // One row a report (a dense table like the other overviews); row 0 is the header.
  const card = (index: number) => within(screen.getByRole('grid', { name: 'Reports' })).getAllByRole('row')[index + 1] as HTMLElement;
  const queue = async () => {
    const grid = await screen.findByRole('grid', { name: 'Reports' });
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(reports.length + 1));
    return grid;
  };

  it('lists every report with its state, progress, dates and filters', async () => {
    setup();
    await queue();
    expect(within(card(0)).getByText('Generating')).toBeTruthy();
    expect(within(card(0)).getByText('250 of 1,000 rows')).toBeTruthy();
    expect((within(card(0)).getByRole('progressbar') as HTMLProgressElement).value).toBe(25);
    expect(within(card(0)).getByText(/Status: Paid, Declined · Channel: Chp/)).toBeTruthy();
    expect(within(card(1)).getByText('Ready')).toBeTruthy();
    expect(within(card(1)).getByText('5 December 2026, 10:01')).toBeTruthy();
    expect(within(card(2)).getAllByText('Expired')).toHaveLength(2);
    expect(within(card(1)).getByRole('rowheader').textContent).toBe('Transactions · XLSX');
    expect(within(card(2)).queryByRole('button', { name: /Download/ })).toBeNull();
    expect(within(card(3)).getByText('The report could not be generated after 3 attempts.')).toBeTruthy();
  });

  it('offers what each state allows: download, retry, cancel, delete', async () => {
    const { api, user } = setup();
    await queue();
    const del = api.delete as unknown as Mock;
    const post = api.post as unknown as Mock;
    post.mockImplementation(async () => report({ status: 'queued' }));
    expect(within(card(1)).getByRole('button', { name: /Download/ })).toBeTruthy();
    expect(within(card(0)).queryByRole('button', { name: /^Retry/ })).toBeNull();
    await user.click(within(card(3)).getByRole('button', { name: 'Retry Transactions CSV RPT04' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/reports/RPT04/retry', undefined, undefined));
    await user.click(within(card(4)).getByRole('button', { name: 'Cancel Transactions CSV RPT05' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/reports/RPT05/cancel', undefined, undefined));
    await user.click(within(card(2)).getByRole('button', { name: 'Delete Transactions CSV RPT03' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('/reports/RPT03', undefined));
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => toast.message)).toEqual(
        expect.arrayContaining(['The report has been queued again.', 'The report has been cancelled.', 'The report has been deleted.']),
      ),
    );
  });

  it('downloads under the report’s own name', async () => {
    const { api, user } = setup();
    await queue();
    const blob = new Blob(['x']);
    (api.get as unknown as Mock).mockImplementationOnce(async () => blob);
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      clicked.push(this.download);
    };
    await user.click(within(card(1)).getByRole('button', { name: /Download/ }));
    await waitFor(() => expect(clicked).toEqual(['transactions-2026-11-21-RPT02.xlsx']));
    expect(api.get).toHaveBeenCalledWith('/reports/RPT02/download', expect.objectContaining({ responseType: 'blob' }));
  });

  it('moves with j / k and downloads a ready report with Enter', async () => {
    const { api, user } = setup();
    await queue();
    (api.get as unknown as Mock).mockImplementation(async (path: string) =>
      path === '/reports' ? { results: reports, numberOfResults: reports.length } : new Blob(['x']),
    );
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      clicked.push(this.download);
    };
    card(0).focus();
    await user.keyboard('j');
    await waitFor(() => expect(document.activeElement).toBe(card(1)));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(clicked).toEqual(['transactions-2026-11-21-RPT02.xlsx']));
    await user.keyboard('k{Enter}');
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain('This report is generating: there is no file to download.'));
    expect(clicked).toHaveLength(1);
  });

  it('polls while work is in progress', async () => {
    const { api } = setup();
    await queue();
    const calls = () => (api.get as unknown as Mock).mock.calls.filter(([path]) => path === '/reports').length;
    const before = calls();
    await waitFor(() => expect(calls()).toBeGreaterThan(before), { timeout: 4000 });
  });

  it('describes filters in words', () => {
    expect(describeFilters({ date: '[gte]2026-10-01T00:00:00[and][lte]2026-10-31T23:59:59', amount: '[gte]10', searchterm: '[eq]ada' }, '2026-11-19')).toEqual([
      'Date: Last month',
      'Amount: from 10',
      'Search: “ada”',
    ]);
    // A bulk export of picked rows (server/reports/area-exports.ts) says how many, not which.
    expect(describeFilters({ 'selection.included': '["TCK1","TCK2"]' }, '2026-11-19')).toEqual(['Selected rows: 2']);
    expect(describeFilters({ status: '[eq]paid', 'selection.excluded': '["TX1"]' }, '2026-11-19')).toEqual(['Status: Paid', 'Rows left out: 1']);
    expect(describeFilters({ 'selection.included': 'not json' }, '2026-11-19')).toEqual([]);
  });
});
