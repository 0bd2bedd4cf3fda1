// axe over the screens people open all day, as the roles that open them, against the real seeded server: an internal
// admin's context-free screens (transactions, users, notifications with read and unread rows, billing, the watch list,
// screening alerts, the outbox's list, internal accounts, the report queue, the API reference, the profile) and a business
// owner's screens in a business and merchant (dashboard, configurations, tickets, users, notifications, and from the
// palette the business, the merchant, the pricing plan and the merchant accounts), with the first record of each list
// opened. Each screen is scanned once its figures have arrived; a serious or critical violation
// fails the journey with the screen's address and the rule.
import { expect, type Page, test } from '@playwright/test';
import { mod, seriousViolations, signIn } from './support.ts';

/** The screen's serious and critical violations, each as 'path rule: help (elements)', once its heading is shown. */
async function violationsOf(page: Page): Promise<string[]> {
  await expect(page.locator('main h1, [role="main"] h1').first()).toBeVisible();
  // Lists and figures load after the heading: seriousViolations scans once nothing on the screen says it is busy.
  return seriousViolations(page);
}

/** Opens the first record the list links to, if it has one, and scans it too. */
async function scanFirstRecord(page: Page, found: string[]): Promise<void> {
  const link = page.locator('main [role="rowheader"] a, main tbody a').first();
  if ((await link.count()) === 0) return;
  await link.click();
  await page.waitForURL((url) => url.pathname.split('/').length > 2);
  found.push(...(await violationsOf(page)));
}

test("an internal admin's context-free screens and their first records have no serious or critical violations", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'admin@demo.test', '/transactions');
  await expect(page).toHaveURL(/\/transactions/);
  const found: string[] = [];
  for (const path of [
    '/transactions',
    '/users',
    '/notifications',
    '/billing',
    '/account-watch-list',
    '/screening-alerts',
    '/beneficiary-approvals',
    '/outbox',
    '/reporting/internal-accounts',
    '/reporting-overview',
    '/developers/api',
    '/profile',
  ]) {
    await page.goto(path);
    found.push(...(await violationsOf(page)));
    // Not an outbox message: axe cannot run inside its fully sandboxed frame and waits for it (e2e/outbox.spec.ts
    // scans it with the plain text shown).
    if (['/transactions', '/users', '/notifications', '/account-watch-list'].includes(path)) await scanFirstRecord(page, found);
  }
  expect(found).toEqual([]);
});

test("a business owner's screens in a business and merchant have no serious or critical violations", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'owner@demo.test', '/context?route=%2Fdashboard', 'keyboard');
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  // The business, then its first merchant, applied from the keyboard.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/dashboard/);
  const found: string[] = [];
  for (const path of ['/dashboard', '/configurations', '/tickets', '/users', '/notifications', '/transactions']) {
    await page.goto(path);
    found.push(...(await violationsOf(page)));
    if (['/configurations', '/tickets', '/transactions'].includes(path)) await scanFirstRecord(page, found);
  }
  // The business's own screens, whose addresses name the context: opened as a person does, from the palette.
  for (const command of ['Go to business details', 'Go to merchant details', 'Go to pricing plan', 'Go to merchant accounts']) {
    await page.keyboard.press(`${mod}+k`);
    await page.getByRole('combobox', { name: 'Command palette' }).fill(command);
    await expect(page.getByRole('option', { name: new RegExp(`^${command}`) }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/business\/\d+/);
    found.push(...(await violationsOf(page)));
  }
  expect(found).toEqual([]);
});

test("a business owner's reporting account screens (account groups, statements, transfers, batches) have no serious or critical violations", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'owner@demo.test', '/context?route=%2Fdashboard', 'keyboard');
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/dashboard/);
  const found: string[] = [];
  // Statements of the account groups, the cost statement and the batch report (with its first batch opened).
  for (const path of [
    '/reporting/trading-account',
    '/reporting/reserve-account',
    '/reporting/remittance-account',
    '/reporting/cost-statement',
    '/reporting/batch-report',
  ]) {
    await page.goto(path);
    found.push(...(await violationsOf(page)));
    if (path === '/reporting/batch-report') await scanFirstRecord(page, found);
  }
  // The merchant's and the business's account overviews, their first account and (business accounts) its first transfer.
  for (const command of ['Go to merchant accounts', 'Go to business accounts']) {
    await page.keyboard.press(`${mod}+k`);
    await page.getByRole('combobox', { name: 'Command palette' }).fill(command);
    await expect(page.getByRole('option', { name: new RegExp(`^${command}`) }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await page.waitForURL(/accounts-overview/);
    found.push(...(await violationsOf(page)));
    await scanFirstRecord(page, found);
    if (command === 'Go to business accounts') {
      const transfer = page.locator('main a[href*="/transfers/"]').first();
      if ((await transfer.count()) > 0) {
        await transfer.click();
        await page.waitForURL(/\/transfers\//);
        found.push(...(await violationsOf(page)));
      }
    }
  }
  expect(found).toEqual([]);
});
