// The account statement and the remittance form as a person uses them, against a fake Portal API.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AccountStatement, Remittance } from '../../../src/contract/ledger-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { PricingPlanPane, RemittanceForm } from '../../../panes/reporting/account-panes.tsx';
import { StatementPane, withDefaultPeriod } from '../../../panes/reporting/statement-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

// The canvas chart cannot draw in jsdom (its frame callbacks throw after a test has ended): a stand-in; the table
// beside the chart carries the same figures the tests read.
vi.mock('lightweight-charts', () => ({
  LineSeries: 'line',
  createChart: (element: HTMLElement) => {
    element.append(document.createElement('canvas'));
    return {
      addSeries: () => ({ setData: () => undefined }),
      timeScale: () => ({ fitContent: () => undefined }),
      remove: () => undefined,
    };
  },
}));

const groups = '/businesses/B1/merchants/M1/merchant-accountgroups';
const statementPath = `${groups}/3M1070216/statements/trading`;
const statement: AccountStatement = {
  accountNumber: '3M1070216',
  kind: 'trading',
  currency: 'GBP',
  periodStart: '2026-10-01T00:00:00.000Z',
  periodEnd: '2026-10-31T23:59:59.999Z',
  openingBalance: 10,
  closingBalance: 108.4,
  totals: [
    { category: 'sale', amount: 100, count: 1 },
    { category: 'fee', amount: -1.6, count: 1 },
  ],
  results: [
    {
      id: 1,
      date: '2026-10-01T10:00:00.000Z',
      category: 'sale',
      amount: 100,
      runningBalance: 110,
      transactionReference: 'TX0001',
      batchId: 'B3M1070216-20261001',
      postingId: 'sale:TX0001',
    },
    {
      id: 2,
      date: '2026-10-01T10:00:00.000Z',
      category: 'fee',
      amount: -1.6,
      runningBalance: 108.4,
      transactionReference: 'TX0001',
      batchId: 'B3M1070216-20261001',
      postingId: 'fee:TX0001',
    },
  ],
  numberOfResults: 2,
};
const group = (accountNumber: string, currency: string) => ({
  accountNumber,
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  currency,
  grossSettlement: false,
  reservePercentage: 0,
  reserveDays: 60,
  balances: [{ kind: 'trading', balance: 0 }],
});

function Pane({ accountNumber }: { accountNumber?: string }) {
  const search = useSearch();
  return <StatementPane params={accountNumber ? { accountNumber } : {}} search={search} capability="Trading account" />;
}

function setup(accountNumber: string | undefined, answers: Record<string, () => unknown>) {
  const api = fakeApi({ [`${statementPath}/balances`]: () => ({ currency: 'GBP', results: [] }), ...answers });
  const post = api.post as unknown as Mock;
  post.mockImplementation(async () => ({ reportId: 'RPT01', totalRows: 2 }));
  const location = memoryLocation({
    path: accountNumber ? `/reporting/trading-account/${accountNumber}?date=%5Bgte%5D2026-10-01%5Band%5D%5Blte%5D2026-10-31` : '/reporting/trading-account',
    record: true,
  });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane accountNumber={accountNumber} />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { api, post, location, user: userEvent.setup() };
}

