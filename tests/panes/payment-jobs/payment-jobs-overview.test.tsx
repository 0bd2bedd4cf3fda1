// The payment jobs overview of the applied context (/payment-jobs): a business's jobs across its merchants with no
// configuration forced, status tabs that ask the server for their jobs, a configuration filter, and one label per
// status: the filter's choice, the row's chip and the detail's chip read the same.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ContextSelections } from '../../../src/contract/context.ts';
import { statusLabelOf } from '../../../src/contract/payment-job-labels.ts';
import type { PaymentJobListItem } from '../../../src/contract/payment-job-schemas.ts';
import { PaymentJobsPane } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { StatusChip } from '../../../panes/payment-jobs/payment-job-format.tsx';
import { render } from '@testing-library/react';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const businessContext: ContextSelections = { business: { id: 'B1', title: 'Alpha Trading', camAutoRemittance: false } };
const partnerContext: ContextSelections = { partner: { id: 'P1', title: 'Northwind Partners' } } as ContextSelections;

const row = (reference: string, overrides: Partial<PaymentJobListItem> = {}): PaymentJobListItem => ({
  reference,
  orderNumber: `ORD-${reference}`,
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  expirationDateTimeUtc: null,
  paidDateTimeUtc: null,
  status: 'pending',
  amount: 12.5,
  currency: 'GBP',
  configurationId: 'C2',
  businessId: 'B1',
  merchantId: 'M2',
  merchantName: 'Alpha Stores',
  customer: 'Ada Shopper',
  emailAddress: 'ada@example.test',
  paymentMethod: 'card',
  ...overrides,
});

type ListCall = [string, { query: Record<string, string> }];
const lastListCall = (api: ReturnType<typeof fakeApi>, path: string) => api.get.mock.calls.filter(([called]) => called === path).at(-1) as ListCall | undefined;

describe('the payment jobs overview of a context', () => {
  beforeEach(() => resetStores());

  it("lists a business's jobs without forcing a configuration, and each status tab asks for its jobs", { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: businessContext, paths: ['/payment-jobs'] });
    const api = fakeApi({
      '/businesses/B1/payment-jobs': () => ({
        results: [row('PJ0001'), row('PJ0002', { configurationId: 'C9', merchantName: 'Alpha Online' })],
        numberOfResults: 2,
      }),
    });
    renderWithServices(<PaymentJobsPane params={{}} search={`tab=${encodeURIComponent('[eq]open')}`} capability="Payment jobs overview" />);
    await screen.findByRole('rowheader', { name: 'PJ0002' }, { timeout: 90_000 });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment jobs' })).toBeTruthy();
    const first = lastListCall(api, '/businesses/B1/payment-jobs');
    expect(first?.[1].query.tab).toBe('[eq]open');
    expect(first?.[1].query).not.toHaveProperty('configurationid');
    // The detail of a job lives under its own configuration.
    expect(
      within(screen.getByRole('grid', { name: 'Payment jobs' }))
        .getByRole('link', { name: 'PJ0002' })
        .getAttribute('href'),
    ).toBe('/configurations/C9/payments/PJ0002');
    const tabs = screen.getByRole('group', { name: 'Payment job status' });
    expect(
      within(tabs)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['All', 'Open', 'Authorised, not captured', 'Paid', 'Refunded', 'Failed']);
    expect(within(tabs).getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('lists a partner’s jobs under the partner', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: partnerContext, paths: ['/payment-jobs'] });
    fakeApi({ '/partners/P1/payment-jobs': () => ({ results: [row('PJ0007')], numberOfResults: 1 }) });
    renderWithServices(<PaymentJobsPane params={{}} search="" capability="Payment jobs overview" />);
    await screen.findByRole('rowheader', { name: 'PJ0007' }, { timeout: 90_000 });
  });

  it("offers a merchant's configurations as a filter, and the status filter says what the chips say", { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/payment-jobs'] });
    const api = fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs': () => ({
        results: [row('PJ0001', { status: 'pending' }), row('PJ0002', { status: 'reserved' })],
        numberOfResults: 2,
      }),
      '/businesses/B1/merchants/M1/configurations': () => ({
        results: [
          {
            configurationId: 'C1',
            tradeName: 'Webshop',
            description: '',
            switches: { virtualTerminalMenuEnabled: true },
            version: 1,
            enabledPaymentMethods: [],
            hostedPageCount: 0,
          },
          {
            configurationId: 'C2',
            tradeName: 'Phone orders',
            description: '',
            switches: { virtualTerminalMenuEnabled: true },
            version: 1,
            enabledPaymentMethods: [],
            hostedPageCount: 0,
          },
        ],
        numberOfResults: 2,
      }),
    });
    renderWithServices(<PaymentJobsPane params={{}} search={`configurationid=${encodeURIComponent('[eq]C2')}`} capability="Payment jobs overview" />);
    const grid = await screen.findByRole('grid', { name: 'Payment jobs' }, { timeout: 90_000 });
    await within(grid).findByRole('rowheader', { name: 'PJ0002' });
    expect(lastListCall(api, '/businesses/B1/merchants/M1/payment-jobs')?.[1].query.configurationid).toBe('[eq]C2');
    // The chips: one label per status.
    expect(within(grid).getByText('Waiting for the shopper')).toBeTruthy();
    expect(within(grid).getByText('Authorised, not captured')).toBeTruthy();
    // The filter panel: the configuration list and the same words for the statuses.
    const configuration = (await screen.findByRole('combobox', { name: /Configuration/ })) as HTMLSelectElement;
    await waitFor(() => expect(within(configuration).getByRole('option', { name: 'Phone orders (C2)' })).toBeTruthy());
    expect(configuration.value).toBe('C2');
    await user.click(screen.getByRole('button', { name: /^Status: / }));
    expect(await screen.findByRole('checkbox', { name: 'Waiting for the shopper' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Pending' })).toBeNull();
  });

  it('shows the same label on the detail’s chip as on the list’s', () => {
    render(
      <>
        <StatusChip status="pending" />
        <StatusChip kind="refund" status="completed" />
        <StatusChip kind="chargeback" status="paid" />
      </>,
    );
    expect(screen.getByText(statusLabelOf('payment', 'pending'))).toBeTruthy();
    expect(screen.getByText('Refunded')).toBeTruthy();
    expect(screen.getByText('Charged back')).toBeTruthy();
  });
});
