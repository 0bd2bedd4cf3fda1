// The payment jobs overview of a business, against the real server in Chromium, keyboard only: owner@demo.test applies
// their business (no merchant), opens the business's payment jobs (g j), the Open tab (t o), narrows them to the last
// seven days in the date dialog, opens the newest and cancels it, with an axe scan of every screen on the way. The
// keystrokes and the seconds from the applied context to the cancelled job are counted and printed.
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Payment jobs' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

/** dd/mm/yyyy digits as typed into an en-GB date field, `days` before the browser's today. */
async function typedDate(page: Page, daysAgo: number): Promise<string> {
  return page.evaluate((days) => {
    const date = new Date(Date.now() - days * 86_400_000);
    const two = (value: number) => String(value).padStart(2, '0');
    return `${two(date.getDate())}${two(date.getMonth() + 1)}${date.getFullYear()}`;
  }, daysAgo);
}

test('owner@demo.test finds the last week’s open payment jobs across the business and cancels one, keyboard only', async ({ page }) => {
  let keystrokes = 0;
  const press = async (key: string) => {
    keystrokes += 1;
    await page.keyboard.press(key);
  };
  const type = async (text: string) => {
    keystrokes += text.length;
    await page.keyboard.type(text);
  };
  /** Tab until `target` has the focus: each Tab counted. */
  const tabTo = async (target: ReturnType<Page['getByRole']>, most = 25) => {
    for (let step = 0; step < most; step += 1) {
      if (await target.evaluate((element) => element === document.activeElement)) return;
      await press('Tab');
    }
    await expect(target).toBeFocused();
  };

  await signIn(page, 'owner@demo.test', '/dashboard', 'keyboard');
  await expect(page).toHaveURL(/\/context\?route=%2Fdashboard/);
  await expect(page.getByRole('listbox', { name: /Merchants/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  const started = Date.now();
  // The owner's one business is chosen already; applying it without a merchant gives the business as the context.
  await press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/dashboard$/);

  // g j: the business's payment jobs (every merchant, every configuration).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await press('g');
  await press('j');
  await expect(page).toHaveURL(/\/payment-jobs(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment jobs' })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // t o: the Open tab (jobs the shopper can still pay).
  await press('t');
  await press('o');
  await expect(page.getByRole('group', { name: 'Payment job status' }).getByRole('button', { name: 'Open', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page).toHaveURL(/tab=%5Beq%5Dopen/);

  // Shift+D: the dates, from seven days ago to today, typed as dd/mm/yyyy.
  await press('Shift+D');
  const dates = page.getByRole('dialog', { name: 'Payment job dates' });
  await expect(dates).toBeVisible();
  await expectNoSeriousViolations(page);
  await tabTo(dates.getByLabel('From'));
  await type(await typedDate(page, 7));
  await tabTo(dates.getByLabel('To'));
  await type(await typedDate(page, 0));
  await tabTo(dates.getByRole('button', { name: 'Apply dates' }));
  await press('Enter');
  await expect(dates).toBeHidden();
  await expect(page).toHaveURL(/createdatetimeutc=/);
  await expect(rows(page).first()).toBeVisible();
  await expect(grid(page).getByText('Waiting for the shopper').first()).toBeVisible();
  await expect(grid(page).getByText(/^(Paid|Authorised, not captured|Cancelled|Expired)$/)).toHaveCount(0);
  await expectNoSeriousViolations(page);

  // Enter opens the cursor row (the newest open job); Shift+K asks for the tick, Space ticks it, Enter cancels.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Payment job PJ/ })).toBeVisible();
  await expect(page.locator('.payment-job-title .status-chip')).toHaveText('Waiting for the shopper');
  await expectNoSeriousViolations(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await press('Shift+K');
  const cancel = page.getByRole('dialog', { name: 'Cancel payment job' });
  await expect(cancel.getByRole('checkbox')).toBeFocused();
  await expectNoSeriousViolations(page);
  await press('Space');
  await press('Enter');
  await expect(page.getByText(/^Payment job PJ\w+ cancelled\./)).toBeVisible();
  await expect(page.locator('.payment-job-title .status-chip')).toHaveText('Cancelled');
  const seconds = (Date.now() - started) / 1000;

  console.log(`payment jobs overview journey: ${keystrokes} keystrokes, ${seconds.toFixed(1)} s from the context page to the cancelled job`);
});
