// 'Schedule this export…' on the transactions overview as a person uses it: the view's filters (not its date range)
// and visible columns, CSV or Excel, daily/weekly/monthly at an hour of a zone, the email opt-in; the command is
// offered where the screen takes a schedule; the schedules list describes a transactions schedule in words.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { CommandServices } from '../../../commands/command.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { scheduleTransactionsExportCommand } from '../../../commands/reporting/schedule-transactions-export.ts';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import type { ReportSchedule } from '../../../src/contract/report-schedule-schemas.ts';
import type { TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { ScheduledReports } from '../../../panes/reporting-overview/scheduled-reports.tsx';
import { TransactionsPane } from '../../../panes/transactions/transactions-pane.tsx';
import { describeScheduleCoverage } from '../../../panes/reporting/schedule-dialog.tsx';
import { baseContext, createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const item = (reference: string): TransactionListItem => ({
  reference,
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
  paymentJobReference: `PJ-${reference}`,
});
const listPath = '/businesses/B1/merchants/M1/transactions';
const exportPermissions = ['Mapi.Transactions.Read', 'Mapi.Transaction.Read', 'Portal.Reports.Create'];

const schedule = (extra: Partial<ReportSchedule>): ReportSchedule => ({
  id: 'SCH0000000000000009',
  reportType: 'transactions',
  fileType: 'xlsx',
  context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online (Alpha Trading)' },
  accountNumber: '',
  columns: ['date', 'reference'],
  filters: { status: '[eq]paid' },
  frequency: 'daily',
  weekday: null,
  dayOfMonth: null,
  hour: 6,
  timeZone: 'Europe/London',
  description: 'Transactions, status paid, daily at 06:00 (Europe/London), previous day',
  emailWhenReady: true,
  paused: false,
  nextRunAt: '2026-11-27T06:00:00.000Z',
  lastRunAt: null,
  lastOutcome: null,
  lastError: null,
  lastReportId: null,
  mayRunNow: true,
  version: 1,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...extra,
});

function Pane({ params }: { params: Record<string, string> }) {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  const search = useSearch();
  return <TransactionsPane params={params} search={search} capability="Transactions overview" />;
}

/** The reads the dialog makes to say whose transactions a schedule covers. */
const scopeAnswers: Record<string, () => unknown> = {
  '/businesses/B1/merchants/M1': () => ({
    merchantId: 'M1',
    merchantName: 'Alpha Online',
    businessId: 'B1',
    merchantUrl: null,
    supportUrl: null,
    supportEmail: null,
    grossSettlement: false,
    currencies: ['GBP'],
    live: true,
    version: 1,
    businessName: 'Alpha Trading',
    createDateTimeUtc: '2026-01-01T00:00:00.000Z',
    configurations: [],
    editable: false,
  }),
  '/partners/P1': () => ({
    partnerId: 'P1',
    partnerName: 'Northwind Partners',
    createDateTimeUtc: '2026-01-01T00:00:00.000Z',
    businessCount: 9,
    liveBusinessCount: 8,
    merchantCount: 14,
    currencies: ['GBP'],
    commissionPlans: [],
  }),
};

function setup(path: string, params: Record<string, string> = {}, list = listPath) {
  const api = fakeApi({ ...scopeAnswers, [list]: () => ({ results: [item('TX0001')], numberOfResults: 1, numberOfResultsIsEstimate: false }) });
  const post = api.post as unknown as Mock;
  post.mockImplementation(async () => schedule({}));
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane params={params} />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { post, user: userEvent.setup() };
}

describe('scheduling the transactions export', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: exportPermissions, context: merchantContext, paths: ['/transactions'] });
  });

  it("schedules the view's filters without its date range, its visible columns and its sort, weekly as Excel, and says what each run covers", async () => {
    const { post, user } = setup(
      '/transactions?status=%5Beq%5Dpaid&date=%5Bgte%5D2026-11-01T00%3A00%3A00%5Band%5D%5Blte%5D2026-11-07T23%3A59%3A59&OrderingField=amount&OrderingDirection=Ascending',
    );
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.click(screen.getByRole('button', { name: 'Schedule this export…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule this export' });
    expect(dialog.textContent).toContain('Each run exports the transactions of the previous day (midnight to midnight)');
    expect(dialog.textContent).toContain("each run's period replaces it");
    await waitFor(() => expect(dialog.textContent).toContain('Transactions of Alpha Online with status paid.'));
    expect(dialog.textContent).toContain('Rows: sorted by amount, lowest first.');
    expect(dialog.textContent).toMatch(/This view's date range \(.+\) is not part of the schedule/);
    // Keyboard only: the file type, the frequency and its weekday, the hour, the zone.
    await user.click(within(dialog).getByRole('radio', { name: /Excel/ }));
    expect(within(dialog).queryByRole('radio', { name: /PDF/ })).toBeNull();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Repeat' }), 'weekly');
    expect(dialog.textContent).toContain('the previous 7 days, ending the day before the run');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Weekday' }), 'Monday');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'At' }), '07:00');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Time zone' }), 'Europe/London');
    within(dialog)
      .getByRole('checkbox', { name: /Email me when it is ready/ })
      .focus();
    await user.keyboard(' ');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
        '/report-schedules',
        {
          reportType: 'transactions',
          businessId: 'B1',
          merchantId: 'M1',
          fileType: 'xlsx',
          filters: { status: '[eq]paid' },
          columns: ['date', 'reference', 'merchant', 'amount', 'currency', 'status', 'paymentMethod', 'channel', 'ewalletType', 'kind'],
          ordering: { OrderingField: 'amount', OrderingDirection: 'Ascending' },
          frequency: 'weekly',
          weekday: 1,
          hour: 7,
          timeZone: 'Europe/London',
          emailWhenReady: false,
        },
      ]),
    );
    await waitFor(() => expect(toastStore.toasts.some((toast) => toast.message.includes('Transactions, status paid, daily at 06:00'))).toBe(true));
  }, 30_000);

  it("schedules a partner's export over all its businesses from the partner's transactions", async () => {
    const { post, user } = setup('/partners/P1/transactions', { partnerId: 'P1' }, '/partners/P1/transactions');
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.click(screen.getByRole('button', { name: 'Schedule this export…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule this export' });
    // Whose transactions: every business of the partner, counted and named (not just 'all transactions').
    await waitFor(() => expect(dialog.textContent).toContain('All transactions of the 9 businesses of Northwind Partners.'));
    expect(dialog.textContent).toContain('Rows: newest first.');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(post.mock.calls[0]?.[1]).toMatchObject({ reportType: 'transactions', partnerId: 'P1', fileType: 'csv', frequency: 'daily' }));
    expect(post.mock.calls[0]?.[1]).not.toHaveProperty('businessId');
  }, 30_000);

  it("shows the server's refusal in the dialog", async () => {
    const { post, user } = setup('/transactions');
    const { ApiError } = await import('../../../src/api/api-error.ts');
    post.mockImplementation(async () => {
      throw new ApiError({ status: 403, messages: ['You do not have the correct permissions.'], kind: 'http', handled: true });
    });
    await screen.findByRole('rowheader', { name: 'TX0001' });
    await user.click(screen.getByRole('button', { name: 'Schedule this export…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule this export' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('You do not have the correct permissions.');
  }, 30_000);

  it("is not offered without the export's permissions", async () => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read'], context: merchantContext, paths: ['/transactions'] });
    setup('/transactions');
    await screen.findByRole('rowheader', { name: 'TX0001' });
    expect(screen.queryByRole('button', { name: 'Schedule this export…' })).toBeNull();
  });
});

