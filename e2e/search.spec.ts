// Record search in the palette, by keyboard against the real server: a reference prefix finds the
// transaction and Enter opens it; a field query's Enter opens the transactions overview with those filters applied
// (a link like any other view); invalid syntax is explained inline.
import { expect, test } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

test('admin@demo.test finds a transaction by a prefix of its reference and opens a field query as a filtered overview', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  const grid = page.getByRole('grid', { name: 'Transactions' });
  const firstReference = (await grid.locator('tbody tr[data-index] a.data-table-link').first().textContent())?.trim() ?? '';
  expect(firstReference.length).toBeGreaterThanOrEqual(8);

  // A prefix of 8 characters (the full reference is longer) finds it, under the Transactions heading.
  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await page.keyboard.type(firstReference.slice(0, 8));
  const found = page.getByRole('group', { name: 'Transactions' }).getByRole('option', { name: new RegExp(firstReference) });
  await expect(found).toBeVisible();
  await expect(found).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/transactions/${firstReference}$`));

  // Invalid syntax is explained where it is, not as a toast.
  await page.keyboard.press(`${mod}+k`);
  await expect(input).toBeFocused();
  await page.keyboard.type('status:payed ');
  await expect(page.getByRole('status').filter({ hasText: "status: 'payed' is not one of" })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectNoSeriousViolations(page);

  // A field query: Enter opens the overview with the filters in its address.
  await input.fill('');
  await page.keyboard.type('status:declined method:card');
  const overview = page.getByRole('group', { name: 'Overview' }).getByRole('option', { name: /Open transactions/ });
  await expect(overview).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/transactions\?.*status=%5Beq%5Ddeclined/);
  await expect(page).toHaveURL(/paymentmethod=%5Beq%5Dcard/);
  await expect(grid.getByRole('gridcell', { name: 'Declined' }).first()).toBeVisible();
  await expect(grid.getByRole('gridcell').filter({ hasText: /^Paid$/ })).toHaveCount(0);
});
