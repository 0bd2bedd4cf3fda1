// What the refund and capture dialogs read from a typed amount: a decimal comma ('10,5' is 10.50, never 105),
// thousands separators, and messages that say what is wrong ('€10': no currency sign; '-5': no minus sign). The
// pre-filled amount is selected when the dialog opens, so typing 10 refunds 10, not '55.6410'.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PaymentDetail } from '../../../src/contract/payment-job-schemas.ts';
import { normaliseAmountText, parseAmountInput, RefundDialog } from '../../../panes/payment-jobs/payment-action-dialogs.tsx';

const payment = (overrides: Partial<PaymentDetail> = {}): PaymentDetail => ({
  paymentId: 'TX0001',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  maskedCardNumber: '411111******1111',
  currency: 'EUR',
  amount: 105.45,
  authorised: 105.45,
  captured: 105.45,
  refunded: 49.81,
  refundPending: 0,
  chargedBack: 0,
  refundable: 55.64,
  capturable: 0,
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  originatingIpAddress: null,
  declineReason: null,
  traceReference: 'TR0001',
  steps: [],
  captures: [],
  refunds: [],
  attributes: {},
  actions: { capture: false, refund: true, void: false },
  ...overrides,
});

describe('parseAmountInput', () => {
  const max = 100_000_00;
  it.each([
    ['10', 'EUR', 10],
    ['10,5', 'EUR', 10.5],
    ['10,50', 'EUR', 10.5],
    ['10.5', 'EUR', 10.5],
    ['1,234.56', 'EUR', 1234.56],
    ['1.234,56', 'EUR', 1234.56],
    ['1 234,56', 'EUR', 1234.56],
    ['1,234', 'EUR', 1234],
    ['1,250', 'JPY', 1250],
    ['0,01', 'GBP', 0.01],
    [' 12.00 ', 'GBP', 12],
  ])('reads %s (%s) as %d', (text, currency, amount) => {
    expect(parseAmountInput(text, currency, max, 'refunded')).toEqual({ amount });
  });

  it.each([
    ['€10', 'EUR', "Enter the amount as a number only, without '€': it is in EUR."],
    ['10 EUR', 'EUR', "Enter the amount as a number only, without 'EUR': it is in EUR."],
    ['-5', 'EUR', 'Enter the amount to be refunded without a minus sign: it must be above zero.'],
    ['', 'EUR', 'Enter an amount.'],
    ['0', 'EUR', 'Enter an amount above zero.'],
    ['12.505', 'EUR', 'Enter an amount with at most 2 decimals.'],
    ['1,23,4', 'EUR', 'Enter an amount such as 10.50, with at most 2 decimals.'],
    ['100.5', 'JPY', 'Enter a whole number of JPY.'],
  ])('says what is wrong with %s (%s)', (text, currency, problem) => {
    expect(parseAmountInput(text, currency, max, 'refunded')).toEqual({ problem });
  });

  it('never reads a decimal comma as thousands: 10,5 is not 105', () => {
    expect(normaliseAmountText('10,5', 2)).toBe('10.5');
    expect(parseAmountInput('10,5', 'EUR', 55_64, 'refunded')).toEqual({ amount: 10.5 });
    expect(parseAmountInput('105', 'EUR', 55_64, 'refunded')).toEqual({ problem: 'At most €55.64 can be refunded.' });
  });
});

describe('the refund dialog', () => {
  it('selects the pre-filled amount, so typing 10 asks for 10', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    render(<RefundDialog open payment={payment()} onClose={() => undefined} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    const amount = within(dialog).getByLabelText('Amount (EUR)') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(amount));
    expect(amount.value).toBe('55.64');
    expect([amount.selectionStart, amount.selectionEnd]).toEqual([0, 5]);
    await user.keyboard('10,5');
    expect(amount.value).toBe('10,5');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ amount: 10.5, reason: 'requestedByCustomer', note: null, notifyCustomer: false }));
  });

  it('says what is wrong with a currency sign or a minus', { timeout: 180_000 }, async () => {
    const user = userEvent.setup();
    render(<RefundDialog open payment={payment()} onClose={() => undefined} onSubmit={async () => undefined} />);
    const amount = (await screen.findByLabelText('Amount (EUR)')) as HTMLInputElement;
    await user.clear(amount);
    await user.type(amount, '€10');
    expect(screen.getByText("Enter the amount as a number only, without '€': it is in EUR.")).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '-5');
    expect(screen.getByText('Enter the amount to be refunded without a minus sign: it must be above zero.')).toBeTruthy();
  });
});
