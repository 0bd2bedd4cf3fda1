// The formatter of schema problems for an errorReport: a card number, security code, expiry or password is never
// echoed (a wrong one neither), and a run of digits long enough to be a card number is hidden wherever it appears.
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { validationMessages, withoutCardNumbers } from '../../../server/http/errors.ts';
import { virtualTerminalOrderBody } from '../../../src/contract/virtual-terminal-schemas.ts';

const problemsOf = (schema: (input: unknown) => unknown, input: unknown) => {
  const result = schema(input);
  if (!(result instanceof type.errors)) throw new Error('expected the input to be refused');
  return validationMessages(result);
};

describe('validation messages', () => {
  it('names a secret field and what it must be, never the value sent', () => {
    const schema = type({
      card: { cardNumber: /^[0-9]{12,19}$/, cvc: /^[0-9]{3}$/, expiry: /^[0-9]{2}\/[0-9]{2}$/ },
      password: 'string >= 12',
      note: /^[a-z]+$/,
    });
    const messages = problemsOf(schema, { card: { cardNumber: '2223009876543214x', cvc: '9x9', expiry: 'ab/cd' }, password: 'x', note: 'Hello' });
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^card\.cardNumber must be /),
        expect.stringMatching(/^card\.cvc must be /),
        expect.stringMatching(/^card\.expiry must be /),
      ]),
    );
    const text = messages.join('\n');
    for (const secret of ['2223009876543214', '9x9', 'ab/cd']) expect(text).not.toContain(secret);
    // Other fields still say what was sent: it helps, and it is not card data.
    expect(text).toContain('(was "Hello")');
  });

  it("hides a run of digits that could be a card number in any message, the virtual terminal's included", () => {
    const messages = problemsOf(virtualTerminalOrderBody, {
      merchantReference: '\u00014111-1111-1111-1111',
      currency: 'GBP',
      billingIdentity: {},
      billingAddress: {},
      orderLines: [],
      card: { cardNumber: '4111 1111 1111 1111 1x', expiry: '12/30', cvc: '123', cardholderName: 'A', 5555555555554444: true },
    });
    const text = messages.join('\n');
    expect(text).toMatch(/merchantReference/);
    expect(text).toMatch(/card\.cardNumber must be/);
    for (const secret of ['4111', '5555555555554444', '555555555555']) expect(text).not.toContain(secret);
    expect(withoutCardNumbers('at most 9999999 (was 2026-11-01)')).toBe('at most 9999999 (was 2026-11-01)');
    expect(withoutCardNumbers('(was 2223 0098 7654 3214)')).toBe('(was [redacted])');
  });
});
