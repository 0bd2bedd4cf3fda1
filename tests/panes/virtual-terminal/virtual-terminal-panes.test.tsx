// The virtual terminal's screens against a fake Portal API: the order form's validation messages as typed (required
// fields, Luhn, expiry, amounts in the currency's decimals, date of birth, email required with confirmations on),
// live totals, quantity clamping, Enter that does not submit, Ctrl+Enter that does, the result panel, a duplicate
// reference asking first, the draft that keeps no card data; the settings form's save with the version.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualTerminalPane } from '../../../panes/virtual-terminal/virtual-terminal-pane.tsx';
import { VirtualTerminalSettingsPane } from '../../../panes/virtual-terminal/virtual-terminal-settings-pane.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import type { VirtualTerminalSettings } from '../../../src/contract/virtual-terminal.ts';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const base = '/businesses/B1/merchants/M1/configurations/C1/virtual-terminal';
const settings = (overrides: Partial<VirtualTerminalSettings> = {}): VirtualTerminalSettings => ({
  configurationId: 'C1',
  defaultCurrency: 'GBP',
  orderConfirmationEmails: false,
  savedCardsAllowed: true,
  savedCardLimit: 3,
  defaultOrderLineType: 'physicalItem',
  askShippingAddress: true,
  version: 4,
  currencies: ['GBP', 'JPY'],
  virtualTerminalMenuEnabled: true,
  ...overrides,
});
const answers = (overrides: Partial<VirtualTerminalSettings> = {}) => ({
  [`${base}/settings`]: () => settings(overrides),
  // as the server answers them: { results, numberOfResults }
  '/enumerations/countries': () => ({
    results: [
      { code: 'GB', name: 'United Kingdom' },
      { code: 'NL', name: 'Netherlands' },
    ],
    numberOfResults: 2,
  }),
  '/enumerations/order-line-types': () => ({
    results: [
      { value: 'physicalItem', name: 'Physical item' },
      { value: 'discount', name: 'Discount' },
      { value: 'shippingCost', name: 'Shipping cost' },
    ],
    numberOfResults: 3,
  }),
});
const render = () => renderWithServices(<VirtualTerminalPane params={{ configurationId: 'C1' }} search="" capability="Virtual terminal order entry" />);

async function fillValidOrder(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Merchant reference' }), 'PHONE-42');
  await user.type(screen.getAllByRole('textbox', { name: 'Last name' })[0] as HTMLElement, 'Buyer');
  await user.selectOptions(screen.getAllByRole('combobox', { name: 'Country' })[0] as HTMLElement, 'GB');
  await user.type(screen.getByRole('textbox', { name: 'Line 1 description' }), 'Teapot');
  await user.type(screen.getByRole('textbox', { name: 'Line 1 unit price' }), '12.50');
  await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4111111111111111');
  await user.type(screen.getByRole('textbox', { name: 'Expiry (MM/YY)' }), '1230');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Ada Buyer');
}

