// The partners area (issue 22) against the real seeded server in Chromium, keyboard only: partner@demo.test opens
// its partner, its commission plan from the palette (rules and the commission earned per month), then one of its
// businesses in the partner's frame and a merchant of it, the address staying under /partners/{id}/….
// axe finds nothing serious or critical on the screens.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn } from './support.ts';

async function noSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
}

async function runCommand(page: Page, typed: string, option: RegExp): Promise<void> {
  await page.keyboard.press(`${mod}+k`);
  await page.getByRole('combobox', { name: 'Command palette' }).fill(typed);
  await expect(page.getByRole('option', { name: option })).toBeVisible();
  await page.keyboard.press('Enter');
}

test('partner@demo.test opens its commission plan and a business in its frame, by keyboard', async ({ page }) => {
  await signIn(page, 'partner@demo.test', '/partners/PRT0001', 'keyboard');
  // Partner screens need a context: the partner's own, without a business (the partner policy sets the partner).
  await expect(page).toHaveURL(/\/context\?route=%2Fpartners%2FPRT0001/);
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox', { name: /Businesses/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: /Continue without business/, selected: true })).toBeVisible();
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/partners\/PRT0001$/);
  await expect(page.getByRole('heading', { name: 'Northbridge Payments Partners Ltd', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Tiered revenue share' })).toBeVisible();
  const businesses = page.getByRole('grid', { name: 'Businesses of the partner' });
  await expect(businesses.locator('tbody tr').first()).toBeVisible();
  await noSeriousViolations(page);

  // The commission plan, from the palette.
  await runCommand(page, 'commission plan', /^Open commission plan/);
  await expect(page).toHaveURL(/\/partners\/PRT0001\/commissions\/CP-PRT0001-2$/);
  await expect(page.getByRole('heading', { name: 'Tiered revenue share', level: 1 })).toBeVisible();
  const rules = page.getByRole('table', { name: /Rules of Tiered revenue share/ });
  await expect(rules.getByRole('rowheader', { name: /^American Express/ })).toBeVisible();
  await expect(rules.getByRole('cell', { name: 'MOTO (mail and telephone order)' })).toBeVisible();
  const months = page.getByRole('table', { name: /Commission earned per month/ });
  await expect(months.locator('tbody tr').first()).toBeVisible();
  await noSeriousViolations(page);

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
  await noSeriousViolations(page);

  // A merchant opens in the same frame.
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/partners\/PRT0001\/business\/[^/]+\/merchant\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await noSeriousViolations(page);
});
