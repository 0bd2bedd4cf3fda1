import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { configureApi } from '../../../src/api/api-client.ts';
import type { PortalApi } from '../../../src/api/http-client.ts';
import { formatInstant } from '../../../src/contract/zoned-time.ts';
import { normalisePeriod, type DashboardInterval } from '../../../src/contract/dashboard-intervals.ts';
import { bucketPlan } from '../../../src/contract/dashboard-buckets.ts';
import type { BreakdownDimension, BreakdownResponse, DashboardResponse, DeclinesResponse } from '../../../src/contract/dashboard.ts';
import { applyContext, clearContext } from '../../../src/state/context-store.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { sessionStore, setPermissions } from '../../../src/state/session-store.ts';
import { clearToasts, toastStore } from '../../../src/state/toast-store.ts';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import { StatisticsDashboardPane } from '../../../panes/dashboard/statistics-pane.tsx';

// The canvas chart cannot draw in jsdom: a stand-in records what it was asked to draw, and builds what the
// library builds inside the element it is given: its canvases and, when layout.attributionLogo is on, a link.
const drawn = vi.hoisted(() => ({ series: [] as { kind: string; data: unknown[] }[] }));
vi.mock('lightweight-charts', () => {
  const series = (kind: string) => {
    const entry = { kind, data: [] as unknown[] };
    drawn.series.push(entry);
    return {
      setData: (data: unknown[]) => {
        entry.data = data;
      },
    };
  };
  return {
    HistogramSeries: 'histogram',
    LineSeries: 'line',
    LineStyle: { Dashed: 2 },
    createChart: (element: HTMLElement, options: { layout?: { attributionLogo?: boolean } }) => {
      element.append(document.createElement('canvas'));
      if (options.layout?.attributionLogo ?? true) {
        const logo = document.createElement('a');
        logo.href = 'https://www.tradingview.com/';
        logo.title = 'Charting by TradingView';
        element.append(logo);
      }
      return {
        addSeries: (kind: string) => series(kind),
        removeSeries: () => undefined,
        applyOptions: () => undefined,
        timeScale: () => ({ fitContent: () => undefined }),
        remove: () => undefined,
      };
    },
  };
});

// A busy machine can be slow to render: wait generously for what must come.
configure({ asyncUtilTimeout: 10_000 });

const merchantPath = '/businesses/B1/merchants/M1';
const emptyPath = '/businesses/B1/merchants/M2';

type Call = { path: string; body: { dateRange: { startDate: string; endDate: string }; interval?: DashboardInterval; currency?: string; dateBasis?: string } };

/** The breakdown of any period: two merchants, two payment methods or three statuses. */
function fakeBreakdown(request: Call['body'] & { by: BreakdownDimension }): BreakdownResponse {
  const row = (key: string, label: string, volume: number, count: number) => ({
    key,
    label,
    volume,
    revenue: volume,
    unsuccessfulVolume: 0,
    unsuccessfulRevenue: 0,
    salesCount: count,
    count,
  });
  const rows = {
    merchant: [row('M1', 'Alpha Online', 30_000, 3), row('M9', 'Zeta Shop', 45_000, 1)],
    paymentMethod: [row('card', 'card', 60_000, 3), row('applePay', 'applePay', 15_000, 1)],
    status: [row('paid', 'paid', 75_000, 4), row('declined', 'declined', 0, 2), row('pending', 'pending', 0, 1)],
  }[request.by];
  return { startDate: request.dateRange.startDate, endDate: request.dateRange.endDate, currency: request.currency ?? 'GBP', by: request.by, rows };
}