describe('the schedule command', () => {
  const on = (routeId: string, capabilities: string[], permissions: string[]) =>
    baseContext({
      permissions,
      route: { id: routeId, pattern: `/${routeId}`, path: `/${routeId}` },
      focusedPane: { id: 'p1', capabilities: capabilities as never },
    });

  it.each([
    ['transactions', ['schedule'], ['Mapi.Transactions.Read', 'Portal.Reports.Create'], true],
    ['partnerBusinessTransactions', ['schedule'], ['Mapi.Transactions.Read', 'Portal.Reports.Create'], true],
    ['partnerTransactions', ['schedule'], ['Mapi.Transactions.Read', 'Portal.Reports.Create'], true],
    ['transactions', [], ['Mapi.Transactions.Read', 'Portal.Reports.Create'], false],
    ['transactions', ['schedule'], ['Mapi.Transactions.Read'], false],
    ['tradingAccount', ['schedule'], ['Mapi.Transactions.Read', 'Portal.Reports.Create'], false],
  ])('on %s with %j and %j is offered: %s', (routeId, capabilities, permissions, expected) => {
    expect(isAvailable(scheduleTransactionsExportCommand, on(routeId, capabilities, permissions))).toBe(expected);
  });

  it('asks the screen for its schedule dialog; found by its keywords', async () => {
    const paneRequest = vi.fn();
    await scheduleTransactionsExportCommand.run({ state: { paneRequest } } as unknown as CommandServices, {});
    expect(paneRequest).toHaveBeenCalledWith('schedule');
    expect(scheduleTransactionsExportCommand).toMatchObject({ section: 'Table', title: 'Schedule this export…' });
    expect(scheduleTransactionsExportCommand.keywords).toEqual(expect.arrayContaining(['schedule', 'recurring', 'daily', 'weekly', 'monthly', 'email']));
  });
});

