// Bulk actions from the payment jobs overview: all matching selected and cancelled as one server job that
// carries the filters (not the rows), behind the confirmation tick; the job's screen shows live progress and can
// cancel it, and offers its result file once it has ended.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { PaymentJobListItem } from '../../../src/contract/payment-job-schemas.ts';
import { PaymentJobsPane } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { BulkJobPane } from '../../../panes/bulk-jobs/bulk-job-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row = (reference: string): PaymentJobListItem => ({
  reference,
  orderNumber: `ORD-${reference}`,
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  expirationDateTimeUtc: null,
  paidDateTimeUtc: null,
  status: 'pending',
  amount: 12.5,
  currency: 'GBP',
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  customer: 'Ada Shopper',
  emailAddress: 'ada@example.test',
  paymentMethod: 'card',
});
const job = (overrides: Partial<BulkJob> = {}): BulkJob => ({
  id: 'BLK00000000000000AA',
  area: 'payment-jobs',
  action: 'cancel',
  status: 'running',
  cancelRequested: false,
  totalItems: 120,
  processedItems: 48,
  succeededItems: 45,
  failedItems: 3,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  reportId: null,
  resultFileName: null,
  error: null,
  ...overrides,
});

describe('bulk actions', () => {
  beforeEach(() => resetStores());

  it('cancels all matching payment jobs of a filtered view as one server job over the filters', async () => {
    signIn({
      permissions: ['Portal.PaymentJobs.Read', 'Portal.PaymentJobs.Cancel', 'Portal.Reports.Create'],
      context: merchantContext,
      paths: ['/configurations/C1/payments'],
    });
    const api = fakeApi({ '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row('PJ0001'), row('PJ0002')], numberOfResults: 120 }) });
    (api.post as Mock).mockResolvedValue({ job: job({ status: 'queued', processedItems: 0 }) });
    renderWithServices(
      <PaymentJobsPane params={{ configurationId: 'C1' }} search={`status=${encodeURIComponent('[eq]pending')}`} capability="Payment jobs overview" />,
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select PJ0001' }, { timeout: 8000 }));
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('1 selected');
    await userEvent.click(screen.getByRole('button', { name: 'Select all 120 matching payment jobs' }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('All 120 matching selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Cancel payment jobs…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel payment jobs' });
    const start = within(dialog).getByRole('button', { name: 'Start' });
    expect((start as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /cancelling is permanent/ }));
    await userEvent.click(start);
    expect(api.post).toHaveBeenCalledTimes(1);
    const [path, body, options] = (api.post as Mock).mock.calls[0] as [string, Record<string, unknown>, { headers: Record<string, string> }];
    expect(path).toBe('/bulk-jobs');
    expect(body).toEqual({
      area: 'payment-jobs',
      action: 'cancel',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1' },
      selection: { allMatching: true, filters: { status: '[eq]pending', configurationid: '[eq]C1' }, includedIds: [], excludedIds: [] },
    });
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
    expect(screen.queryByRole('dialog', { name: 'Cancel payment jobs' })).toBeNull();
  }, 20_000);

  it('offers no cancel without the permission', async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/payments'] });
    fakeApi({ '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row('PJ0001')], numberOfResults: 1 }) });
    renderWithServices(<PaymentJobsPane params={{ configurationId: 'C1' }} search="" capability="Payment jobs overview" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select PJ0001' }, { timeout: 8000 }));
    expect(screen.queryByRole('button', { name: 'Cancel payment jobs…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  }, 20_000);

  it('shows a job’s progress, cancels it, and offers the result once it has ended', async () => {
    signIn({ permissions: [], paths: ['/bulk-jobs/BLK00000000000000AA'] });
    let current = job();
    const api = fakeApi({ '/bulk-jobs/BLK00000000000000AA': () => current });
    (api.post as Mock).mockImplementation(async () => (current = job({ cancelRequested: true })));
    const { rerender } = renderWithServices(<BulkJobPane params={{ jobId: 'BLK00000000000000AA' }} search="" capability="Bulk job" />);
    const bar = await screen.findByRole('progressbar', { name: 'Cancel payment jobs: progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('48 of 120 done: 45 succeeded, 3 failed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download result' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel job' }));
    expect((api.post as Mock).mock.calls[0]?.[0]).toBe('/bulk-jobs/BLK00000000000000AA/cancel');
    expect(await screen.findByText(/Running — stopping/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel job' }).hasAttribute('disabled')).toBe(true);
    void rerender;
  });

  it('offers the result file of an ended job, and the report queue for an export', async () => {
    signIn({ permissions: [], paths: ['/bulk-jobs/BLK00000000000000BB'] });
    fakeApi({
      '/bulk-jobs/BLK00000000000000BB': () =>
        job({
          id: 'BLK00000000000000BB',
          action: 'export',
          status: 'completed',
          processedItems: 120,
          succeededItems: 120,
          failedItems: 0,
          reportId: 'RPTB1',
          resultFileName: 'bulk-export.csv',
          finishedAt: '2026-11-25T10:01:00.000Z',
        }),
    });
    renderWithServices(<BulkJobPane params={{ jobId: 'BLK00000000000000BB' }} search="" capability="Bulk job" />);
    expect((await screen.findByRole('progressbar', { name: 'Export payment jobs: progress' })).getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByRole('button', { name: 'Download result' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open My report queue' }).getAttribute('href')).toBe('/reporting-overview');
    expect(screen.queryByRole('button', { name: 'Cancel job' })).toBeNull();
  });
});
