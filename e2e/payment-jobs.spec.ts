// Payment jobs journeys against the real server in Chromium: the owner refunds part of a payment and cancels an
// open job with the keyboard only (registry shortcuts, keyboard dialogs), with an axe scan of the detail; a user
// without payment permissions (external developer) is offered no action.
import { expect, test, type Page } from '@playwright/test';
import { signIn, expectNoSeriousViolations } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Payment jobs' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

/** Applies a merchant on the context page with the keyboard only. */
async function signInToMerchant(page: Page, email: string, merchant: RegExp): Promise<void> {
  await signIn(page, email, '/dashboard', 'keyboard');
  await expect(page).toHaveURL(/\/context\?route=%2Fdashboard/);
  // The listbox moves its cursor (aria-activedescendant) with the arrows; Enter chooses the option under it.
  const list = page.getByRole('listbox', { name: /Merchants/ });
  await list.focus();
  for (let step = 0; step < 8; step += 1) {
    const active = await list.getAttribute('aria-activedescendant');
    const label = active ? await page.locator(`[id="${active}"]`).textContent() : '';
    if (merchant.test(label ?? '')) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Apply' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Opens the payment jobs of the applied merchant (g j), filtered by status through the URL the filters write. */
async function openJobs(page: Page, status: string): Promise<void> {
  await blur(page);
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/\/payment-jobs$/);
  await page.goto(`${page.url()}?status=${encodeURIComponent(`[eq]${status}`)}`);
  await expect(rows(page).first()).toBeVisible();
}

test('owner@demo.test refunds part of a payment and cancels an open job, keyboard only', async ({ page }) => {
  await signInToMerchant(page, 'owner@demo.test', /Harbour & Finch Homeware Online/);

  // A paid job with something left to refund: the row cursor opens it with Enter.
  await openJobs(page, 'paid');
  let opened = false;
  for (let index = 0; index < 8 && !opened; index += 1) {
    await rows(page).nth(index).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
    if ((await page.getByRole('button', { name: 'Refund…' }).count()) > 0) opened = true;
    else await page.goBack();
  }
  expect(opened).toBe(true);
  await expectNoSeriousViolations(page);

  await blur(page);
  await page.keyboard.press('Shift+R');
  const refund = page.getByRole('dialog', { name: 'Refund payment' });
  const amount = refund.getByLabel(/^Amount/);
  await expect(amount).toBeFocused();
  const prefilled = Number(await amount.inputValue());
  expect(prefilled).toBeGreaterThan(0);
  const part = Math.max(0.01, Math.floor(prefilled * 50) / 100).toFixed(2);
  await amount.fill(part);
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Refund of .+ requested/)).toBeVisible();
  await expect(refund).toBeHidden();
  await page.keyboard.press('Shift+Digit2');
  await expect(page.getByRole('tab', { name: 'Payments', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('row').filter({ hasText: 'Requested' }).first()).toBeVisible();

  // An open job: Shift+K asks for the confirmation tick, Space ticks it, Enter cancels.
  await openJobs(page, 'pending');
  await rows(page).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
  await blur(page);
  await page.keyboard.press('Shift+K');
  const cancel = page.getByRole('dialog', { name: 'Cancel payment job' });
  await expect(cancel.getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Payment job PJ\w+ cancelled\./)).toBeVisible();
  await expect(page.locator('.payment-job-title .status-chip')).toHaveText('Cancelled');
  await expect(page.getByRole('button', { name: 'Cancel payment job…' })).toHaveCount(0);
});

test('developer@demo.test (no payment permissions) is offered no action', async ({ page }) => {
  await signInToMerchant(page, 'developer@demo.test', /./);
  await openJobs(page, 'paid');
  await rows(page).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Actions' }).getByRole('button')).toHaveCount(0);
  await blur(page);
  await page.keyboard.press('Shift+R');
  await expect(page.getByRole('dialog', { name: 'Refund payment' })).toHaveCount(0);
  await expectNoSeriousViolations(page);
});
