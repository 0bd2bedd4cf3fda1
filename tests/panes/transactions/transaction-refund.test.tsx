// Refunding from the transaction: the detail offers 'Refund…' (and Shift+R, the payment job's refund command) only when
// the server says the caller may refund this payment here, opens the payment job's own refund dialog for this payment,
// and sends the refund to the payment job's refund endpoint with the job's version and an Idempotency-Key.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type vi } from 'vitest';
import type { PaymentDetail, PaymentJobDetail } from '../../../src/contract/payment-job-schemas.ts';
import type { TransactionDetail } from '../../../src/contract/transaction-schemas.ts';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { TransactionDetailPane } from '../../../panes/transactions/transaction-detail-pane.tsx';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const detail = (overrides: Partial<TransactionDetail> = {}): TransactionDetail => ({
  reference: 'TX0001',
  kind: 'payment',
  date: '2026-11-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  amount: 100,
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ewalletType: null,
  paymentJobReference: 'PJ0001',
  businessName: 'Alpha Trading',
  partnerId: null,
  configurationId: 'C1',
  parentReference: null,
  maskedCardNumber: '411111******1111',
  declineReason: null,
  customerEmail: 'ada@example.test',
  originatingIpAddress: null,
  paymentMethods: [{ paymentMethod: 'card', ewalletType: null, maskedCardNumber: '411111******1111' }],
  paymentJob: {
    reference: 'PJ0001',
    orderNumber: 'ORD-1',
    status: 'paid',
    createDateTimeUtc: '2026-11-01T09:59:00.000Z',
    amount: 100,
    currency: 'GBP',
    configurationId: 'C1',
  },
  linkedTransactions: [],
  cardNumberRevealable: false,
  ...overrides,
});
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
  steps: [{ step: 'created', dateTimeUtc: '2026-11-01T09:59:00.000Z', amount: 100 }],
  captures: [],
  refunds: [],
  attributes: {},
  actions: { capture: false, refund: true, void: false },
  ...overrides,
});
const job = (): PaymentJobDetail =>
  ({
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
      billingAddress: null,
      shippingAddress: null,
      orderLines: [],
      totals: { exclVat: 0, vat: 0, inclVat: 0 },
    },
    amounts: { authorised: 100, captured: 100, refunded: 87.5, chargedBack: 0, remaining: 12.5 },
    payments: [payment({ paymentId: 'TX0000', actions: { capture: false, refund: true, void: false } }), payment()],
    invoices: [],
    reversals: [],
    splitOutpayment: null,
    actions: { cancel: false, mailPaymentLink: false, expireLink: false },
  }) as PaymentJobDetail;

function Pane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <TransactionDetailPane params={{ transactionReference: 'TX0001' }} search="" capability="Transaction detail" />;
}
const render = () =>
  renderWithServices(
    <PaneScopeContext value={{ paneId: workspaceStore.panes[0]?.id ?? '' }}>
      <Pane />
    </PaneScopeContext>,
  );

describe('refunding from the transaction', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transaction.Read', 'Portal.PaymentJobs.Read', 'Portal.Payments.Refund'], paths: ['/transactions/TX0001'] });
  });

  it('opens the payment job’s refund dialog for this payment with Shift+R, and sends the refund where the payment lives', { timeout: 120_000 }, async () => {
    const api = fakeApi({ '/transactions/TX0001': () => detail({ refundable: 12.5 }), '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () => job() });
    (api.post as unknown as ReturnType<typeof vi.fn>).mockResolvedValue({
      message: 'Refund of £12.50 requested (Requested by the customer).',
      paymentJobReference: 'PJ0001',
      version: 4,
      refundId: 'TX0009',
    });
    const user = userEvent.setup();
    render();
    expect(await screen.findByRole('button', { name: 'Refund…' }, { timeout: 60_000 })).toBeTruthy();
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).toContain('refund'));
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('{Shift>}R{/Shift}');
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    // This payment (TX0001), not the job's first one: what is left of it, pre-filled.
    expect(within(dialog).getByText(/of payment TX0001 can be refunded/)).toBeTruthy();
    const amount = within(dialog).getByLabelText('Amount (GBP)') as HTMLInputElement;
    expect(amount.value).toBe('12.50');
    // The dialog selects its amount once open (typing replaces it); Enter there sends the refund.
    await waitFor(() => expect(document.activeElement).toBe(amount));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.post).toHaveBeenCalled());
    const [path, body, options] = (api.post as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [
      string,
      Record<string, unknown>,
      { headers: Record<string, string> },
    ];
    expect(path).toBe('/businesses/B1/merchants/M1/payment-jobs/PJ0001/payments/TX0001/actions/refund');
    expect(body).toMatchObject({ amount: 12.5, reason: 'requestedByCustomer', version: 3 });
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Refund payment' })).toBeNull());
  });

  it('offers nothing when the server does not (no permission there, or nothing left to refund)', { timeout: 120_000 }, async () => {
    const api = fakeApi({ '/transactions/TX0001': () => detail(), '/businesses/B1/merchants/M1/payment-jobs/PJ0001': () => job() });
    render();
    expect(await screen.findByRole('heading', { name: 'Transaction TX0001', level: 1 }, { timeout: 60_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund…' })).toBeNull();
    expect(workspaceStore.panes[0]?.capabilities ?? []).not.toContain('refund');
    expect(api.get.mock.calls.some(([path]) => String(path).includes('/payment-jobs/'))).toBe(false);
  });
});