describe('the account statement', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.MerchantAccountGroups.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/reporting/trading-account'] });
  });

  it("offers the context's account groups when there are several", async () => {
    setup(undefined, { [groups]: () => ({ results: [group('3M1070216', 'GBP'), group('3M1051802', 'EUR')], numberOfResults: 2 }) });
    const nav = await screen.findByRole('navigation', { name: 'Account groups' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/reporting/trading-account/3M1070216', '/reporting/trading-account/3M1051802']);
  });

  it('chooses the only account group at once', async () => {
    const { location } = setup(undefined, { [groups]: () => ({ results: [group('3M1070216', 'GBP')], numberOfResults: 1 }) });
    await waitFor(() => expect(location.history.at(-1)).toBe('/reporting/trading-account/3M1070216'));
  });

  it('shows the balances, the totals, the daily balances and the movements with their running balance', async () => {
    const { api } = setup('3M1070216', {
      [statementPath]: () => statement,
      [`${statementPath}/balances`]: () => ({
        currency: 'GBP',
        results: [
          { date: '2026-10-01', balance: 108.4 },
          { date: '2026-10-02', balance: 108.4 },
        ],
      }),
    });
    expect(await screen.findByTestId('closing-balance')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('closing-balance').textContent).toBe('£108.40'));
    expect(screen.getByTestId('opening-balance').textContent).toBe('£10.00');
    const table = screen.getByRole('grid', { name: 'Trading account movements' });
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(first).getByRole('gridcell', { name: '£110.00' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Totals per movement' })).toBeTruthy();
    const daily = await screen.findByRole('table', { name: 'Balance at the end of each day' });
    expect(within(daily).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('img', { name: /Trading account: balance at the end of each day, 2 days/ })).toBeTruthy();
    const query = (api.get.mock.calls.find(([path]) => path === statementPath)![1] as { query: Record<string, string> }).query;
    expect(query).toMatchObject({ date: '[gte]2026-10-01[and][lte]2026-10-31', OrderingField: 'date', OrderingDirection: 'Ascending' });
  });

  it("shows the movements' times in the business's zone and says which zone that is", async () => {
    // 23:30 UTC on 30 September is 08:30 on 1 October in Tokyo: the movement reads as the business's day.
    const tokyo: AccountStatement = {
      ...statement,
      timeZone: 'Asia/Tokyo',
      results: [{ ...statement.results[0]!, date: '2026-09-30T23:30:00.000Z' }],
      numberOfResults: 1,
    };
    setup('3M1070216', { [statementPath]: () => tokyo, [`${statementPath}/balances`]: () => ({ currency: 'GBP', results: [] }) });
    expect(await screen.findByText(/Days and times in Asia\/Tokyo, the business's time zone/)).toBeTruthy();
    const table = screen.getByRole('grid', { name: 'Trading account movements' });
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(first.querySelector('time')?.textContent).toBe('1 Oct 2026, 08:30');
  });

  it('downloads the statement as CSV through the report queue', async () => {
    const { user, post } = setup('3M1070216', { [statementPath]: () => statement });
    await screen.findByRole('grid', { name: 'Trading account movements' });
    await user.click(screen.getByRole('button', { name: 'Download statement…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download statement' });
    await user.click(within(dialog).getByRole('radio', { name: /CSV/ }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() =>
      expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
        `${statementPath}/reports`,
        { fileType: 'csv', filters: { date: '[gte]2026-10-01[and][lte]2026-10-31' } },
      ]),
    );
    await waitFor(() => expect(toastStore.toasts.some((toast) => toast.link?.href === '/reporting-overview')).toBe(true));
  });

  it('queues the camt.053 XML of the period in the report queue (file type xml, every category)', async () => {
    const { user, post } = setup('3M1070216', { [statementPath]: () => statement });
    await screen.findByRole('grid', { name: 'Trading account movements' });
    await user.click(screen.getByRole('button', { name: 'Download statement…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download statement' });
    await user.click(within(dialog).getByRole('radio', { name: /camt\.053/ }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() =>
      expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
        `${statementPath}/reports`,
        { fileType: 'xml', filters: { date: '[gte]2026-10-01[and][lte]2026-10-31' } },
      ]),
    );
    await waitFor(() => expect(toastStore.toasts.some((toast) => toast.link?.href === '/reporting-overview')).toBe(true));
  });

  it('schedules the statement: weekly on a weekday at an hour of a chosen zone, as camt.053, with the email opt-in', async () => {
    const { user, post } = setup('3M1070216', { [statementPath]: () => statement });
    post.mockImplementation(async () => ({
      id: 'SCH0123456789ABCDEF',
      reportType: 'tradingAccount',
      fileType: 'xml',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online' },
      accountNumber: '3M1070216',
      frequency: 'weekly',
      weekday: 5,
      dayOfMonth: null,
      hour: 7,
      timeZone: 'Asia/Tokyo',
      description: 'Weekly on Friday at 07:00 (Asia/Tokyo)',
      emailWhenReady: false,
      paused: false,
      nextRunAt: '2026-11-26T22:00:00.000Z',
      lastRunAt: null,
      lastOutcome: null,
      lastError: null,
      lastReportId: null,
      mayRunNow: true,
      version: 1,
      createdAt: '2026-11-25T10:00:00.000Z',
    }));
    await screen.findByRole('grid', { name: 'Trading account movements' });
    await user.click(screen.getByRole('button', { name: 'Schedule statement…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule statement' });
    await user.click(within(dialog).getByRole('radio', { name: /camt\.053/ }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Repeat' }), 'weekly');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Weekday' }), 'Friday');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'At' }), '07:00');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Time zone' }), 'Asia/Tokyo');
    await user.click(within(dialog).getByRole('checkbox', { name: /Email me when it is ready/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
        '/report-schedules',
        {
          reportType: 'tradingAccount',
          businessId: 'B1',
          merchantId: 'M1',
          accountNumber: '3M1070216',
          fileType: 'xml',
          frequency: 'weekly',
          weekday: 5,
          hour: 7,
          timeZone: 'Asia/Tokyo',
          emailWhenReady: false,
        },
      ]),
    );
    await waitFor(() => expect(toastStore.toasts.some((toast) => toast.message.includes('Weekly on Friday at 07:00 (Asia/Tokyo)'))).toBe(true));
  });

  it('without a period shows the current month', () => {
    const state = withDefaultPeriod({ pageNumber: 1, pageSize: 25, sort: { field: 'date', descending: false }, filters: {} }, '2026-11-25');
    expect(state.filters.date).toBe('[gte]2026-11-01T00:00:00[and][lte]2026-11-25T23:59:59');
    expect(withDefaultPeriod({ ...state, filters: { date: '[eq]2026-01-05' } }, '2026-11-25').filters.date).toBe('[eq]2026-01-05');
  });
});

