// The partners area against the real seeded server in Chromium, keyboard only: partner@demo.test opens
// its partner, its commission plan from the palette (rules and the commission earned per month), then one of its
// businesses in the partner's frame and a merchant of it, the address staying under /partners/{id}/….
// axe finds nothing serious or critical on the screens. A finance admin creates a commission plan from the palette,
// changes it with Shift+E and deletes it again (a plan that has not started), keyboard only. The partner schedules
// its transactions export over all its businesses, keeping the view's filter and sort, and deletes the schedule again.
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

async function runCommand(page: Page, typed: string, option: RegExp): Promise<void> {
  await page.keyboard.press(`${mod}+k`);
  await page.getByRole('combobox', { name: 'Command palette' }).fill(typed);
  await expect(page.getByRole('option', { name: option })).toBeVisible();
  await page.keyboard.press('Enter');
}

/**
 * Signs in at `path` from the keyboard and, on the context page it leads to (partner screens need a context), moves
 * into the businesses list and picks its first entry with Enter.
 */
async function signInAndPickFirstContext(page: Page, email: string, path: string): Promise<void> {
  await signIn(page, email, path, 'keyboard');
  // The screen asked for is kept in the address (its path, encoded: letters, digits and %2F only here).
  await expect(page).toHaveURL(new RegExp(`/context\\?route=${encodeURIComponent(path.split('?')[0] ?? path)}`));
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox', { name: /Businesses/ })).toBeFocused();
  await page.keyboard.press('Enter');
}

