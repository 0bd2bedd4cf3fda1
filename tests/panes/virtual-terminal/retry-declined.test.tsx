// A declined virtual-terminal order is tried again on its own payment job: 'Try again' sends the same card,
// 'Try another card' empties the card fields and the next charge ('Try this card for …') is another attempt; each
// with a fresh Idempotency-Key; a changed order is a new order again. The commands follow what the screen offers.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../commands/command.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { tryAgainCommand, tryAnotherCardCommand } from '../../../commands/virtual-terminal/retry-declined.ts';
import { VirtualTerminalPane } from '../../../panes/virtual-terminal/virtual-terminal-pane.tsx';
import type { VirtualTerminalSettings } from '../../../src/contract/virtual-terminal.ts';
import type { PaneCapability } from '../../../src/state/workspace-store.ts';
import { baseContext, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const base = '/businesses/B1/merchants/M1/configurations/C1/virtual-terminal';
const settings: VirtualTerminalSettings = {
  configurationId: 'C1',
  defaultCurrency: 'GBP',
  orderConfirmationEmails: false,
  savedCardsAllowed: true,
  savedCardLimit: 3,
  defaultOrderLineType: 'physicalItem',
  askShippingAddress: false,
  version: 4,
  currencies: ['GBP'],
  virtualTerminalMenuEnabled: true,
};
const answer = (result: 'paid' | 'declined', transactionReference: string, attempt?: number) => ({
  result,
  declineReason: result === 'declined' ? 'Insufficient funds' : null,
  paymentJobReference: 'PJ00000001',
  transactionReference,
  amount: 12.5,
  currency: 'GBP',
  maskedCardNumber: '400000******9995',
  savedCardId: null,
  confirmationEmailQueued: false,
  message: result,
  ...(attempt ? { attempt } : {}),
});

async function fillOrder(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Merchant reference' }), 'PHONE-77');
  await user.type(screen.getAllByRole('textbox', { name: 'Last name' })[0] as HTMLElement, 'Buyer');
  await user.selectOptions(screen.getAllByRole('combobox', { name: 'Country' })[0] as HTMLElement, 'GB');
  await user.type(screen.getByRole('textbox', { name: 'Line 1 description' }), 'Teapot');
  await user.type(screen.getByRole('textbox', { name: 'Line 1 unit price' }), '12.50');
  await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4000000000009995');
  await user.type(screen.getByRole('textbox', { name: 'Expiry (MM/YY)' }), '1230');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Ada Buyer');
}

describe('another attempt at a declined order', () => {
  beforeEach(() => {
    resetStores();
    sessionStorage.clear();
    signIn({ permissions: ['Portal.Moto.Create', 'Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
  });

  it('tries the same card, then another card, on the declined payment job, by keyboard', async () => {
    const api = fakeApi({
      [`${base}/settings`]: () => settings,
      '/enumerations/countries': () => ({ results: [{ code: 'GB', name: 'United Kingdom' }], numberOfResults: 1 }),
    });
    const posted: { path: string; body: Record<string, unknown>; key: string }[] = [];
    const replies = [answer('declined', 'TX1'), answer('declined', 'TX2', 2), answer('paid', 'TX3', 3)];
    api.post = (async (path: string, body: Record<string, unknown>, options: { headers: Record<string, string> }) => {
      posted.push({ path, body, key: options.headers['Idempotency-Key'] ?? '' });
      return replies[posted.length - 1];
    }) as never;
    renderWithServices(<VirtualTerminalPane params={{ configurationId: 'C1' }} search="" capability="Virtual terminal order entry" />);
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Merchant reference' }, { timeout: 15_000 });
    await fillOrder(user);
    await user.keyboard('{Control>}{Enter}{/Control}');
    const declined = (await screen.findByRole('heading', { name: 'Declined' })).closest('section') as HTMLElement;
    expect(posted[0]?.path).toBe(`${base}/orders`);
    expect(screen.queryByRole('button', { name: 'Charge again' })).toBeNull();

    // 'Try again': the same card on the same job.
    within(declined).getByRole('button', { name: 'Try again' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Declined (attempt 2)' });
    expect(posted[1]).toMatchObject({ path: `${base}/orders/PJ00000001/attempts`, body: { sameCard: true } });
    expect(posted[1]?.key).toBeTruthy();
    expect(posted[1]?.key).not.toBe(posted[0]?.key);

    // 'Try another card': the card fields empty, the number takes the focus, no saving on an attempt.
    (await screen.findByRole('button', { name: 'Try another card' })).focus();
    await user.keyboard('{Enter}');
    const cardNumber = screen.getByRole('textbox', { name: 'Card number' }) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(cardNumber));
    expect(cardNumber.value).toBe('');
    expect((screen.getByLabelText('CVC') as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('checkbox', { name: /Save/ })).toBeNull();
    await user.keyboard('4111111111111111');
    await user.type(screen.getByRole('textbox', { name: 'Expiry (MM/YY)' }), '1230');
    await user.type(screen.getByLabelText('CVC'), '321');
    expect(screen.getByRole('button', { name: 'Try this card for £12.50' })).toBeTruthy();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('heading', { name: 'Paid: £12.50 (attempt 3)' })).toBeTruthy();
    expect(posted[2]).toMatchObject({
      path: `${base}/orders/PJ00000001/attempts`,
      body: { card: { cardNumber: '4111111111111111', expiry: '12/30', cvc: '321', cardholderName: 'Ada Buyer' } },
    });
    expect(Object.keys(posted[2]?.body ?? {})).toEqual(['card']);
    expect(new Set(posted.map((post) => post.key)).size).toBe(3);
  });

  it('charges a changed order as a new order', async () => {
    const api = fakeApi({
      [`${base}/settings`]: () => settings,
      '/enumerations/countries': () => ({ results: [{ code: 'GB', name: 'United Kingdom' }], numberOfResults: 1 }),
    });
    const paths: string[] = [];
    api.post = (async (path: string) => {
      paths.push(path);
      return answer('declined', `TX${paths.length}`);
    }) as never;
    renderWithServices(<VirtualTerminalPane params={{ configurationId: 'C1' }} search="" capability="Virtual terminal order entry" />);
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Merchant reference' }, { timeout: 15_000 });
    await fillOrder(user);
    await user.keyboard('{Control>}{Enter}{/Control}');
    await screen.findByRole('heading', { name: 'Declined' });
    expect(screen.getByRole('button', { name: 'Try this card for £12.50' })).toBeTruthy();
    const price = screen.getByRole('textbox', { name: 'Line 1 unit price' });
    await user.clear(price);
    await user.type(price, '10');
    await user.click(screen.getByRole('button', { name: 'Charge £10.00' }));
    await waitFor(() => expect(paths).toEqual([`${base}/orders`, `${base}/orders`]));
  });

  it.each([
    [tryAgainCommand, ['retryDeclined'], true],
    [tryAgainCommand, [], false],
    [tryAnotherCardCommand, ['retryDeclined'], true],
    [tryAnotherCardCommand, ['submitOrder'], false],
  ] as const)('offers %s where the screen answers it', (command, capabilities, expected) => {
    const ctx: CommandContext = baseContext({
      permissions: ['Portal.Moto.Create'],
      focusedPane: { id: 'pane-1', capabilities: capabilities as unknown as readonly PaneCapability[] },
    });
    expect(isAvailable(command, ctx)).toBe(expected);
  });
});
