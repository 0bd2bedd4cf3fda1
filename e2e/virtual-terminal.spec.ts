// Virtual terminal journey against the real server in Chromium: vt@demo.test takes a two-line order for a
// stored customer with a new card, keyboard only, saving the card; then a second order with the saved card; both are
// in the payment jobs overview; axe finds nothing serious or critical on the order form.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseContextIfAsked, signIn } from './support.ts';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Keys the agent presses (characters typed and keys pressed; moving focus to a field counts as one Tab). */
let keystrokes = 0;
/** Focus a field the way Tab reaches it, then type into it. */
async function typeInto(page: Page, label: string | RegExp, text: string): Promise<void> {
  await page.getByLabel(label, { exact: typeof label === 'string' }).first().focus();
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
  let configurationId = /\/configurations\/([^/]+)\/virtual-terminal/.exec(page.url())?.[1] ?? '';
  expect(configurationId).not.toBe('');
  // The context may hold the merchant's web shop configuration (terminal switched off): the screen says so, and the
  // merchant's telephone-orders configuration is the one seeded just before it.
  const switchedOff = page.getByText(/The virtual terminal is switched off for this configuration/);
  await expect(switchedOff.or(page.getByLabel('Merchant reference'))).toBeVisible();
  if (await switchedOff.isVisible()) {
    configurationId = `CFG${String(Number(configurationId.slice(3)) - 1).padStart(5, '0')}`;
    await page.goto(`/configurations/${configurationId}/virtual-terminal`);
  }
  const started = Date.now();
  keystrokes = 0;
  const first = `E2E-${Date.now()}`;

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
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('heading', { name: 'Paid: £34.95' })).toBeVisible();
  const seconds = (Date.now() - started) / 1000;
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
  expect(await seriousViolations(page)).toEqual([]);

  // Both are in the payment jobs overview.
  await page.goto(`/configurations/${configurationId}/payments`);
  const grid = page.getByRole('grid', { name: 'Payment jobs' });
  await expect(grid.getByText(first, { exact: true })).toBeVisible();
  await expect(grid.getByText(second, { exact: true })).toBeVisible();
  // No full card number on any page shown.
  expect(await page.content()).not.toContain('4111111111111111');
});
