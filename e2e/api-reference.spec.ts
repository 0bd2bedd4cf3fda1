// The API reference against the real server in Chromium: any signed-in user (here a merchant's owner, no internal
// role) opens it from the palette, filters and walks the operations with the keyboard, expands one and reads its
// parameters and body schema; a deep link opens its operation; axe finds nothing serious.
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations, mod, signIn } from './support.ts';

test('a signed-in user opens the API reference from the palette and reads an operation, keyboard only', async ({ page }) => {
  await signIn(page, 'solo@demo.test', '/dashboard');
  await expect(page.getByRole('region', { name: /^Dashboard/ })).toBeVisible();
  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await input.fill('api reference');
  await expect(page.getByRole('option', { name: /^Open API reference/ })).toBeVisible();
  // Three letters or more are also looked up as records: Enter once the list has settled.
  await expect(page.getByText('Looking up records…')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/developers\/api$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  // The whole Portal API, generated from the contract.
  await expect(page.getByRole('status').filter({ hasText: /of \d+ operations/ })).toHaveText(/^(\d+) of \1 operations$/);

  const filter = page.getByRole('searchbox', { name: 'Filter operations' });
  await filter.fill('post beneficiaries');
  await expect(page.getByRole('status').filter({ hasText: /operations/ })).toHaveText(/^1 of \d+ operations$/);
  await filter.press('ArrowDown');
  const post = page.getByRole('button', { name: /^POST\s*\/businesses\/\{businessId\}\/beneficiaries/ });
  await expect(post).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(post).toHaveAttribute('aria-expanded', 'true');
  await expect(page).toHaveURL(/\/developers\/api\?operation=postBusinessesBeneficiaries$/);
  await expect(page.getByText('postBusinessesBeneficiaries', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Parameters' })).toContainText('businessId');
  await page.getByText('beneficiaryBody', { exact: true }).first().click();
  await expect(page.getByText('nameOnBankAccount', { exact: true })).toBeVisible();

  // j and k walk the operations once the filter is cleared.
  await filter.fill('');
  await filter.press('ArrowDown');
  const first = page.locator('button[data-operation-toggle]').first();
  await expect(first).toBeFocused();
  await page.keyboard.press('j');
  await expect(page.locator('button[data-operation-toggle]').nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(first).toBeFocused();

  await expectNoSeriousViolations(page);
});

test('a link to one operation opens it', async ({ page }) => {
  await signIn(page, 'solo@demo.test', '/developers/api?operation=getTransactions');
  await expect(page.getByRole('button', { name: /^GET\s*\/transactions\s/ })).toHaveAttribute('aria-expanded', 'true');
  // The #fragment form, in a page that is already signed in.
  await page.goto('/developers/api#getTransactions');
  const operation = page.getByRole('button', { name: /^GET\s*\/transactions\s/ });
  await expect(operation).toHaveAttribute('aria-expanded', 'true');
  await expect(operation).toBeFocused();
  await expect(page.getByText('getTransactions', { exact: true })).toBeVisible();
});