/** A server in miniature: every bucket's volume is 100 × its position (+1), a year earlier half of that. */
function fakeApi(calls: Call[]): PortalApi {
  const post = vi.fn(async (path: string, body: unknown) => {
    const request = body as Call['body'];
    calls.push({ path, body: request });
    if (path.endsWith('/declines')) {
      return {
        startDate: request.dateRange.startDate,
        endDate: request.dateRange.endDate,
        currency: request.currency ?? 'GBP',
        totalCount: 5,
        totalAmount: 12_345,
        reasons: [
          { reason: 'Insufficient funds', count: 3, amount: 10_000 },
          { reason: 'Do not honour', count: 2, amount: 2_345 },
        ],
      } satisfies DeclinesResponse;
    }
    if (path.endsWith('/breakdown')) return fakeBreakdown(request as Call['body'] & { by: BreakdownDimension });
    const normalised = normalisePeriod(request.interval ?? 'custom', request.dateRange.startDate, request.dateRange.endDate);
    if ('problems' in normalised) throw new Error(normalised.problems.join());
    const plan = bucketPlan(normalised.period, 'UTC');
    const empty = path.startsWith(emptyPath);
    const factor = request.dateRange.startDate.startsWith('2025') ? 0.5 : 1;
    return {
      startDate: normalised.period.startDate,
      endDate: normalised.period.endDate,
      interval: normalised.period.interval,
      timeZone: 'UTC',
      currency: request.currency ?? 'GBP',
      currencies: ['EUR', 'GBP'],
      bucket: { unit: plan.unit, step: plan.step },
      datapoints: plan.buckets.map((bucket, index) => {
        const value = empty ? 0 : Math.round(100 * (index + 1) * factor) * (request.dateBasis === 'activityDate' ? 2 : 1);
        return {
          startDate: formatInstant(bucket.start, 'UTC'),
          endDate: formatInstant(bucket.end, 'UTC'),
          volume: value,
          revenue: value,
          unsuccessfulVolume: 0,
          unsuccessfulRevenue: 0,
          salesCount: empty ? 0 : 1,
        };
      }),
    } satisfies DashboardResponse;
  });
  const unused = vi.fn(async () => {
    throw new Error('not used');
  });
  return { request: unused, get: unused, post, put: unused, patch: unused, delete: unused } as unknown as PortalApi;
}

/** The dashboard with the router's query, as the workspace gives it. */
function Harness() {
  const search = useSearch();
  return <StatisticsDashboardPane params={{}} search={search ? `?${search}` : ''} capability="Statistics dashboard" />;
}

function renderPane(options: { merchantId?: string; permissions?: string[]; search?: string; configuration?: boolean } = {}) {
  const calls: Call[] = [];
  configureApi(fakeApi(calls));
  const merchantId = options.merchantId ?? 'M1';
  applyContext({
    business: { id: 'B1', title: 'Alpha Trading' },
    merchant: { id: merchantId, title: merchantId === 'M1' ? 'Alpha Online' : 'Alpha Stores' },
    ...(options.configuration ? { configuration: { id: 'C1', title: 'Telephone orders', switches: { virtualTerminalMenuEnabled: true } } } : {}),
  });
  setPermissions(`merchant:B1/${merchantId}`, options.permissions ?? ['Mapi.MerchantDashboardReport.Read']);
  workspaceStore.panes = [{ id: 'pane-test', path: '/dashboard', capabilities: [], request: null, dirty: false }];
  workspaceStore.focusedIndex = 0;
  const location = memoryLocation({ path: `/dashboard${options.search ?? ''}`, record: true });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PaneScopeContext.Provider value={{ paneId: 'pane-test' }}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Harness />
        </Router>
      </PaneScopeContext.Provider>
    </QueryClientProvider>,
  );
  const statisticsCalls = () => calls.filter((call) => call.path.endsWith('/dashboard'));
  return { calls, statisticsCalls, location, queryClient };
}

const lastPath = (location: { history: string[] }) => location.history.at(-1) ?? '';

