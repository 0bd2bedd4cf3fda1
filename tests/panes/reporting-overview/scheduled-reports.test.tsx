// Scheduled statements in My report queue, and the internal accounts screen, as a person uses them against a fake API.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import { isAvailable } from '../../../commands/registry.ts';
import { runScheduleNowCommand } from '../../../commands/reporting/run-schedule-now.ts';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import type { ReportSchedule, ReportScheduleRun } from '../../../src/contract/report-schedule-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { ReportQueuePane } from '../../../panes/reporting-overview/report-queue-pane.tsx';
import { ScheduledReports } from '../../../panes/reporting-overview/scheduled-reports.tsx';
import { InternalAccountsPane } from '../../../panes/reporting/account-panes.tsx';
import { baseContext, createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const schedule = (extra: Partial<ReportSchedule>): ReportSchedule => ({
  id: 'SCH0000000000000001',
  reportType: 'tradingAccount',
  fileType: 'pdf',
  context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online (Alpha Trading Ltd)' },
  accountNumber: '3M1070216',
  frequency: 'monthly',
  weekday: null,
  dayOfMonth: 1,
  hour: 6,
  timeZone: 'Europe/London',
  description: 'Monthly on day 1 at 06:00 (Europe/London)',
  emailWhenReady: true,
  paused: false,
  nextRunAt: '2026-12-01T06:00:00.000Z',
  lastRunAt: null,
  lastOutcome: null,
  lastError: null,
  lastReportId: null,
  mayRunNow: true,
  version: 3,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...extra,
});

describe('scheduled statements in My report queue', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'] });
  });

  it("lists each schedule with its timing, next run and a failed last run's reason; pauses with the version and deletes", async () => {
    const api = fakeApi({
      '/report-schedules': () => ({
        results: [
          schedule({}),
          schedule({
            id: 'SCH0000000000000002',
            reportType: 'costs',
            fileType: 'xml',
            paused: true,
            nextRunAt: null,
            lastRunAt: '2026-11-01T06:00:00.000Z',
            lastOutcome: 'failed',
            lastError: 'You do not have the correct permissions.',
          }),
        ],
        numberOfResults: 2,
      }),
    });
    renderWithServices(<ScheduledReports focus />, createServices());
    const table = await screen.findByRole('table', { name: 'Scheduled statements and reports' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1] as HTMLElement).getByRole('rowheader').textContent).toBe('Trading account 3M1070216 · PDF');
    expect(rows[1]?.textContent).toContain('Monthly on day 1 at 06:00 (Europe/London)');
    expect(rows[2]?.textContent).toContain('Paused');
    expect(rows[2]?.textContent).toContain('You do not have the correct permissions.');
    expect(screen.getByRole('heading', { name: 'Scheduled statements and reports' })).toBe(document.activeElement);
    const user = userEvent.setup();
    (api.patch as unknown as Mock).mockImplementation(async () => schedule({ paused: true, version: 4 }));
    await user.click(screen.getByRole('button', { name: 'Pause Trading account 3M1070216' }));
    await waitFor(() =>
      expect((api.patch as unknown as Mock).mock.calls[0]?.slice(0, 2)).toEqual(['/report-schedules/SCH0000000000000001', { paused: true, version: 3 }]),
    );
    await user.click(screen.getByRole('button', { name: 'Resume Costs 3M1070216' }));
    await waitFor(() =>
      expect((api.patch as unknown as Mock).mock.calls[1]?.slice(0, 2)).toEqual(['/report-schedules/SCH0000000000000002', { paused: false, version: 3 }]),
    );
    await user.click(screen.getByRole('button', { name: 'Delete schedule Costs 3M1070216' }));
    await waitFor(() => expect((api.delete as unknown as Mock).mock.calls[0]?.[0]).toBe('/report-schedules/SCH0000000000000002'));
  }, 30_000);

  it('says how to make one when there is none', async () => {
    fakeApi({ '/report-schedules': () => ({ results: [], numberOfResults: 0 }) });
    renderWithServices(<ScheduledReports focus={false} />, createServices());
    expect(await screen.findByText(/No schedules yet/)).toBeTruthy();
  });
});

