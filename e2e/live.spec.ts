// Live panes across browsers: a refund made in one browser shows in the same payment job open in another within
// 5 seconds, without a reload (the events stream tells the second tab that the job changed; it refetches). The
// second pane keeps its place: the tab it was on stays selected.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Payment jobs' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

async function signInToMerchant(page: Page, email: string, merchant: RegExp): Promise<void> {
  await signIn(page, email, '/dashboard');
  await expect(page).toHaveURL(/\/context\?route=%2Fdashboard/);
  await page.getByRole('option', { name: merchant }).first().click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test('a refund in one browser appears in the payment job open in another within 5 seconds', async ({ browser }) => {
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signInToMerchant(first, 'owner@demo.test', /Harbour & Finch Homeware Online/);
  await signInToMerchant(second, 'owner@demo.test', /Harbour & Finch Homeware Online/);

  // The first browser finds a paid job with something left to refund.
  await blur(first);
  await first.keyboard.press('g');
  await first.keyboard.press('j');
  await expect(first).toHaveURL(/\/payment-jobs$/);
  await first.goto(`${first.url()}?status=${encodeURIComponent('[eq]paid')}`);
  await expect(rows(first).first()).toBeVisible();
  let opened = false;
  for (let index = 0; index < 8 && !opened; index += 1) {
    await rows(first).nth(index).focus();
    await first.keyboard.press('Enter');
    await expect(first.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
    if ((await first.getByRole('button', { name: 'Refund…' }).count()) > 0) opened = true;
    else await first.goBack();
  }
  expect(opened).toBe(true);

  // The second browser opens the same job by its address, on its Payments tab.
  await second.goto(first.url());
  await expect(second.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
  await blur(second);
  await second.keyboard.press('Shift+Digit2');
  const paymentsTab = second.getByRole('tab', { name: 'Payments', exact: true });
  await expect(paymentsTab).toHaveAttribute('aria-selected', 'true');
  const requested = second.getByRole('row').filter({ hasText: 'Requested' });
  const before = await requested.count();
  const activityBefore = await second.getByText(/Refund/).count();

  await blur(first);
  await first.keyboard.press('Shift+R');
  const refund = first.getByRole('dialog', { name: 'Refund payment' });
  const amount = refund.getByLabel(/^Amount/);
  await expect(amount).toBeFocused();
  await amount.fill('0.01');
  await first.keyboard.press('Enter');
  await expect(first.getByText(/^Refund of .+ requested/)).toBeVisible();
  const refunded = Date.now();

  // No reload in the second browser: the row arrives by itself, and the pane stays on its tab.
  await expect(requested).toHaveCount(before + 1, { timeout: 5000 });
  const delay = Date.now() - refunded;
  console.log(`live refund: shown in the other browser ${delay} ms after the first browser's confirmation`);
  expect(await second.getByText(/Refund/).count()).toBeGreaterThan(activityBefore);
  await expect(paymentsTab).toHaveAttribute('aria-selected', 'true');
  await first.context().close();
  await second.context().close();
});
