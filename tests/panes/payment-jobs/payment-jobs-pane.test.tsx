// The payment jobs overview: the route's configuration always filters the list, the search finds a job by
// reference, order number or customer email, and a row opens the job.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentJobListItem } from '../../../src/contract/payment-jobs.ts';
import { PaymentJobsPane, searchFilters } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row = (reference: string, overrides: Partial<PaymentJobListItem> = {}): PaymentJobListItem => ({
  reference, orderNumber: `ORD-${reference}`, createDateTimeUtc: '2026-11-01T10:00:00.000Z', expirationDateTimeUtc: null, paidDateTimeUtc: null,
  status: 'paid', amount: 12.5, currency: 'GBP', configurationId: 'C1', businessId: 'B1', merchantId: 'M1', merchantName: 'Alpha Online',
  customer: 'Ada Shopper', emailAddress: 'ada@example.test', paymentMethod: 'card', ...overrides,
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

  it('lists the configuration’s jobs with the filters of its URL', async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/payments'] });
    const api = fakeApi({ '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row('PJ0001'), row('PJ0002', { status: 'pending', amount: 99 })], numberOfResults: 2 }) });
    renderWithServices(<PaymentJobsPane params={{ configurationId: 'C1' }} search={`status=${encodeURIComponent('[eq]paid')}`} capability="Payment jobs overview" />);
    await screen.findByRole('rowheader', { name: 'PJ0002' }, { timeout: 4000 });
    const grid = screen.getByRole('grid', { name: 'Payment jobs' });
    expect(within(grid).getByRole('gridcell', { name: '£99.00' })).toBeTruthy();
    const listCall = api.get.mock.calls.find(([path]) => path === '/businesses/B1/merchants/M1/payment-jobs') as [string, { query: Record<string, string> }];
    expect(listCall[1].query).toMatchObject({ configurationid: '[eq]C1', status: '[eq]paid' });
    expect(within(grid).getByRole('link', { name: 'PJ0001' }).getAttribute('href')).toBe('/configurations/C1/payments/PJ0001');
  });
});