describe('a transactions schedule in My report queue', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'] });
  });

  it('reads as what it exports, when and which period', async () => {
    fakeApi({ '/report-schedules': () => ({ results: [schedule({})], numberOfResults: 1 }) });
    renderWithServices(<ScheduledReports focus={false} />, createServices());
    const table = await screen.findByRole('table', { name: 'Scheduled statements and reports' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByRole('rowheader').textContent).toBe('Transactions · XLSX');
    expect(row.textContent).toContain('Transactions, status paid, daily at 06:00 (Europe/London), previous day');
    expect(within(row).getByRole('button', { name: 'Pause Transactions' })).toBeTruthy();
  });
});

describe('what a scheduled export covers, in words', () => {
  it.each([
    [{}, 'partner', { level: 'partner', name: 'Northwind Partners', businessCount: 9 }, 'All transactions of the 9 businesses of Northwind Partners.'],
    [{}, 'partner', { level: 'partner', name: 'Solo Partners', businessCount: 1 }, 'All transactions of the 1 business of Solo Partners.'],
    [
      { status: '[eq]paid' },
      'partner',
      { level: 'partner', name: 'Northwind Partners', businessCount: 9 },
      'Transactions of the 9 businesses of Northwind Partners with status paid.',
    ],
    // Still loading, or the partner not readable: no count, never a bare 'all transactions'.
    [{}, 'partner', null, 'All transactions of every business of this partner.'],
    [{}, 'business', { level: 'business', name: 'Alpha Trading Ltd', merchantCount: 3 }, 'All transactions of the 3 merchants of Alpha Trading Ltd.'],
    [{}, 'business', { level: 'business', name: 'Alpha Trading Ltd', merchantCount: 1 }, 'All transactions of Alpha Trading Ltd (its one merchant).'],
    [
      { currency: '[eq]GBP' },
      'business',
      { level: 'business', name: null, merchantCount: null },
      'Transactions of every merchant of this business with currency GBP.',
    ],
    [{}, 'merchant', { level: 'merchant', name: 'Alpha Online' }, 'All transactions of Alpha Online.'],
    [{}, 'merchant', null, 'All transactions of this merchant.'],
  ] as const)('%j in a %s scope (%j): %s', (filters, level, scope, expected) => {
    expect(describeScheduleCoverage(filters, level, scope)).toBe(expected);
  });
});
