// Scheduled statements in My report queue, and the internal accounts screen, as a person uses them against a fake API.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { ReportSchedule } from '../../../src/contract/report-schedule-schemas.ts';
import { ScheduledReports } from '../../../panes/reporting-overview/scheduled-reports.tsx';
import { InternalAccountsPane } from '../../../panes/reporting/account-panes.tsx';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const schedule = (extra: Partial<ReportSchedule>): ReportSchedule => ({
  id: 'SCH0000000000000001', reportType: 'tradingAccount', fileType: 'pdf', context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online (Alpha Trading Ltd)' },
  accountNumber: '3M1070216', frequency: 'monthly', weekday: null, dayOfMonth: 1, hour: 6, timeZone: 'Europe/London', description: 'Monthly on day 1 at 06:00 (Europe/London)',
  emailWhenReady: true, paused: false, nextRunAt: '2026-12-01T06:00:00.000Z', lastRunAt: null, lastOutcome: null, lastError: null, lastReportId: null, version: 3, createdAt: '2026-11-01T10:00:00.000Z',
  ...extra,
});

describe('scheduled statements in My report queue', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Reports.Create'] });
  });

  it('lists each schedule with its timing, next run and a failed last run\'s reason; pauses with the version and deletes', async () => {
    const api = fakeApi({
      '/report-schedules': () => ({
        results: [
          schedule({}),
          schedule({ id: 'SCH0000000000000002', reportType: 'costs', fileType: 'xml', paused: true, nextRunAt: null, lastRunAt: '2026-11-01T06:00:00.000Z', lastOutcome: 'failed', lastError: 'You do not have the correct permissions.' }),
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
    await waitFor(() => expect((api.patch as unknown as Mock).mock.calls[0]?.slice(0, 2)).toEqual(['/report-schedules/SCH0000000000000001', { paused: true, version: 3 }]));
    await user.click(screen.getByRole('button', { name: 'Resume Costs 3M1070216' }));
    await waitFor(() => expect((api.patch as unknown as Mock).mock.calls[1]?.slice(0, 2)).toEqual(['/report-schedules/SCH0000000000000002', { paused: false, version: 3 }]));
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
      id: 'RPT00AB', reportType: 'tradingAccount', fileType: 'pdf', status: 'generated', state: 'generated', context: { level: 'merchant', businessId: 'B1', merchantId: 'M1', title: 'Alpha Online', timeZone: 'Europe/London' },
      filters: { accountNumber: '3M1070216' }, ordering: null, columns: [], startDate: null, endDate: null, totalRows: 2, processedRows: 2, attempts: 1,
      queuedAt: '2026-11-01T06:00:00.000Z', generatedAt: '2026-11-01T06:01:00.000Z', expirationDateTime: '2099-01-01T00:00:00.000Z', deletedAt: null,
      fileName: 'tradingAccount-2026-11-01-RPT00AB.pdf', fileSize: 2048, error: null,
    };
    const api = fakeApi({ '/reports': () => ({ results: [], numberOfResults: 0 }), '/reports/RPT00AB': () => linked, '/report-schedules': () => ({ results: [], numberOfResults: 0 }) });
    renderWithServices(<ReportQueuePane params={{}} search="?report=RPT00AB" capability="Report queue" />, createServices());
    const section = await screen.findByRole('region', { name: 'The report you followed' });
    await waitFor(() => expect(section.textContent).toContain('Ready'), { timeout: 10_000 });
    expect(within(section).getByRole('button', { name: /Download tradingAccount-2026-11-01-RPT00AB\.pdf/ })).toBeTruthy();
    expect(section.textContent).toContain('Ready');
    expect(api.get.mock.calls.some(([path]) => path === '/reports/RPT00AB')).toBe(true);
  }, 30_000);
});