test('partner@demo.test opens its commission plan and a business in its frame, by keyboard', async ({ page }) => {
  // Partner screens need a context: the partner's own, without a business (the partner policy sets the partner).
  await signInAndPickFirstContext(page, 'partner@demo.test', '/partners/PRT0001');
  await expect(page.getByRole('option', { name: /Continue without business/, selected: true })).toBeVisible();
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/partners\/PRT0001$/);
  await expect(page.getByRole('heading', { name: 'Northbridge Payments Partners Ltd', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Tiered revenue share' })).toBeVisible();
  const businesses = page.getByRole('grid', { name: 'Businesses of the partner' });
  await expect(businesses.locator('tbody tr').first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // The commission plan, from the palette.
  await runCommand(page, 'commission plan', /^Open commission plan/);
  await expect(page).toHaveURL(/\/partners\/PRT0001\/commissions\/CP-PRT0001-2$/);
  await expect(page.getByRole('heading', { name: 'Tiered revenue share', level: 1 })).toBeVisible();
  const rules = page.getByRole('table', { name: /Rules of Tiered revenue share/ });
  await expect(rules.getByRole('rowheader', { name: /^American Express/ })).toBeVisible();
  await expect(rules.getByRole('cell', { name: 'MOTO (mail and telephone order)' })).toBeVisible();
  const months = page.getByRole('table', { name: /Commission earned per month/ });
  await expect(months.locator('tbody tr').first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // Back to the partner, then the first business in the partner's frame: j puts the cursor on it, Enter opens it.
  await page.goBack();
  await expect(page).toHaveURL(/\/partners\/PRT0001$/);
  await expect(businesses.locator('tbody tr').first()).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/partners\/PRT0001\/business\/[^/]+$/);
  await expect(page.getByRole('navigation', { name: 'Partner frame' })).toBeVisible();
  const merchants = page.getByRole('grid', { name: 'Merchants' });
  await expect(merchants.locator('tbody tr').first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // A merchant opens in the same frame.
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/partners\/PRT0001\/business\/[^/]+\/merchant\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("partner@demo.test schedules the export of all its businesses' transactions with the view's filter and sort, by keyboard", async ({ page }) => {
  await signInAndPickFirstContext(
    page,
    'partner@demo.test',
    '/partners/PRT0001/transactions?status=%5Beq%5Dpaid&OrderingField=amount&OrderingDirection=Descending',
  );
  await expect(page.getByRole('option', { name: /Continue without business/, selected: true })).toBeVisible();
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/partners\/PRT0001\/transactions\?.*OrderingField=amount/);
  await expect(page.getByRole('rowheader').first()).toBeVisible();

  await runCommand(page, 'schedule this export', /^Schedule this export/);
  const dialog = page.getByRole('dialog', { name: 'Schedule this export' });
  // Whose transactions: every business of the partner, counted and named.
  await expect(dialog).toContainText(/Transactions of the \d+ businesses of Northbridge Payments Partners Ltd with status paid\./);
  await expect(dialog).toContainText('Rows: sorted by amount, highest first.');
  await expectNoSeriousViolations(page);
  await page.keyboard.press(`${mod}+Enter`);
  await expect(dialog).toBeHidden();
  const description = 'Transactions, status paid, sorted by amount, highest first, daily at 06:00';
  await expect(page.getByText(`Scheduled: ${description}`, { exact: false }).first()).toBeVisible();

  // My report queue lists it in the partner's name; deleted again, nothing is left for other journeys.
  await page.goto('/reporting-overview');
  const row = page.getByRole('row').filter({ hasText: description });
  await expect(row).toContainText('Northbridge Payments Partners Ltd');
  await expectNoSeriousViolations(page);
  await row.getByRole('button', { name: /^Delete schedule/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The schedule has been deleted.').first()).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('billing@demo.test creates a commission plan from the palette, edits it and deletes it, by keyboard', async ({ page }) => {
  // An internal user works in a business's context: the first one listed will do.
  await signInAndPickFirstContext(page, 'billing@demo.test', '/partners/PRT0001');
  const apply = page.getByRole('button', { name: 'Apply' });
  await expect(apply).toBeEnabled();
  await apply.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/partners\/PRT0001$/);
  await expect(page.getByRole('heading', { name: 'Northbridge Payments Partners Ltd', level: 1 })).toBeVisible();

  await runCommand(page, 'new commission plan', /^New commission plan/);
  await expect(page).toHaveURL(/\/partners\/PRT0001\/commissions\/new$/);
  const form = page.getByRole('form', { name: 'New commission plan' });
  // The name field has the focus: the plan is typed without reaching for the mouse.
  await expect(form.getByRole('textbox', { name: /^Name/ })).toBeFocused();
  await page.keyboard.type('Launch share (journey)');
  const rule = form.getByRole('group', { name: 'Rule 1' });
  await rule.getByRole('textbox', { name: /^Description/ }).focus();
  await page.keyboard.type('Every fee: a fifth');
  await rule.getByRole('textbox', { name: 'Percentage of the fee (%)' }).focus();
  await page.keyboard.press(`${mod}+a`);
  await page.keyboard.type('20');
  await expectNoSeriousViolations(page);
  await page.keyboard.press(`${mod}+s`);
  await expect(page).toHaveURL(/\/partners\/PRT0001\/commissions\/CP-PRT0001-\d+$/);
  const created = page.url();
  await expect(page.getByRole('heading', { name: 'Launch share (journey)', level: 1 })).toBeVisible();
  await expect(page.getByText('Scheduled', { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page);

  // Shift+E edits it; Ctrl/Cmd+S saves under the plan's version.
  await page.keyboard.press('Shift+E');
  const name = page.getByRole('textbox', { name: /^Name/ });
  await expect(name).toBeFocused();
  await page.keyboard.press(`${mod}+a`);
  await page.keyboard.type('Launch share (edited)');
  await page.keyboard.press(`${mod}+s`);
  await expect(page.getByRole('heading', { name: 'Launch share (edited)', level: 1 })).toBeVisible();

  // Deleted from the palette after confirming; the partner no longer lists it.
  await runCommand(page, 'delete this commission plan', /^Delete this commission plan/);
  const confirm = page.getByRole('alertdialog', { name: 'Delete this commission plan?' });
  await expect(confirm).toBeVisible();
  await expectNoSeriousViolations(page);
  await confirm.getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/partners\/PRT0001$/);
  await expect(page.getByRole('link', { name: 'Launch share (edited)' })).toHaveCount(0);
  await page.goto(created);
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: 'The requested record was not found.' })).toBeVisible();
});