describe('the remittance form', () => {
  beforeEach(() => {
    resetStores();
    signIn({
      permissions: ['Mapi.BagsExternal.Read'],
      context: merchantContext,
      paths: ['/business/B1/merchants/M1/business-accounts-overview/5100001052018'],
    });
  });
  const current: Remittance = {
    accountNumber: '5B1051802',
    frequency: 'weekly',
    dayOfPeriod: 5,
    startDate: '2026-01-01',
    nextPaymentDate: '2026-11-27',
    nextScheduleDate: '2026-12-04',
    beneficiary: { companyName: 'Alpha Trading' },
    ibanMasked: 'GB** **** **** **** 1234',
    version: 3,
    merchantAccounts: ['3M1051802'],
  };

  it("sends the change with the record's version and refuses an incomplete person", async () => {
    const api = fakeApi({});
    const post = api.post as unknown as Mock;
    post.mockImplementation(async (_path: string, body: Record<string, unknown>) => ({ ...current, ...body, version: 4 }));
    const paneId = workspaceStore.panes[0]?.id ?? '';
    renderWithServices(
      <PaneScopeContext value={{ paneId }}>
        <RemittanceForm businessId="B1" accountNumber="5B1051802" current={current} />
      </PaneScopeContext>,
      createServices(),
    );
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save remittance settings' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'A person' }));
    await user.type(screen.getByRole('textbox', { name: 'Given name' }), 'Ada');
    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe('Given name, family name and date of birth are required');
    expect(post).not.toHaveBeenCalled();
    expect(workspaceStore.panes[0]?.dirty).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'A company' }));
    await user.clear(screen.getByRole('textbox', { name: 'Company name' }));
    await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Alpha Trading Ltd');
    await user.click(save);
    await waitFor(() =>
      expect(post.mock.calls[0]?.slice(0, 2)).toEqual([
        '/businesses/B1/business-accountgroups/5B1051802/remittance',
        {
          frequency: 'weekly',
          dayOfPeriod: 5,
          startDate: '2026-01-01',
          version: 3,
          beneficiary: { companyName: 'Alpha Trading Ltd' },
        },
      ]),
    );
  });
});

describe('the pricing plan', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.MerchantAccountPricingPlan.Read'], context: merchantContext, paths: ['/business/B1/pricing-plan'] });
  });

  it("shows each merchant's rates per currency, the merchant named as a link to it", async () => {
    fakeApi({
      '/businesses/B1/pricing-plan': () => ({
        results: [
          {
            merchantId: 'M1',
            merchantName: 'Alpha Online',
            currency: 'GBP',
            name: 'Standard',
            monthlyMinimum: 25,
            validFrom: '2026-01-01T00:00:00.000Z',
            rates: [{ paymentMethod: 'card', percentage: 1.4, fixedAmount: 0.2 }],
          },
        ],
        numberOfResults: 1,
      }),
    });
    renderWithServices(<PricingPlanPane params={{ businessId: 'B1' }} search="" capability="Pricing plan" />, createServices());
    const table = await screen.findByRole('table', { name: /Alpha Online · GBP · Standard · monthly minimum £25.00/ });
    // The scroll container holds something to focus (axe scrollable-region-focusable), and it leads to the merchant.
    expect(within(table).getByRole('link', { name: 'Alpha Online' }).getAttribute('href')).toBe('/business/B1/merchants/M1');
    expect(within(table).getByRole('rowheader', { name: 'Card' }).closest('tr')?.textContent).toBe('Card1.40 %£0.20');
  });
});
