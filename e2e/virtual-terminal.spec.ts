// Virtual terminal journey against the real server in Chromium: vt@demo.test takes a two-line order for a
// stored customer with a new card, keyboard only, saving the card; then a second order with the saved card; both are
// in the payment jobs overview; axe finds nothing serious or critical on the order form. And the user lands on a
// terminal that takes orders after signing in, and the palette's command opens one even from the web shop's
// configuration (the one the context takes for the merchant, terminal off).
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { chooseContextIfAsked, signIn, expectNoSeriousViolations } from './support.ts';

/** Keys the agent presses (characters typed and keys pressed; moving focus to a field counts as one Tab). */
let keystrokes = 0;
/** Focus a field the way Tab reaches it, then type into it. */
async function typeInto(page: Page, label: string | RegExp, text: string): Promise<void> {
  await page
    .getByLabel(label, { exact: typeof label === 'string' })
    .first()
    .focus();
  await page.keyboard.type(text);
  keystrokes += 1 + text.length;
}
async function fillIfEmpty(page: Page, label: string, text: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true }).first();
  if ((await field.inputValue()) === '') await typeInto(page, label, text);
}
async function pressOn(page: Page, name: string | RegExp, key = 'Enter', role: 'button' | 'radio' | 'checkbox' = 'button'): Promise<void> {
  await page.getByRole(role, { name }).first().focus();
  await page.keyboard.press(key);
  keystrokes += 2;
}

test('vt@demo.test takes a two-line order with a new card, then one with the saved card, keyboard only', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'vt@demo.test', '/', 'keyboard');
  await chooseContextIfAsked(page);
  // The palette's command, typed and run at once: an Enter that comes before the areas' commands waits for them.
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Go to virtual terminal');
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { name: 'Virtual terminal', level: 1 });
  await expect(heading).toBeVisible();
  const configurationId = /\/configurations\/([^/]+)\/virtual-terminal/.exec(page.url())?.[1] ?? '';
  expect(configurationId).not.toBe('');
  // The command opens a configuration whose terminal is on, never the web shop's that has it off.
  await expect(page.getByText(/The virtual terminal is switched off for this configuration/)).toHaveCount(0);
  const started = performance.now();
  keystrokes = 0;
  const first = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;

  await expect(page.getByLabel('Merchant reference')).toBeFocused();
  await page.keyboard.type(first);
  keystrokes += first.length;
  await typeInto(page, 'Find a stored customer', 'C-');
  await pressOn(page, /· C-/);
  await expect(page.getByText(/Stored customer:/)).toBeVisible();
  await fillIfEmpty(page, 'Email address', 'shopper@example.test');
  await fillIfEmpty(page, 'Last name', 'Shopper');
  const country = page.getByLabel('Country', { exact: true }).first();
  if ((await country.inputValue()) === '') {
    await country.focus();
    await page.keyboard.type('United Kingdom');
  }
  await typeInto(page, 'Line 1 description', 'Bouquet of roses');
  await typeInto(page, 'Line 1 unit price', '30.00');
  await pressOn(page, 'Add order line');
  await expect(page.getByLabel('Line 2 type')).toBeFocused();
  await page.keyboard.type('Shipping');
  keystrokes += 'Shipping'.length;
  await typeInto(page, 'Line 2 description', 'Same-day delivery');
  await typeInto(page, 'Line 2 unit price', '4.95');
  await expect(page.getByLabel('Order totals')).toContainText('£34.95');
  await typeInto(page, 'Card number', '4111111111111111');
  await expect(page.getByLabel('Card number')).toHaveValue('4111 1111 1111 1111');
  await typeInto(page, 'Expiry (MM/YY)', '1230');
  await typeInto(page, 'CVC', '123');
  await typeInto(page, 'Name on card', 'A Shopper');
  await pressOn(page, 'Save card for this customer', 'Space', 'checkbox');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('heading', { name: 'Paid: £34.95' })).toBeVisible();
  const seconds = (performance.now() - started) / 1000;
  console.log(`scripted two-line order: ${keystrokes + 1} keystrokes, ${seconds.toFixed(1)} s (axe scan included)`);

  // Second order: same customer, the saved card.
  await pressOn(page, 'New order, same customer');
  await expect(page.getByLabel('Merchant reference')).toBeFocused();
  const second = `${first}-2`;
  await page.keyboard.type(second);
  await pressOn(page, 'Saved card', 'Space', 'radio');
  await expect(page.getByRole('combobox', { name: 'Saved card' })).not.toHaveValue('');
  await typeInto(page, 'Line 1 description', 'Vase');
  await typeInto(page, 'Line 1 unit price', '12.00');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('heading', { name: 'Paid: £12.00' })).toBeVisible();
  await expectNoSeriousViolations(page);

  // Both are in the payment jobs overview.
  await page.goto(`/configurations/${configurationId}/payments`);
  const grid = page.getByRole('grid', { name: 'Payment jobs' });
  await expect(grid.getByText(first, { exact: true })).toBeVisible();
  await expect(grid.getByText(second, { exact: true })).toBeVisible();
  // No full card number on any page shown.
  expect(await page.content()).not.toContain('4111111111111111');
});

test('vt@demo.test lands on a terminal that takes orders, and the palette opens one from the web shop configuration too', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'vt@demo.test', '/', 'keyboard');
  await chooseContextIfAsked(page);
  // Landed on the terminal, never on a dashboard that only says what the user may not do.
  await expect(page).toHaveURL(/\/configurations\/[^/?]+\/virtual-terminal(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Virtual terminal', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Merchant reference')).toBeVisible();
  await expect(page.getByText('You do not have the correct permissions.')).toHaveCount(0);
  const landedOn = new URL(page.url()).pathname;
  await expectNoSeriousViolations(page);

  // The merchant applied again as a saved context would: the context takes its first configuration by name, the web shop.
  type Applied = {
    business?: { id: string; title: string };
    merchant?: { id: string; title: string };
    configuration?: { id: string | null; switches: { virtualTerminalMenuEnabled: boolean } };
  };
  const appliedNow = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('portal.context') ?? '{}') as unknown) as Promise<Applied>;
  const landed = await appliedNow();
  expect(landed.configuration?.switches.virtualTerminalMenuEnabled).toBe(true);
  const params = new URLSearchParams({ route: '/payment-jobs', business: JSON.stringify(landed.business), merchant: JSON.stringify(landed.merchant) });
  await page.goto(`/context/apply?${params.toString()}`);
  await expect(page).toHaveURL(/\/payment-jobs/);
  await expect.poll(async () => (await appliedNow()).configuration?.switches.virtualTerminalMenuEnabled).toBe(false);

  // Ctrl+K, 'Go to virtual terminal', Enter: the one configuration with the terminal on, not the applied web shop.
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Go to virtual terminal');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === landedOn);
  await expect(page.getByLabel('Merchant reference')).toBeVisible();
  await expect(page.getByText(/The virtual terminal is switched off for this configuration/)).toHaveCount(0);
  expect((await appliedNow()).configuration?.switches.virtualTerminalMenuEnabled).toBe(true);
});
