// A declined telephone order tried again, keyboard only: vt@demo.test charges a declining test card, presses 'Try
// again' (declined again), then 'Try another card' and pays; the order stays ONE payment job whose Payments tab
// lists the three attempts. axe finds nothing serious or critical on the declined and paid result panels.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { chooseContextIfAsked, mod, signIn, expectNoSeriousViolations } from './support.ts';

/** Focus a field the way Tab reaches it, then type into it. */
async function typeInto(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).first().focus();
  await page.keyboard.type(text);
}
async function press(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name }).first().focus();
  await page.keyboard.press('Enter');
}
const transactionOf = async (page: Page) => /transaction (TX[0-9A-F]+)/.exec((await page.locator('.vt-result').textContent()) ?? '')?.[1] ?? '';

test('vt@demo.test tries a declined order again on the same payment job, then with another card, keyboard only', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'vt@demo.test', '/', 'keyboard');
  await chooseContextIfAsked(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await page.keyboard.press(`${mod}+k`);
  await page.keyboard.type('Go to virtual terminal');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Virtual terminal', level: 1 })).toBeVisible();
  let configurationId = /\/configurations\/([^/]+)\/virtual-terminal/.exec(page.url())?.[1] ?? '';
  const switchedOff = page.getByText(/The virtual terminal is switched off for this configuration/);
  await expect(switchedOff.or(page.getByLabel('Merchant reference'))).toBeVisible();
  if (await switchedOff.isVisible()) {
    // The screen links the merchant's configurations that take telephone orders: the first, by keyboard.
    await page.getByRole('navigation', { name: 'Configurations that take telephone orders' }).getByRole('link').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Merchant reference')).toBeVisible();
    configurationId = /\/configurations\/([^/]+)\/virtual-terminal/.exec(page.url())?.[1] ?? '';
  }
  expect(configurationId).not.toBe('');

  const reference = `E2E-RETRY-${randomUUID().slice(0, 8).toUpperCase()}`;
  await expect(page.getByLabel('Merchant reference')).toBeFocused();
  await page.keyboard.type(reference);
  await typeInto(page, 'Email address', 'retry@example.test');
  await typeInto(page, 'Last name', 'Retry');
  await page.getByLabel('Country', { exact: true }).first().focus();
  await page.keyboard.type('United Kingdom');
  await typeInto(page, 'Line 1 description', 'Flowers');
  await typeInto(page, 'Line 1 unit price', '21.00');
  await typeInto(page, 'Card number', '4000000000009995');
  await typeInto(page, 'Expiry (MM/YY)', '1230');
  await typeInto(page, 'CVC', '123');
  await typeInto(page, 'Name on card', 'R Retry');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('heading', { name: 'Declined', exact: true })).toBeVisible();
  const jobReference = (await page.locator('.vt-result a').first().textContent()) ?? '';
  expect(jobReference).toMatch(/^PJ/);
  const attempts = [await transactionOf(page)];
  await expect(page.getByRole('button', { name: 'Charge again' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  // 'Try again': the same card, declined again, on the same job.
  await press(page, 'Try again');
  await expect(page.getByRole('heading', { name: 'Declined (attempt 2)' })).toBeVisible();
  await expect(page.locator('.vt-result a').first()).toHaveText(jobReference);
  attempts.push(await transactionOf(page));

  // 'Try another card': the number field takes the focus; the charge is the order's third attempt.
  await press(page, 'Try another card');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type('4111111111111111');
  await typeInto(page, 'Expiry (MM/YY)', '1230');
  await typeInto(page, 'CVC', '321');
  await expect(page.getByRole('button', { name: 'Try this card for £21.00' })).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('heading', { name: 'Paid: £21.00 (attempt 3)' })).toBeVisible();
  await expect(page.locator('.vt-result a').first()).toHaveText(jobReference);
  attempts.push(await transactionOf(page));
  expect(new Set(attempts).size).toBe(3);
  await expectNoSeriousViolations(page);

  // One payment job: its Payments tab lists the three attempts (opened beside: the order form stays).
  await press(page, 'Open payment job beside');
  await expect(page.getByRole('heading', { name: new RegExp(jobReference) }).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Payments', exact: true }).focus();
  await page.keyboard.press('Enter');
  for (const transaction of attempts) await expect(page.getByText(transaction).first()).toBeVisible();
  expect(await page.content()).not.toContain('4111111111111111');
});