describe('the statistics dashboard pane', { timeout: 30_000 }, () => {
  // The pane loads the contract's schemas (arktype) and the chart on demand: load them once, ahead of the tests.
  beforeAll(async () => {
    await import('../../../src/contract/dashboard.ts');
    await import('lightweight-charts');
  });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-18T10:00:00Z'));
    drawn.series = [];
    clearToasts();
  });
  afterEach(() => {
    vi.useRealTimers();
    clearContext();
    sessionStore.permissions = {};
    workspaceStore.panes = [];
  });

  it('shows this month by day: chart, totals and the table alternative', async () => {
    const { statisticsCalls } = renderPane();
    const table = await screen.findByRole('table', { name: /Volume per day in GBP, March 2026/ });
    expect(within(table).getAllByRole('row')).toHaveLength(32);
    expect(within(table).getByRole('rowheader', { name: '31 March 2026' })).toBeTruthy();
    expect(statisticsCalls()[0]).toEqual({
      path: `${merchantPath}/dashboard`,
      body: { dateRange: { startDate: '2026-03-01', endDate: '2026-03-31' }, interval: 'month' },
    });
    expect(screen.getByRole('radio', { name: 'Month' })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'March 2026' })).toBeTruthy();
    // 100 + 200 + … + 3100 pence.
    expect(screen.getByRole('button', { name: /^Volume £496\.00/ })).toBeTruthy();
    await waitFor(() => expect(drawn.series.map((series) => series.kind)).toEqual(['histogram']));
    expect(screen.getByRole('img', { name: /Bar chart of volume per day in GBP, March 2026/ })).toBeTruthy();
  });

  it('holds nothing focusable inside the chart image; the attribution link sits beside it', async () => {
    renderPane();
    await waitFor(() => expect(drawn.series.map((series) => series.kind)).toEqual(['histogram']));
    const image = screen.getByRole('img', { name: /Bar chart of volume per day in GBP, March 2026/ });
    expect(image.querySelector('canvas')).toBeTruthy();
    const focusable = 'a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]';
    expect([...image.querySelectorAll(focusable)].map((element) => element.outerHTML)).toEqual([]);
    const attribution = screen.getByRole('link', { name: 'Charting by TradingView' });
    expect(image.contains(attribution)).toBe(false);
    expect(attribution.getAttribute('href')).toBe('https://www.tradingview.com/');
    attribution.focus();
    expect(document.activeElement).toBe(attribution);
  });

  it('pre-fetches the fourteen periods before the shown one', async () => {
    const { statisticsCalls } = renderPane();
    await waitFor(() => expect(statisticsCalls()).toHaveLength(15));
    expect(
      statisticsCalls()
        .map((call) => call.body.dateRange.startDate)
        .at(-1),
    ).toBe('2025-01-01');
  });

  it('lists the top decline reasons', async () => {
    renderPane();
    const declines = await screen.findByRole('table', { name: /Decline reasons in GBP, March 2026/ });
    expect(
      within(declines)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Insufficient funds', 'Do not honour', 'All declines']);
    expect(within(declines).getByText('£100.00')).toBeTruthy();
  });

  it('changing the interval resets compare and the chart type and shows the current period', async () => {
    const user = userEvent.setup();
    const { location } = renderPane({ search: '?interval=month&from=2026-01-01&compare=1&chart=line' });
    await screen.findByRole('table', { name: 'Volume per day in GBP, January 2026' });
    await user.click(screen.getByRole('radio', { name: 'Day' }));
    expect(lastPath(location)).toBe('/dashboard?interval=day&from=2026-03-18');
    await screen.findByRole('table', { name: 'Volume per hour in GBP, Wednesday, 18 March 2026' });
    expect(screen.getByRole('checkbox', { name: 'Compare with a year earlier' })).toHaveProperty('checked', false);
  });

  it('steps to the previous period and back', async () => {
    const user = userEvent.setup();
    const { location } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    expect(screen.getByRole('button', { name: 'Next period' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Previous period' }));
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-02-01');
    await screen.findByRole('table', { name: 'Volume per day in GBP, February 2026' });
    await user.click(screen.getByRole('button', { name: 'Next period' }));
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01');
  });

  it('compare overlays the same period a year earlier, with the change beside each total', async () => {
    const user = userEvent.setup();
    const { statisticsCalls, location } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    await user.click(screen.getByRole('checkbox', { name: 'Compare with a year earlier' }));
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01&compare=1');
    await waitFor(() => expect(statisticsCalls().some((call) => call.body.dateRange.startDate === '2025-03-01' && call.body.currency === 'GBP')).toBe(true));
    const table = await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((cell) => cell.textContent),
      ).toEqual(['Day', 'Volume', 'A year earlier', 'Change']),
    );
    expect(await screen.findByRole('button', { name: /^Volume £496\.00 \+100% against £248\.00 a year earlier/ })).toBeTruthy();
    await waitFor(() => expect(drawn.series.map((series) => series.kind).slice(-2)).toEqual(['histogram', 'line']));
  });

  it('switches data type and currency through the address', async () => {
    const user = userEvent.setup();
    const { location, statisticsCalls } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Data type' }), 'salesCount');
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01&measure=salesCount');
    await screen.findByRole('table', { name: 'Sales per day in GBP, March 2026' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'EUR');
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01&measure=salesCount&currency=EUR');
    await waitFor(() => expect(statisticsCalls().some((call) => call.body.currency === 'EUR')).toBe(true));
  });

  it('switches between the views by payment date and by activity date, keeps the choice in the address and says on the chart which it is', async () => {
    const user = userEvent.setup();
    const { location, statisticsCalls } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    const dates = screen.getByRole('radiogroup', { name: 'Dates' });
    expect(within(dates).getByRole('radio', { name: 'By payment date' })).toHaveProperty('checked', true);
    expect(screen.getByRole('heading', { name: 'Volume, by payment date' })).toBeTruthy();
    expect(screen.getByRole('img', { name: /^Bar chart of volume per day in GBP, March 2026, by payment date\./ })).toBeTruthy();
    // The default view asks as before: no dateBasis in the request.
    expect(statisticsCalls()[0]?.body).not.toHaveProperty('dateBasis');

    await user.click(within(dates).getByRole('radio', { name: 'By activity date' }));
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01&basis=activity');
    expect(await screen.findByRole('heading', { name: 'Volume, by activity date' })).toBeTruthy();
    expect(screen.getByText('Money on the day it moved: captures when captured, refunds and chargebacks when they happened.')).toBeTruthy();
    await waitFor(() => expect(statisticsCalls().some((call) => call.body.dateBasis === 'activityDate')).toBe(true));
    // The activity figures are shown (the fake server doubles them): 2 × £496.00.
    expect(await screen.findByRole('button', { name: /^Volume £992\.00/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /, by activity date\./ })).toBeTruthy();
    expect(within(screen.getByRole('radiogroup', { name: 'Dates' })).getByRole('radio', { name: 'By activity date' })).toHaveProperty('checked', true);

    // Keyboard: the radio group moves back with the arrow keys.
    await user.keyboard('{ArrowLeft}');
    expect(lastPath(location)).toBe('/dashboard?interval=month&from=2026-03-01');
    expect(await screen.findByRole('heading', { name: 'Volume, by payment date' })).toBeTruthy();
  });

  it('opens the view by activity date from a link', async () => {
    const { statisticsCalls } = renderPane({ search: '?interval=month&from=2026-03-01&basis=activity' });
    expect(await screen.findByRole('heading', { name: 'Volume, by activity date' })).toBeTruthy();
    expect(within(screen.getByRole('radiogroup', { name: 'Dates' })).getByRole('radio', { name: 'By activity date' })).toHaveProperty('checked', true);
    expect(statisticsCalls()[0]?.body).toEqual({ dateRange: { startDate: '2026-03-01', endDate: '2026-03-31' }, interval: 'month', dateBasis: 'activityDate' });
  });

  it('opens the date control on request (Shift+D) and a custom range switches to a line chart', async () => {
    const user = userEvent.setup();
    const { location } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toEqual(['date']));
    act(() => sendPaneRequest('date'));
    const dialog = await screen.findByRole('dialog', { name: 'Choose dates' });
    // The dialog moves the focus in (to its first control) a moment after it opens: typing before that loses keys.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const from = within(dialog).getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2026-01-05');
    const to = within(dialog).getByLabelText('To');
    await user.clear(to);
    await user.type(to, '2026-03-10');
    expect(from).toHaveProperty('value', '2026-01-05');
    expect(to).toHaveProperty('value', '2026-03-10');
    await user.click(within(dialog).getByRole('button', { name: 'Show range' }));
    await waitFor(() => expect(lastPath(location)).toBe('/dashboard?interval=custom&from=2026-01-05&to=2026-03-10'));
    // 65 days: 3 days a bucket, 22 buckets, drawn as a line.
    const table = await screen.findByRole('table', { name: /Volume per 3 days in GBP, 5 January 2026 to 10 March 2026/ });
    expect(within(table).getAllByRole('row')).toHaveLength(23);
    expect(screen.getByRole('radio', { name: 'Line' })).toHaveProperty('checked', true);
  });

  it('offers the presets of the date control', async () => {
    const user = userEvent.setup();
    const { location } = renderPane();
    await screen.findByRole('table', { name: 'Volume per day in GBP, March 2026' });
    await user.click(screen.getByRole('button', { name: 'March 2026' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Choose dates' })).getByRole('button', { name: 'Last week' }));
    expect(lastPath(location)).toBe('/dashboard?interval=week&from=2026-03-09');
  });

  it('a custom interval without dates asks for them, once', async () => {
    const user = userEvent.setup();
    renderPane({ search: '?interval=custom' });
    const dialog = await screen.findByRole('dialog', { name: 'Choose dates' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Choose the dates of a custom range to see its statistics.')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Choose dates' }).at(-1)!);
    expect(await screen.findByRole('dialog', { name: 'Choose dates' })).toBeTruthy();
  });

  it('without payments: the danger toast for 5 s and an empty chart', async () => {
    renderPane({ merchantId: 'M2' });
    expect(await screen.findByTestId('statistics-chart-empty')).toBeTruthy();
    await waitFor(() =>
      expect(toastStore.toasts.map(({ kind, message, durationMs }) => ({ kind, message, durationMs }))).toEqual([
        { kind: 'danger', message: 'No graph data available.', durationMs: 5000 },
      ]),
    );
    expect(screen.queryByTestId('statistics-chart')).toBeNull();
  });

  it('takes someone who may take telephone orders but not read statistics to the virtual terminal instead', async () => {
    const { calls, location } = renderPane({ permissions: ['Portal.Moto.Create'], configuration: true });
    await waitFor(() => expect(location.history.at(-1)).toBe('/configurations/C1/virtual-terminal'));
    expect(calls).toEqual([]);
  });

  it('says so, without asking the server, when the user may not see statistics here', async () => {
    // Not the virtual terminal's permission: its user lands on a terminal (virtual-terminal-landing.test.tsx).
    const { calls } = renderPane({ permissions: ['Portal.Tickets.Read'] });
    expect(await screen.findByText(/You do not have the correct permissions\./)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('a dashboard that explains a drop', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../../../src/contract/dashboard.ts');
    await import('lightweight-charts');
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-18T10:00:00Z'));
    drawn.series = [];
    clearToasts();
  });
  afterEach(() => {
    vi.useRealTimers();
    clearContext();
    sessionStore.permissions = {};
    workspaceStore.panes = [];
  });

  it('says beside each total what it counts, and unsuccessful revenue is gone', async () => {
    renderPane();
    const volume = await screen.findByRole('button', { name: /^Volume £496\.00/ });
    expect(volume.textContent).toContain('Paid payments, on the payment’s date; refunds not taken off.');
    expect(
      screen.getByRole('button', { name: /^Revenue .*Volume less the paid refunds and chargebacks of those payments, netted on the payment’s date/ }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Unsuccessful revenue/ })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Unsuccessful revenue' })).toBeNull();
    const table = screen.getByRole('table', { name: /Volume per day in GBP, March 2026/ });
    expect(within(table).getByText(/Volume: Paid payments, on the payment’s date/)).toBeTruthy();
  });

  it('draws days still to come as no data yet, not as zero, and links the others to their transactions', async () => {
    renderPane();
    const table = await screen.findByRole('table', { name: /Volume per day in GBP, March 2026/ });
    const future = within(table).getByRole('rowheader', { name: '31 March 2026' }).closest('tr') as HTMLElement;
    expect(within(future).getByText('No data yet')).toBeTruthy();
    const past = within(table).getByRole('link', { name: '2 March 2026: open its transactions' });
    const href = decodeURIComponent(past.getAttribute('href') ?? '');
    expect(href).toBe('/transactions?date=[gte]2026-03-02T00:00:00.000Z[and][lte]2026-03-02T23:59:59.999Z&currency=[eq]gbp&kind=[eq]payment&status=[eq]paid');
    await waitFor(() => expect(drawn.series[0]?.data.length).toBe(31));
    const drawnDays = drawn.series[0]?.data as { time: number; value?: number }[];
    expect(drawnDays.filter((point) => point.value === undefined)).toHaveLength(13); // 19 to 31 March: gaps
  });

  it('moves between bars with the arrow keys, announces each, and opens a bar’s transactions with Enter', async () => {
    const { location } = renderPane();
    const chart = await screen.findByRole('group', { name: /Arrow keys move between the bars/ });
    expect(chart.tabIndex).toBe(0);
    expect(screen.getByRole('link', { name: 'Charting by TradingView' }).tabIndex).toBe(-1);
    chart.focus();
    const user = userEvent.setup({ advanceTimers: () => undefined });
    await user.keyboard('{ArrowRight}');
    expect(screen.getByTestId('chart-announcement').textContent).toBe('1 March 2026: £1.00');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('chart-announcement').textContent).toBe('3 March 2026: £3.00');
    expect(screen.getByTestId('chart-announcement').getAttribute('aria-live')).toBe('polite');
    await user.keyboard('{End}');
    expect(screen.getByTestId('chart-announcement').textContent).toBe('31 March 2026: no data yet');
    await user.keyboard('{Home}{ArrowRight}{Enter}');
    await waitFor(() => expect(decodeURIComponent(lastPath(location))).toContain('/transactions?date=[gte]2026-03-02T00:00:00.000Z'));
  });
});

describe('compare with the previous period or a week earlier', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../../../src/contract/dashboard.ts');
    await import('lightweight-charts');
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-18T10:00:00Z'));
    drawn.series = [];
    clearToasts();
  });
  afterEach(() => {
    vi.useRealTimers();
    clearContext();
    sessionStore.permissions = {};
    workspaceStore.panes = [];
  });

  it('asks for the previous period, and for a day the same weekday a week earlier, and says which', async () => {
    const { statisticsCalls, location } = renderPane({ search: '?interval=month&from=2026-03-01&compare=previous' });
    await screen.findByRole('table', { name: /Volume per day in GBP, March 2026/ });
    await waitFor(() => expect(statisticsCalls().map((call) => call.body.dateRange)).toContainEqual({ startDate: '2026-02-01', endDate: '2026-02-28' }));
    expect(await screen.findByRole('columnheader', { name: 'The previous period' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Compare with the previous period' })).toHaveProperty('checked', true);
    const user = userEvent.setup({ advanceTimers: () => undefined });
    await user.click(screen.getByRole('radio', { name: 'Day' }));
    await user.click(screen.getByRole('checkbox', { name: /^Compare with/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Compare with' }), 'week');
    await waitFor(() => expect(lastPath(location)).toContain('compare=week'));
    await waitFor(() => expect(statisticsCalls().map((call) => call.body.dateRange)).toContainEqual({ startDate: '2026-03-11', endDate: '2026-03-11' }));
    expect(await screen.findByRole('columnheader', { name: 'A week earlier' })).toBeTruthy();
  });
});

describe('the breakdown under the chart', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../../../src/contract/dashboard.ts');
    await import('lightweight-charts');
    await import('../../../panes/dashboard/breakdown-table.tsx');
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-18T10:00:00Z'));
    drawn.series = [];
    clearToasts();
  });
  afterEach(() => {
    vi.useRealTimers();
    clearContext();
    sessionStore.permissions = {};
    workspaceStore.panes = [];
  });

  const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
  const rowNames = (table: HTMLElement) => bodyRows(table).map((row) => within(row).getByRole('rowheader').textContent);

  it('is asked for once the figures show, for the period and currency, and sorts by a chosen column', async () => {
    const { calls } = renderPane();
    const table = await screen.findByRole('grid', { name: /GBP payments by merchant/ });
    // The table can show before its request has gone out (the request starts as it mounts).
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/dashboard/breakdown'))).toBe(true));
    const breakdownCalls = calls.filter((call) => call.path.endsWith('/dashboard/breakdown'));
    expect(breakdownCalls[0]?.body).toEqual({ by: 'merchant', currency: 'GBP', dateRange: { startDate: '2026-03-01', endDate: '2026-03-31' } });
    // Lazily: only after the statistics were asked for (and answered).
    expect(calls.findIndex((call) => call.path.endsWith('/dashboard'))).toBeLessThan(calls.findIndex((call) => call.path.endsWith('/breakdown')));
    await waitFor(() => expect(rowNames(table)).toEqual(['Zeta Shop', 'Alpha Online']));
    expect(
      within(bodyRows(table)[0] as HTMLElement)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent),
    ).toEqual(['£450.00', '£450.00', '£0.00', '1', '1']);
    const user = userEvent.setup({ advanceTimers: () => undefined });
    await user.click(within(table).getByRole('button', { name: /^Merchant/ }));
    expect(rowNames(table)).toEqual(['Alpha Online', 'Zeta Shop']);
    await user.click(within(table).getByRole('button', { name: /^Payments/ }));
    expect(rowNames(table)).toEqual(['Alpha Online', 'Zeta Shop']);
    await user.click(within(table).getByRole('button', { name: /^Payments/ }));
    expect(rowNames(table)).toEqual(['Zeta Shop', 'Alpha Online']);
  });

  it('breaks down by payment method or status, and a row opens its transactions with Enter, or beside with Shift+Enter', async () => {
    const { location } = renderPane();
    await screen.findByRole('grid', { name: /GBP payments by merchant/ });
    const user = userEvent.setup({ advanceTimers: () => undefined });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Break down by' }), 'Status');
    const table = await screen.findByRole('grid', { name: /GBP payments by status/ });
    // The statuses and methods read as the rest of the portal names them, not as their codes.
    await waitFor(() => expect(rowNames(table)).toEqual(['Paid', 'Declined', 'Pending']));
    const declined = bodyRows(table)[1] as HTMLElement;
    declined.focus();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    await waitFor(() =>
      expect(workspaceStore.panes.map((pane) => decodeURIComponent(pane.path))).toContainEqual(expect.stringContaining('status=[eq]declined')),
    );
    expect(lastPath(location)).not.toContain('/transactions');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Break down by' }), 'Payment method');
    const methods = await screen.findByRole('grid', { name: /GBP payments by payment method/ });
    await waitFor(() => expect(rowNames(methods)).toEqual(['Card', 'Apple Pay']));
    (bodyRows(methods)[0] as HTMLElement).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(decodeURIComponent(lastPath(location))).toContain('/transactions?'));
    const opened = new URLSearchParams(lastPath(location).split('?')[1]);
    expect(Object.fromEntries(opened)).toEqual({
      date: '[gte]2026-03-01T00:00:00.000Z[and][lte]2026-03-31T23:59:59.999Z',
      currency: '[eq]gbp',
      kind: '[eq]payment',
      paymentmethod: '[eq]card',
    });
  });
});

describe("a breakdown row's name", () => {
  it.each([
    ['merchant', { key: 'M1', label: 'Alpha Online' }, 'Alpha Online'],
    ['paymentMethod', { key: 'applePay', label: 'applePay' }, 'Apple Pay'],
    ['paymentMethod', { key: 'sepaBanktransfer', label: 'sepaBanktransfer' }, 'SEPA bank transfer'],
    ['paymentMethod', { key: 'someNewMethod', label: 'someNewMethod' }, 'Some new method'],
    ['status', { key: 'partiallyRefunded', label: 'partiallyRefunded' }, 'Partially refunded'],
    ['status', { key: 'declined', label: 'declined' }, 'Declined'],
  ] as const)('by %s: %j reads %j', async (by, row, expected) => {
    const { breakdownLabel } = await import('../../../panes/dashboard/breakdown-table.tsx');
    expect(breakdownLabel(by, row)).toBe(expected);
  });
});