describe('internal accounts', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.InternalMerchantAccounts.Read'] });
  });

  it('shows the clearing and bank balances per currency and what the merchants are owed', async () => {
    fakeApi({
      '/ledger/internal-accounts': () => ({
        results: [
          { accountId: 'provider:bank:GBP', kind: 'bank', currency: 'GBP', balance: 120 },
          { accountId: 'provider:clearing:GBP', kind: 'clearing', currency: 'GBP', balance: -500.5 },
        ],
        numberOfResults: 2,
      }),
    });
    renderWithServices(<InternalAccountsPane params={{}} search="" capability="Internal accounts" />, createServices());
    const table = await screen.findByRole('table', { name: 'Internal accounts and balances' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByRole('rowheader').textContent).toBe('GBP');
    expect(within(row).getByRole('cell', { name: 'Clearing account GBP' }).textContent).toBe('-£500.50');
    expect(within(row).getByRole('cell', { name: 'Bank account GBP' }).textContent).toBe('£120.00');
    expect(row.textContent).toContain('£380.50');
  });
});

describe('the report an email linked to', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'] });
  });

  it('shows the linked report above the queue with its download, whichever page it is on', async () => {
    const { ReportQueuePane } = await import('../../../panes/reporting-overview/report-queue-pane.tsx');
    const linked = {
      id: 'RPT00AB',
      reportType: 'tradingAccount',
      fileType: 'pdf',
      status: 'generated',
      state: 'generated',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online', timeZone: 'Europe/London' },
      filters: { accountNumber: '3M1070216' },
      ordering: null,
      columns: [],
      startDate: null,
      endDate: null,
      totalRows: 2,
      processedRows: 2,
      attempts: 1,
      queuedAt: '2026-11-01T06:00:00.000Z',
      generatedAt: '2026-11-01T06:01:00.000Z',
      expirationDateTime: '2099-01-01T00:00:00.000Z',
      deletedAt: null,
      fileName: 'tradingAccount-2026-11-01-RPT00AB.pdf',
      fileSize: 2048,
      error: null,
    };
    const api = fakeApi({
      '/reports': () => ({ results: [], numberOfResults: 0 }),
      '/reports/RPT00AB': () => linked,
      '/report-schedules': () => ({ results: [], numberOfResults: 0 }),
    });
    renderWithServices(<ReportQueuePane params={{}} search="?report=RPT00AB" capability="Report queue" />, createServices());
    const section = await screen.findByRole('region', { name: 'The report you followed' });
    await waitFor(() => expect(section.textContent).toContain('Ready'), { timeout: 10_000 });
    expect(within(section).getByRole('button', { name: /Download tradingAccount-2026-11-01-RPT00AB\.pdf/ })).toBeTruthy();
    expect(section.textContent).toContain('Ready');
    expect(api.get.mock.calls.some(([path]) => path === '/reports/RPT00AB')).toBe(true);
  }, 30_000);
});

/** My report queue with the shortcuts bound, as in the shell. */
function QueuePane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <ReportQueuePane params={{}} search="" capability="Report queue" />;
}

