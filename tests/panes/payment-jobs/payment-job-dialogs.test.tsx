// The payment action dialogs (keyboard first: pre-filled amount, validation as typed in the currency's decimals,
// a reason list where 'Other' needs a note, the confirmation tick, Enter confirms, Escape closes, the server's
// refusal shown inside) and the detail pane offering only what the job allows and the user may do.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentDetail, PaymentJobDetail } from '../../../src/contract/payment-job-schemas.ts';
import { CancelJobDialog, RefundDialog } from '../../../panes/payment-jobs/payment-action-dialogs.tsx';
import { PaymentJobDetailPane } from '../../../panes/payment-jobs/payment-job-detail-pane.tsx';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const payment = (overrides: Partial<PaymentDetail> = {}): PaymentDetail => ({
  paymentId: 'TX0001',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  maskedCardNumber: '411111******1111',
  currency: 'GBP',
  amount: 100,
  authorised: 100,
  captured: 100,
  refunded: 87.5,
  refundPending: 0,
  chargedBack: 0,
  refundable: 12.5,
  capturable: 0,
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  originatingIpAddress: '192.0.2.7',
  declineReason: null,
  traceReference: 'TR0001',
  steps: [
    { step: 'created', dateTimeUtc: '2026-11-01T09:59:00.000Z', amount: 100 },
    { step: 'authorised', dateTimeUtc: '2026-11-01T10:00:00.000Z', amount: 100 },
  ],
  captures: [],
  refunds: [],
  attributes: { acquirer: 'Worldline' },
  actions: { capture: false, refund: true, void: false },
  ...overrides,
});

describe('the refund dialog', () => {
  it('pre-fills what remains, validates as typed, needs a note for Other, and sends on Enter', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    const onClose = vi.fn();
    render(<RefundDialog open payment={payment()} onClose={onClose} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    const amount = within(dialog).getByLabelText('Amount (GBP)') as HTMLInputElement;
    expect(amount.value).toBe('12.50');
    await waitFor(() => expect(document.activeElement).toBe(amount));
    await user.clear(amount);
    await user.type(amount, '12.505');
    expect(within(dialog).getByText('Enter an amount with at most 2 decimals.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Refund' }) as HTMLButtonElement).disabled).toBe(true);
    await user.clear(amount);
    await user.type(amount, '13');
    expect(within(dialog).getByText('At most £12.50 can be refunded.')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '10');
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'Other');
    expect(within(dialog).getByText("A refund for the reason 'Other' needs a note.")).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Note (required)'), 'Chipped lid{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ amount: 10, reason: 'other', note: 'Chipped lid', notifyCustomer: false }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('takes whole numbers only for JPY', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    render(<RefundDialog open payment={payment({ currency: 'JPY', refundable: 5000 })} onClose={() => undefined} onSubmit={async () => undefined} />);
    const amount = (await screen.findByLabelText('Amount (JPY)')) as HTMLInputElement;
    expect(amount.value).toBe('5000');
    await user.clear(amount);
    await user.type(amount, '100.5');
    expect(screen.getByText('Enter a whole number of JPY.')).toBeTruthy();
  });

  it('shows the server’s refusal inside the dialog and stays open; Escape closes it', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onSubmit = vi.fn(async () => {
      throw Object.assign(new Error('refused'), { messages: ['At most £2.00 can still be refunded (£10.50 is held by refunds in progress).'] });
    });
    render(<RefundDialog open payment={payment()} onClose={onClose} onSubmit={onSubmit} />);
    await screen.findByRole('dialog', { name: 'Refund payment' });
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    expect((await screen.findByRole('alert')).textContent).toBe('At most £2.00 can still be refunded (£10.50 is held by refunds in progress).');
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});