describe('the virtual terminal order form', () => {
  beforeEach(() => {
    resetStores();
    sessionStorage.clear();
  });

  it('shows every field’s message when charging an empty order, and sends nothing', async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    const api = fakeApi(answers());
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Charge/ }));
    for (const message of [
      'Merchant reference is required',
      'Last name or organisation is required',
      'Country is required',
      'Description is required',
      'Enter a price',
      'Card number is required',
      'Expiry date is required',
      'CVC is 3 or 4 digits',
      'Name on card is required',
    ]) {
      expect(screen.getByText(message)).toBeTruthy();
    }
    expect(api.post).not.toHaveBeenCalled();
    // focus goes to the first field in error
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Merchant reference' }));
  });

  it('checks the card (Luhn, brand, spacing, expiry), amounts in the currency’s decimals and the date of birth as typed', async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    fakeApi(answers());
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Charge/ }));
    const card = screen.getByRole('textbox', { name: 'Card number' }) as HTMLInputElement;
    await user.type(card, '4111111111111112');
    expect(card.value).toBe('4111 1111 1111 1112');
    expect(screen.getByText('Visa')).toBeTruthy();
    expect(screen.getByText('Card number is invalid')).toBeTruthy();
    await user.clear(card);
    await user.type(card, '5555555555554444');
    expect(screen.queryByText('Card number is invalid')).toBeNull();
    expect(screen.getByText('Mastercard')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Expiry (MM/YY)' }), '0120');
    expect(screen.getByText('The card has expired')).toBeTruthy();
    const price = screen.getByRole('textbox', { name: 'Line 1 unit price' });
    await user.type(price, '12.505');
    expect(screen.getByText('Enter a price with at most 2 decimals')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'JPY');
    expect(screen.getByText('JPY prices are whole numbers')).toBeTruthy();
    await user.clear(price);
    await user.type(price, '1000');
    expect(screen.queryByText('JPY prices are whole numbers')).toBeNull();
    expect(within(screen.getByLabelText('Order totals')).getByText('Order total').nextSibling?.textContent).toBe('JP¥1,000');
    await user.type(screen.getByRole('textbox', { name: 'Date of birth day' }), '32');
    await user.type(screen.getByRole('textbox', { name: 'Date of birth year' }), '84');
    expect(screen.getByText('Date of birth: day must be between 1 and 31')).toBeTruthy();
    expect(screen.getByText('Date of birth: month is required')).toBeTruthy();
    expect(screen.getByText('Date of birth: year must have at least 4 digits')).toBeTruthy();
  });

  it('adds up the lines live (incl./excl. VAT, discounts), clamps quantities and refuses pasted text', async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    fakeApi(answers());
    render();
    const user = userEvent.setup();
    const price = await screen.findByRole('textbox', { name: 'Line 1 unit price' });
    await user.type(price, '12.00');
    const quantity = screen.getByRole('spinbutton', { name: 'Line 1 quantity' }) as HTMLInputElement;
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Line 2 type' }), 'discount');
    await user.type(screen.getByRole('textbox', { name: 'Line 2 unit price' }), '6');
    const totals = screen.getByLabelText('Order totals');
    expect(within(totals as HTMLElement).getByText('Order total').nextSibling?.textContent).toBe('£30.00');
    expect(within(totals as HTMLElement).getByText('VAT').nextSibling?.textContent).toBe('£5.00');
    expect(within(totals as HTMLElement).getByText('Total excl. VAT').nextSibling?.textContent).toBe('£25.00');
    await user.clear(quantity);
    await user.type(quantity, '123456');
    expect(quantity.value).toBe('9999');
    await user.clear(quantity);
    quantity.focus();
    await user.paste('two');
    expect(quantity.value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Remove line 2' }));
    expect(screen.queryByRole('group', { name: 'Line 2' })).toBeNull();
  });

  it('needs an email address when order confirmations are on', async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    fakeApi(answers({ orderConfirmationEmails: true }));
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Charge/ }));
    expect(screen.getByText('With order confirmation emails on, every order needs a valid email address.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Email address' }), 'nope');
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
  });

  it('does not submit on Enter in a field, charges on Ctrl+Enter, shows the result and keeps no card in the draft', async () => {
    signIn({ permissions: ['Portal.Moto.Create', 'Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    const api = fakeApi(answers());
    const posted: [string, unknown, unknown][] = [];
    api.post = (async (path: string, body: unknown, options: unknown) => {
      posted.push([path, body, options]);
      return {
        result: 'declined',
        declineReason: 'Insufficient funds',
        paymentJobReference: 'PJ00000001',
        transactionReference: 'TX00000001',
        amount: 12.5,
        currency: 'GBP',
        maskedCardNumber: '411111******1111',
        savedCardId: null,
        confirmationEmailQueued: false,
        message: 'Declined: Insufficient funds.',
      };
    }) as never;
    render();
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Merchant reference' });
    await fillValidOrder(user);
    await user.type(screen.getByRole('textbox', { name: 'Name on card' }), '{Enter}');
    expect(posted).toEqual([]);
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posted).toHaveLength(1));
    const [path, body, options] = posted[0] as [string, Record<string, unknown>, { headers: Record<string, string> }];
    expect(path).toBe(`${base}/orders`);
    expect(body).toMatchObject({
      merchantReference: 'PHONE-42',
      currency: 'GBP',
      orderLines: [{ type: 'physicalItem', description: 'Teapot', quantity: 1, unitPrice: 12.5, priceIncludesVat: true, vatPercentage: 20 }],
      card: { cardNumber: '4111111111111111', expiry: '12/30', cvc: '123' },
    });
    expect(options.headers['Idempotency-Key']).toBeTruthy();
    const result = (await screen.findByRole('heading', { name: 'Declined' })).closest('section') as HTMLElement;
    expect(within(result).getByRole('heading', { name: 'Declined' })).toBeTruthy();
    expect(within(result).getByText(/Insufficient funds/)).toBeTruthy();
    expect(within(result).getByRole('link', { name: 'PJ00000001' }).getAttribute('href')).toBe('/configurations/C1/payments/PJ00000001');
    // a decline keeps the form filled
    expect((screen.getByRole('textbox', { name: 'Card number' }) as HTMLInputElement).value).toBe('4111 1111 1111 1111');
    const draft = sessionStorage.getItem('virtual-terminal-draft:C1') ?? '';
    expect(draft).toContain('PHONE-42');
    expect(draft).not.toContain('4111');
    expect(draft).not.toContain('"123"');
  });

  it('after a charge, moves the focus to the result and clears the card fields without showing errors under them', async () => {
    signIn({ permissions: ['Portal.Moto.Create', 'Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    const api = fakeApi(answers());
    api.post = (async () => ({
      result: 'paid',
      declineReason: null,
      paymentJobReference: 'PJ3',
      transactionReference: 'TX3',
      amount: 12.5,
      currency: 'GBP',
      maskedCardNumber: '411111******1111',
      savedCardId: null,
      confirmationEmailQueued: false,
      message: 'paid',
    })) as never;
    render();
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Merchant reference' });
    await fillValidOrder(user);
    await user.keyboard('{Control>}{Enter}{/Control}');
    const result = (await screen.findByRole('heading', { name: /^Paid/ })).closest('section') as HTMLElement;
    await waitFor(() => expect(document.activeElement).toBe(result));
    expect((screen.getByRole('textbox', { name: 'Card number' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('textbox', { name: 'Expiry (MM/YY)' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('CVC') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('Card number is required')).toBeNull();
    expect(screen.queryByText('Expiry date is required')).toBeNull();
  });

  it("labels an 'Excluding VAT' line with its amount excluding VAT", async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    fakeApi(answers());
    render();
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Line 1 unit price' }), '4.95');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Line 1 price is' }), 'excl');
    const vat = screen.getByRole('textbox', { name: 'Line 1 VAT %' });
    await user.clear(vat);
    await user.type(vat, '20');
    expect(screen.getByLabelText('Line 1 total').textContent).toBe('£5.94 (excl. £4.95, VAT £0.99)');
  });

  it('asks before charging a merchant reference used within 24 hours', async () => {
    signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
    const api = fakeApi(answers());
    const bodies: Record<string, unknown>[] = [];
    api.post = (async (_path: string, body: Record<string, unknown>) => {
      bodies.push(body);
      if (!body.confirmDuplicate)
        throw new ApiError({
          status: 409,
          messages: ['An order with merchant reference PHONE-42 was taken at 2026-11-25 10:00 UTC (paid). Confirm to charge again.'],
          kind: 'http',
          handled: false,
        });
      return {
        result: 'paid',
        declineReason: null,
        paymentJobReference: 'PJ2',
        transactionReference: 'TX2',
        amount: 12.5,
        currency: 'GBP',
        maskedCardNumber: '411111******1111',
        savedCardId: null,
        confirmationEmailQueued: false,
        message: 'paid',
      };
    }) as never;
    render();
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Merchant reference' });
    await fillValidOrder(user);
    await user.click(screen.getByRole('button', { name: /^Charge £12\.50$/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Charge this reference again?' });
    expect(within(dialog).getByText(/Confirm to charge again/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Charge again' }));
    expect(await screen.findByRole('heading', { name: 'Paid: £12.50' })).toBeTruthy();
    expect(bodies.map((body) => body.confirmDuplicate)).toEqual([false, true]);
  });
});

it('says so, and offers no form, when the configuration switches the terminal off', async () => {
  resetStores();
  signIn({ permissions: ['Portal.Moto.Create'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal'] });
  fakeApi(answers({ virtualTerminalMenuEnabled: false }));
  render();
  expect(await screen.findByText(/The virtual terminal is switched off for this configuration/, undefined)).toBeTruthy();
  expect(screen.queryByRole('form', { name: 'New order' })).toBeNull();
});

it('offers the merchant’s configurations that take telephone orders when this one does not, each applying itself as the context', async () => {
  resetStores();
  signIn({
    permissions: ['Portal.Moto.Create'],
    context: merchantContext,
    paths: ['/configurations/C1/virtual-terminal', '/configurations/C2/virtual-terminal'],
  });
  fakeApi({
    ...answers({ virtualTerminalMenuEnabled: false }),
    '/context/businesses/B1/merchants/M1/configurations': () => ({
      data: [
        { configurationId: 'C1', tradeName: 'Webshop', description: '', switches: { virtualTerminalMenuEnabled: false } },
        { configurationId: 'C2', tradeName: 'Telephone Orders', description: '', switches: { virtualTerminalMenuEnabled: true } },
        { configurationId: 'C3', tradeName: 'Pay by Link', description: '', switches: { virtualTerminalMenuEnabled: false } },
      ],
      totalCount: 3,
    }),
  });
  render();
  const offer = await screen.findByRole('navigation', { name: 'Configurations that take telephone orders' });
  const links = within(offer).getAllByRole('link');
  expect(links.map((link) => link.textContent)).toEqual(['Take orders on Telephone Orders (C2)']);
  const href = new URL(links[0]!.getAttribute('href') ?? '', 'http://portal.test');
  expect(href.pathname).toBe('/context/apply');
  expect(href.searchParams.get('route')).toBe('/configurations/C2/virtual-terminal');
  expect(JSON.parse(href.searchParams.get('configuration') ?? '{}')).toMatchObject({ id: 'C2', switches: { virtualTerminalMenuEnabled: true } });
  expect(JSON.parse(href.searchParams.get('merchant') ?? '{}')).toMatchObject({ id: 'M1' });
}, 15_000);

describe('the virtual terminal settings', () => {
  beforeEach(() => resetStores());

  it('saves with the version read, and is read only without Portal.Settings.Update', async () => {
    signIn({
      permissions: ['Portal.Settings.Read', 'Portal.Settings.Update'],
      context: merchantContext,
      paths: ['/configurations/C1/virtual-terminal/settings'],
    });
    const api = fakeApi({ [`${base}/settings`]: () => settings() });
    const puts: unknown[] = [];
    api.put = (async (path: string, body: unknown) => {
      puts.push([path, body]);
      return settings({ savedCardLimit: 7, version: 5 });
    }) as never;
    renderWithServices(<VirtualTerminalSettingsPane params={{ configurationId: 'C1' }} search="" capability="Virtual terminal settings" />);
    const user = userEvent.setup();
    const limit = await screen.findByRole('spinbutton', { name: 'Saved card limit per customer' });
    await user.clear(limit);
    expect(screen.getByText('Saved card limit is a whole number from 1 to 20')).toBeTruthy();
    await user.type(limit, '7');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(puts).toEqual([
        [
          `${base}/settings`,
          {
            defaultCurrency: 'GBP',
            orderConfirmationEmails: false,
            savedCardsAllowed: true,
            savedCardLimit: 7,
            defaultOrderLineType: 'physicalItem',
            askShippingAddress: true,
            version: 4,
          },
        ],
      ]),
    );
  });

  it('shows the settings read only without Portal.Settings.Update', async () => {
    signIn({ permissions: ['Portal.Settings.Read'], context: merchantContext, paths: ['/configurations/C1/virtual-terminal/settings'] });
    fakeApi({ [`${base}/settings`]: () => settings() });
    renderWithServices(<VirtualTerminalSettingsPane params={{ configurationId: 'C1' }} search="" capability="Virtual terminal settings" />);
    expect(((await screen.findByRole('spinbutton', { name: 'Saved card limit per customer' })) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
  });
});