describe('Run now on a schedule', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'], paths: ['/reporting-overview'] });
  });

  const answerOf = (of: ReportSchedule, reportId: string): ReportScheduleRun => ({
    scheduleId: of.id,
    reportId,
    periodFirstDay: '2026-11-01',
    periodLastDay: '2026-11-30',
    schedule: { ...of, lastRunAt: '2026-12-02T09:00:00.000Z', lastOutcome: 'queued', lastReportId: reportId },
  });
  const statement = schedule({});
  const refused = schedule({ id: 'SCH0000000000000002', reportType: 'costs', mayRunNow: false });

  function setup() {
    const api = fakeApi({
      '/reports': () => ({ results: [], numberOfResults: 0 }),
      '/report-schedules': () => ({ results: [statement, refused], numberOfResults: 2 }),
    });
    const post = api.post as unknown as Mock;
    let serial = 0;
    post.mockImplementation(async () => answerOf(statement, `RPT00000000000000A${++serial}`));
    const paneId = workspaceStore.panes[0]?.id ?? '';
    renderWithServices(
      <PaneScopeContext value={{ paneId }}>
        <QueuePane />
      </PaneScopeContext>,
      createServices(),
    );
    return { post, paneId, user: userEvent.setup() };
  }
  const capabilitiesOf = (paneId: string) => workspaceStore.panes.find((pane) => pane.id === paneId)?.capabilities ?? [];

  it('queues one run with an Idempotency-Key, keeps focus on the button and says where the file will be', async () => {
    const { post, user } = setup();
    const button = await screen.findByRole('button', { name: 'Run now Trading account 3M1070216' });
    // Not offered where the server would refuse it.
    expect(screen.queryByRole('button', { name: 'Run now Costs 3M1070216' })).toBeNull();
    await user.click(button);
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    const [path, body, options] = post.mock.calls[0] as [string, unknown, { headers: Record<string, string> }];
    expect([path, body]).toEqual(['/report-schedules/SCH0000000000000001/runs', undefined]);
    expect(options.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{8,}$/);
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => toast.message)).toContain(
        'Trading account 3M1070216 for 1 November 2026 to 30 November 2026 is queued. The file appears in My report queue when it is ready, and you get an email then.',
      ),
    );
    expect(toastStore.toasts.find((toast) => toast.message.includes('is queued'))?.link).toEqual({
      href: '/reporting-overview?report=RPT00000000000000A1',
      label: 'Open the queued report',
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Run now Trading account 3M1070216' }));
    // A second run is a new request: a new key.
    await user.click(screen.getByRole('button', { name: 'Run now Trading account 3M1070216' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    const keys = post.mock.calls.map((call) => (call[2] as { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(2);
  }, 30_000);

  it('a failed run keeps its key, so pressing again cannot queue a second one if the first went through', async () => {
    const { post, user } = setup();
    post.mockImplementationOnce(async () => {
      throw new Error('network');
    });
    await user.click(await screen.findByRole('button', { name: 'Run now Trading account 3M1070216' }));
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain('The schedule could not be run now.'));
    await user.click(screen.getByRole('button', { name: 'Run now Trading account 3M1070216' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    const keys = post.mock.calls.map((call) => (call[2] as { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(keys[0]).toBe(keys[1]);
  }, 30_000);

  it('Shift+R runs the schedule whose row holds focus; the command is declared only for a schedule the server would run', async () => {
    const { post, paneId, user } = setup();
    const table = await screen.findByRole('table', { name: 'Scheduled statements and reports' });
    // Two schedules and none focused yet: no current schedule, nothing offered.
    expect(capabilitiesOf(paneId)).not.toContain('runSchedule');
    within(table).getByRole('button', { name: 'Pause Costs 3M1070216' }).focus();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Pause'));
    expect(capabilitiesOf(paneId)).not.toContain('runSchedule');
    within(table).getByRole('button', { name: 'Pause Trading account 3M1070216' }).focus();
    await waitFor(() => expect(capabilitiesOf(paneId)).toContain('runSchedule'));
    await user.keyboard('{Shift>}R{/Shift}');
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[0]).toBe('/report-schedules/SCH0000000000000001/runs');
    // Focus then lands on the schedule's Run now button.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Run now Trading account 3M1070216' })));
  }, 30_000);

  it('is offered on My report queue only with the capability, the permission and no field or overlay in the way', () => {
    const on = (extra: Parameters<typeof baseContext>[0]) =>
      baseContext({
        permissions: ['Portal.Reports.Create'],
        route: { id: 'reportQueue', pattern: '/reporting-overview', path: '/reporting-overview' },
        focusedPane: { id: 'pane-1', capabilities: ['runSchedule'] },
        ...extra,
      });
    expect(isAvailable(runScheduleNowCommand, on({}))).toBe(true);
    expect(isAvailable(runScheduleNowCommand, on({ focusedPane: { id: 'pane-1', capabilities: [] } }))).toBe(false);
    expect(isAvailable(runScheduleNowCommand, on({ permissions: [] }))).toBe(false);
    expect(isAvailable(runScheduleNowCommand, on({ fieldFocused: true }))).toBe(false);
    expect(isAvailable(runScheduleNowCommand, on({ overlayOpen: true }))).toBe(false);
    expect(isAvailable(runScheduleNowCommand, on({ route: { id: 'transactions', pattern: '/transactions', path: '/transactions' } }))).toBe(false);
  });
});
