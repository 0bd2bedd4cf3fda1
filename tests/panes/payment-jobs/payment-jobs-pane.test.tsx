// The payment jobs overview: the route's configuration always filters the list, the search finds a job by
// reference, order number or customer email, and a row opens the job.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { PaymentJobListItem } from '../../../src/contract/payment-job-schemas.ts';
import { PaymentJobsPane, searchFilters } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row = (reference: string, overrides: Partial<PaymentJobListItem> = {}): PaymentJobListItem => ({
  reference,
  orderNumber: `ORD-${reference}`,
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  expirationDateTimeUtc: null,
  paidDateTimeUtc: null,
  status: 'paid',
  amount: 12.5,
  currency: 'GBP',
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  customer: 'Ada Shopper',
  emailAddress: 'ada@example.test',
  paymentMethod: 'card',
  ...overrides,
});

describe('searchFilters', () => {
  it.each([
    ['pj0001', { reference: '[eq]PJ0001' }],
    ['ada', { email: '[eq]ada' }],
    ['PJ0001', { reference: '[eq]PJ0001' }],
    ['ord-00001234', { ordernumber: '[eq]ORD-00001234' }],
    ['ada@example.test', { email: '[eq]ada@example.test' }],
    ['  ', {}],
  ])('reads %s as %o', (term, expected) => {
    const filters = Object.fromEntries(Object.entries(searchFilters(term)).filter(([, value]) => value !== undefined));
    expect(filters).toEqual(expected);
  });
});

describe('the payment jobs overview', () => {
  beforeEach(() => resetStores());

  it('lists the configuration’s jobs with the filters of its URL', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/payments'] });
    const api = fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row('PJ0001'), row('PJ0002', { status: 'pending', amount: 99 })], numberOfResults: 2 }),
    });
    renderWithServices(
      <PaymentJobsPane params={{ configurationId: 'C1' }} search={`status=${encodeURIComponent('[eq]paid')}`} capability="Payment jobs overview" />,
    );
    await screen.findByRole('rowheader', { name: 'PJ0002' }, { timeout: 90_000 });
    const grid = screen.getByRole('grid', { name: 'Payment jobs' });
    expect(within(grid).getByRole('gridcell', { name: '£99.00' })).toBeTruthy();
    const listCall = api.get.mock.calls.find(([path]) => path === '/businesses/B1/merchants/M1/payment-jobs') as [string, { query: Record<string, string> }];
    expect(listCall[1].query).toMatchObject({ configurationid: '[eq]C1', status: '[eq]paid' });
    expect(within(grid).getByRole('link', { name: 'PJ0001' }).getAttribute('href')).toBe('/configurations/C1/payments/PJ0001');
  });
  it('says the total is about N when the server counted no further than its cap, and the export dialog says so too', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/configurations/C1/payments'] });
    fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs': () => ({
        results: [row('PJ0001'), row('PJ0002')],
        numberOfResults: 158_707,
        numberOfResultsIsEstimate: true,
      }),
    });
    renderWithServices(<PaymentJobsPane params={{ configurationId: 'C1' }} search="" capability="Payment jobs overview" />);
    await screen.findByRole('rowheader', { name: 'PJ0002' }, { timeout: 90_000 });
    expect(screen.getByText('1–2 of about 158,707')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export payment jobs' });
    expect(within(dialog).getByText(/^About 158,707 payment jobs will be exported/)).toBeTruthy();
  });

  it('exports the picked jobs only, and says so; with none picked, every matching job', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/configurations/C1/payments'] });
    const api = fakeApi({ '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row('PJ0001'), row('PJ0002'), row('PJ0003')], numberOfResults: 3 }) });
    const post = vi.mocked(api.post);
    const job: BulkJob = {
      id: 'BLK00000000000000AC',
      area: 'payment-jobs',
      action: 'export',
      status: 'queued',
      cancelRequested: false,
      totalItems: 0,
      processedItems: 0,
      succeededItems: 0,
      failedItems: 0,
      createdAt: '2026-11-25T10:00:00.000Z',
      finishedAt: null,
      reportId: null,
      resultFileName: null,
      error: null,
    };
    post.mockImplementation(async () => ({ job }) as never);
    const user = userEvent.setup();
    renderWithServices(<PaymentJobsPane params={{ configurationId: 'C1' }} search="" capability="Payment jobs overview" />);
    await screen.findByRole('rowheader', { name: 'PJ0003' }, { timeout: 90_000 });
    await user.click(screen.getByRole('checkbox', { name: 'Select PJ0002' }));
    await user.click(within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', { name: 'Export selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export payment jobs' });
    expect(within(dialog).getByText('1 payment job will be exported, the one you selected.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[1]).toMatchObject({
      area: 'payment-jobs',
      action: 'export',
      selection: { allMatching: false, includedIds: ['PJ0002'], excludedIds: [] },
    });

    await user.click(within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const again = await screen.findByRole('dialog', { name: 'Export payment jobs' });
    expect(within(again).getByText('3 payment jobs will be exported, every one that matches the filters.')).toBeTruthy();
    await user.click(within(again).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post.mock.calls[1]?.[1]).toMatchObject({ selection: { allMatching: true, includedIds: [], excludedIds: [] } });
  });
});
