// The next order after a result: 'New order, same customer' keeps the customer and offers the card the last order
// saved or used first; 'New order' starts clean.
import { describe, expect, it } from 'vitest';
import { emptyOrder, nextOrder } from '../../../panes/virtual-terminal/order-form.ts';

const settings = { defaultCurrency: 'GBP', currencies: ['GBP', 'EUR'], defaultOrderLineType: 'physicalItem' };

describe('nextOrder', () => {
  const last = {
    ...emptyOrder(settings),
    currency: 'EUR',
    customerId: 'CU1',
    customerLabel: 'Ada Buyer',
    emailAddress: 'ada@example.com',
    merchantReference: 'PHONE-1',
    savedCardId: 'SC-OLD',
  };

  it('keeps the customer and offers the card the last order saved', () => {
    const next = nextOrder(last, settings, true, 'SC-NEW');
    expect(next).toMatchObject({
      customerId: 'CU1',
      customerLabel: 'Ada Buyer',
      emailAddress: 'ada@example.com',
      currency: 'EUR',
      savedCardId: 'SC-NEW',
      merchantReference: '',
    });
  });

  it('offers no card when the last order saved none, and starts clean for a new customer', () => {
    expect(nextOrder(last, settings, true).savedCardId).toBe('');
    expect(nextOrder(last, settings, false, 'SC-NEW')).toMatchObject({
      customerId: null,
      customerLabel: '',
      emailAddress: '',
      currency: 'GBP',
      savedCardId: '',
    });
  });
});
