import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { configureApi } from '../../../src/api/api-client.ts';
import type { PortalApi } from '../../../src/api/http-client.ts';
import { bucketPlan, formatInstant, normalisePeriod, type DashboardInterval } from '../../../src/contract/dashboard-intervals.ts';
import type { DashboardResponse, DeclinesResponse } from '../../../src/contract/dashboard.ts';
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
    return { setData: (data: unknown[]) => { entry.data = data; } };
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

type Call = { path: string; body: { dateRange: { startDate: string; endDate: string }; interval?: DashboardInterval; currency?: string } };

/** A server in miniature: every bucket's volume is 100 × its position (+1), a year earlier half of that. */
function fakeApi(calls: Call[]): PortalApi {
  const post = vi.fn(async (path: string, body: unknown) => {
    const request = body as Call['body'];
    calls.push({ path, body: request });
    if (path.endsWith('/declines')) {
      return {
        startDate: request.dateRange.startDate, endDate: request.dateRange.endDate, currency: request.currency ?? 'GBP', totalCount: 5, totalAmount: 12_345,
        reasons: [{ reason: 'Insufficient funds', count: 3, amount: 10_000 }, { reason: 'Do not honour', count: 2, amount: 2_345 }],
      } satisfies DeclinesResponse;
    }
    const normalised = normalisePeriod(request.interval ?? 'custom', request.dateRange.startDate, request.dateRange.endDate);
    if ('problems' in normalised) throw new Error(normalised.problems.join());
    const plan = bucketPlan(normalised.period, 'UTC');
    const empty = path.startsWith(emptyPath);
    const factor = request.dateRange.startDate.startsWith('2025') ? 0.5 : 1;
    return {
      startDate: normalised.period.startDate, endDate: normalised.period.endDate, interval: normalised.period.interval, timeZone: 'UTC',
      currency: request.currency ?? 'GBP', currencies: ['EUR', 'GBP'], bucket: { unit: plan.unit, step: plan.step },
      datapoints: plan.buckets.map((bucket, index) => {
        const value = empty ? 0 : Math.round(100 * (index + 1) * factor);
        return { startDate: formatInstant(bucket.start, 'UTC'), endDate: formatInstant(bucket.end, 'UTC'), volume: value, revenue: value, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: empty ? 0 : 1 };
      }),
    } satisfies DashboardResponse;
  });
  const unused = vi.fn(async () => { throw new Error('not used'); });
  return { request: unused, get: unused, post, put: unused, patch: unused, delete: unused } as unknown as PortalApi;
}

function renderPane(options: { merchantId?: string; permissions?: string[]; search?: string } = {}) {
  const calls: Call[] = [];
  configureApi(fakeApi(calls));
  const merchantId = options.merchantId ?? 'M1';
  applyContext({ business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: merchantId, title: merchantId === 'M1' ? 'Alpha Online' : 'Alpha Stores' } });
  setPermissions(`merchant:B1/${merchantId}`, options.permissions ?? ['Mapi.MerchantDashboardReport.Read']);
  workspaceStore.panes = [{ id: 'pane-test', path: '/dashboard', capabilities: [], request: null, dirty: false }];
  workspaceStore.focusedIndex = 0;
  const location = memoryLocation({ path: `/dashboard${options.search ?? ''}`, record: true });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Harness() {
    const search = useSearch();
    return <StatisticsDashboardPane params={{}} search={search ? `?${search}` : ''} capability="Statistics dashboard" />;
  }
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
    expect(statisticsCalls()[0]).toEqual({ path: `${merchantPath}/dashboard`, body: { dateRange: { startDate: '2026-03-01', endDate: '2026-03-31' }, interval: 'month' } });
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
    expect(statisticsCalls().map((call) => call.body.dateRange.startDate).at(-1)).toBe('2025-01-01');
  });

  it('lists the top decline reasons', async () => {
    renderPane();
    const declines = await screen.findByRole('table', { name: /Decline reasons in GBP, March 2026/ });
    expect(within(declines).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Insufficient funds', 'Do not honour', 'All declines']);
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
    await waitFor(() => expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Day', 'Volume', 'A year earlier', 'Change']));
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
    await waitFor(() => expect(toastStore.toasts.map(({ kind, message, durationMs }) => ({ kind, message, durationMs }))).toEqual([
      { kind: 'danger', message: 'No graph data available.', durationMs: 5000 },
    ]));
    expect(screen.queryByTestId('statistics-chart')).toBeNull();
  });

  it('says so, without asking the server, when the user may not see statistics here', async () => {
    const { calls } = renderPane({ permissions: ['Portal.Moto.Create'] });
    expect(await screen.findByText(/You do not have the correct permissions\./)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