describe('the cancel dialog', () => {
  it('needs the confirmation tick, then Enter cancels', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    render(<CancelJobDialog open reference="PJ0001" onClose={() => undefined} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel payment job' });
    expect((within(dialog).getByRole('button', { name: 'Cancel payment job' }) as HTMLButtonElement).disabled).toBe(true);
    const tick = within(dialog).getByRole('checkbox', { name: 'I understand that cancelling this payment job is permanent' });
    await waitFor(() => expect(document.activeElement).toBe(tick));
    await user.keyboard(' ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ confirmed: true }));
  });
});

const job = (overrides: Partial<PaymentJobDetail> = {}): PaymentJobDetail => ({
  reference: 'PJ0001',
  orderNumber: 'ORD-1',
  createDateTimeUtc: '2026-11-01T09:59:00.000Z',
  expirationDateTimeUtc: null,
  paidDateTimeUtc: '2026-11-01T10:00:00.000Z',
  status: 'paid',
  amount: 100,
  currency: 'GBP',
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  customer: 'Ada Shopper',
  emailAddress: 'ada@example.test',
  paymentMethod: 'card',
  version: 3,
  businessName: 'Alpha Trading',
  partnerId: null,
  phoneNumber: null,
  order: {
    billingIdentity: { emailAddress: 'ada@example.test', dateOfBirth: null },
    billingAddress: { firstName: 'Ada', lastName: 'Shopper', phoneNumber1: '+441130000000', phoneNumber1Type: 'Unknown' },
    shippingAddress: null,
    orderLines: [
      {
        type: 'physicalItem',
        description: 'Teapot',
        quantity: 2,
        unitPriceExclVat: 41.67,
        unitPriceInclVat: 50,
        vatPercentage: 20,
        totalExclVat: 83.33,
        totalInclVat: 100,
        totalVat: 16.67,
      },
    ],
    totals: { exclVat: 83.33, vat: 16.67, inclVat: 100 },
  },
  amounts: { authorised: 100, captured: 100, refunded: 87.5, chargedBack: 0, remaining: 12.5 },
  payments: [payment()],
  invoices: [],
  reversals: [],
  splitOutpayment: null,
  actions: { cancel: false, mailPaymentLink: false, expireLink: false },
  ...overrides,
});

describe('the payment job detail', () => {
  beforeEach(() => resetStores());

  it('offers a refund to whoever may refund, and sends it with the job’s version and an Idempotency-Key', { timeout: 180_000 }, async () => {
    signIn({
      permissions: ['Portal.PaymentJobs.Read', 'Portal.Payments.Refund', 'Portal.Traces.Read'],
      context: merchantContext,
      paths: ['/configurations/C1/payments/PJ0001'],
    });
    const api = fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () => job(),
      '/businesses/B1/merchants/M1/audit-events': () => ({ data: [], totalCount: 0 }),
    });
    (api.post as unknown as ReturnType<typeof vi.fn>).mockResolvedValue({
      message: 'Refund of £12.50 requested (Requested by the customer).',
      paymentJobReference: 'PJ0001',
      version: 4,
      refundId: 'TX0009',
    });
    const user = userEvent.setup();
    renderWithServices(<PaymentJobDetailPane params={{ configurationId: 'C1', paymentJobReference: 'PJ0001' }} search="" capability="Payment job detail" />);
    expect(await screen.findByRole('heading', { name: 'Payment job PJ0001', level: 1 }, { timeout: 90_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Capture…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel payment job…' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(api.post).toHaveBeenCalled());
    const [path, body, options] = (api.post as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [
      string,
      Record<string, unknown>,
      { headers: Record<string, string> },
    ];
    expect(path).toBe('/businesses/B1/merchants/M1/payment-jobs/PJ0001/payments/TX0001/actions/refund');
    expect(body).toMatchObject({ amount: 12.5, reason: 'requestedByCustomer', version: 3 });
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
  });

  it('shows a chargeback as one: a badge and a negative amount, in the amounts, on its payment and under Reversals', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/payments/PJ0001'] });
    const reversal = {
      reversalId: 'TXCB0001',
      paymentId: 'TX0001',
      amount: -12.5,
      currency: 'GBP',
      reason: 'Fraud: card not present',
      status: 'paid',
      dateTimeUtc: '2026-11-21T10:00:00.000Z',
    };
    fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () =>
        job({
          amounts: { authorised: 100, captured: 100, refunded: 87.5, chargedBack: 12.5, remaining: 0 },
          payments: [payment({ chargedBack: 12.5, refundable: 0 })],
          reversals: [reversal],
        }),
      '/businesses/B1/merchants/M1/audit-events': () => ({ data: [], totalCount: 0 }),
    });
    const user = userEvent.setup();
    renderWithServices(<PaymentJobDetailPane params={{ configurationId: 'C1', paymentJobReference: 'PJ0001' }} search="" capability="Payment job detail" />);
    await screen.findByRole('heading', { name: 'Payment job PJ0001', level: 1 }, { timeout: 90_000 });
    expect(screen.getByText('Charged back').nextElementSibling?.textContent).toBe('-£12.50');
    await user.click(screen.getByRole('tab', { name: 'Payments' }));
    const onPayment = within(screen.getByRole('table', { name: 'Chargebacks of TX0001' }));
    expect(onPayment.getByRole('link', { name: 'TXCB0001' }).getAttribute('href')).toBe('/transactions/TXCB0001');
    expect(onPayment.getByText('Chargeback', { selector: '.status-chip' })).toBeTruthy();
    expect(onPayment.getByRole('cell', { name: '-£12.50' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Invoices and reversals' }));
    const reversals = within(screen.getByRole('table', { name: 'Reversals' }));
    expect(reversals.getByRole('rowheader', { name: /TXCB0001/ })).toBeTruthy();
    expect(reversals.getByRole('cell', { name: '-£12.50' })).toBeTruthy();
    expect(reversals.getByText('Fraud: card not present')).toBeTruthy();
  });

  it('shows what can still be captured of a reserved job, refunds by their one label, and the activity in words', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/payments/PJ0001'] });
    const reserved = payment({
      status: 'reserved',
      authorised: 105.45,
      captured: 0,
      refunded: 0,
      refundable: 0,
      capturable: 105.45,
      actions: { capture: true, refund: false, void: true },
      refunds: [
        {
          refundId: 'TXRF0001',
          amount: 5,
          currency: 'GBP',
          status: 'processing',
          reason: 'goodwill',
          note: null,
          createDateTimeUtc: '2026-11-02T10:00:00.000Z',
          cancellable: false,
          steps: [
            { step: 'requested', dateTimeUtc: '2026-11-02T10:00:00.000Z' },
            { step: 'processing', dateTimeUtc: '2026-11-02T10:05:00.000Z' },
          ],
        },
      ],
    });
    fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () =>
        job({
          status: 'reserved',
          amount: 105.45,
          amounts: { authorised: 105.45, captured: 0, refunded: 0, chargedBack: 0, remaining: 0 },
          payments: [reserved],
        }),
      '/businesses/B1/merchants/M1/audit-events': () => ({
        data: [
          {
            id: '2',
            event: 'RefundSuccessful',
            dateTimeUtc: '2026-11-02T10:05:00.000Z',
            userId: 'system',
            userEmail: null,
            businessId: 'B1',
            merchantId: 'M1',
            metaData: { outcome: 'processing', amount: 5, currency: 'GBP' },
          },
          {
            id: '1',
            event: 'RefundSuccessful',
            dateTimeUtc: '2026-11-02T10:00:00.000Z',
            userId: 'u1',
            userEmail: 'ada@demo.test',
            businessId: 'B1',
            merchantId: 'M1',
            metaData: { outcome: 'requested', amount: 5, currency: 'GBP', reason: 'goodwill' },
          },
        ],
        totalCount: 2,
      }),
    });
    const user = userEvent.setup();
    renderWithServices(<PaymentJobDetailPane params={{ configurationId: 'C1', paymentJobReference: 'PJ0001' }} search="" capability="Payment job detail" />);
    await screen.findByRole('heading', { name: 'Payment job PJ0001', level: 1 }, { timeout: 90_000 });
    const amounts = within(document.querySelector('.payment-job-amounts') as HTMLElement);
    expect(amounts.getByText('Can still be captured').nextElementSibling?.textContent).toBe('£105.45');
    expect(amounts.queryByText('Remaining')).toBeNull();
    expect(screen.getAllByText('Authorised, not captured').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('tab', { name: 'Payments' }));
    const refunds = within(screen.getByRole('table', { name: 'Refunds of TX0001' }));
    expect(refunds.getByText('Refund processing', { selector: '.status-chip' })).toBeTruthy();
    expect(refunds.getByText(/^Refund requested .* → Refund processing /)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    const activity = within(screen.getByRole('table', { name: 'Activity' }));
    expect(activity.getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Refund processing', 'Refund requested']);
    expect(activity.queryByText('RefundSuccessful')).toBeNull();
  });

  it('offers a read-only user no action at all', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read', 'Portal.Traces.Read'], context: merchantContext, paths: ['/configurations/C1/payments/PJ0001'] });
    fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () => job({ actions: { cancel: true, mailPaymentLink: true, expireLink: true } }),
      '/businesses/B1/merchants/M1/audit-events': () => ({ data: [], totalCount: 0 }),
    });
    renderWithServices(<PaymentJobDetailPane params={{ configurationId: 'C1', paymentJobReference: 'PJ0001' }} search="" capability="Payment job detail" />);
    await screen.findByRole('heading', { name: 'Payment job PJ0001', level: 1 }, { timeout: 90_000 });
    expect(within(screen.getByRole('group', { name: 'Actions' })).queryAllByRole('button')).toHaveLength(0);
  });
});
