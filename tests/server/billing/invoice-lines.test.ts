// Invoice lines name payment methods as every screen does ('PayPal', 'Klarna Slice It'), not as code spells them
// ('pay pal', 'klarna slice it'): the line's description is what the invoice screen and its PDF print.
import { describe, expect, it } from 'vitest';
import { feeLine } from '../../../server/billing/billing-run.ts';

describe('invoice fee lines', () => {
  it.each([
    ['payPal', 'Transaction fees, PayPal'],
    ['klarnaSliceIt', 'Transaction fees, Klarna Slice It'],
    ['googlePay', 'Transaction fees, Google Pay'],
    ['ideal', 'Transaction fees, iDEAL'],
    ['card', 'Transaction fees, Card'],
  ])('names %s by its proper name', (method, description) => {
    expect(feeLine('M1', 'Alpha Online', method, 3, 30_000, 828)).toMatchObject({ description, paymentMethod: method, amountMinor: 828 });
  });
});
