// Context selection journeys against the real server (npm start) in Chromium, with the demo accounts.
import { expect, test, type Page } from '@playwright/test';
import { signIn, mod } from './support.ts';

/** Opens a path signed out, signs in on the identity provider's page and waits to be back in the app. */

const appliedContext = (page: Page) => page.getByLabel('Applied context');

/** The label of the option the listbox's cursor is on (aria-activedescendant). */
async function cursorLabel(page: Page, listName: RegExp | string): Promise<string> {
  const list = page.getByRole('listbox', { name: listName });
  const id = await list.getAttribute('aria-activedescendant');
  return (await page.locator(`[id="${id}"] .context-option-label`).textContent()) ?? '';
}

test('solo@demo.test signs in and lands on the dashboard with no panel shown', async ({ page }) => {
  // Any sign of the panel in any document of the journey counts.
  await page.addInitScript(() => {
    const flag = () => {
      if (document.querySelector('.context-panel')) (window as unknown as { contextPanelSeen: boolean }).contextPanelSeen = true;
    };
    new MutationObserver(flag).observe(document, { subtree: true, childList: true });
  });
  await signIn(page, 'solo@demo.test', '/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(appliedContext(page)).toContainText('Little Wren Bakery');
  expect(await page.evaluate(() => (window as unknown as { contextPanelSeen?: boolean }).contextPanelSeen ?? false)).toBe(false);
});

test('owner@demo.test picks a merchant by keyboard only', async ({ page }) => {
  await signIn(page, 'owner@demo.test', '/dashboard');
  await expect(page).toHaveURL(/\/context\?route=%2Fdashboard/);
  const merchants = page.getByRole('listbox', { name: /Merchants/ });
  await expect(merchants).toBeVisible();
  // The page opens on the search box; from there on only keys.
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(merchants).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const chosen = await cursorLabel(page, /Merchants/);
  await page.keyboard.press('Enter');
  await expect(merchants.getByRole('option', { selected: true })).toContainText(chosen);
  await page.keyboard.press(`${mod}+Enter`);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(appliedContext(page)).toContainText('Harbour & Finch Homeware Ltd');
  await expect(appliedContext(page)).toContainText(chosen);
});

test('a recent context is re-applied from the palette', async ({ page }) => {
  await signIn(page, 'owner@demo.test', '/dashboard');
  const merchants = page.getByRole('listbox', { name: /Merchants/ });
  await expect(merchants).toBeVisible();
  const options = merchants.getByRole('option');
  const first = (await options.nth(0).locator('.context-option-label').textContent()) ?? '';
  const second = (await options.nth(1).locator('.context-option-label').textContent()) ?? '';
  // Apply the first merchant, then switch to the second: the first is now a recent context, not the applied one.
  await options.nth(0).dblclick();
  await expect(appliedContext(page)).toContainText(first);
  await page.getByRole('button', { name: 'Switch context' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select context' });
  await dialog
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: new RegExp(second) })
    .dblclick();
  await expect(appliedContext(page)).toContainText(second);

  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox');
  await expect(input).toBeFocused();
  await input.fill(first);
  const command = page.getByRole('option', { name: new RegExp(`Switch to .*${first}`) });
  await expect(command).toBeVisible();
  await command.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(appliedContext(page)).toContainText(first);
  await expect(appliedContext(page)).not.toContainText(second);
});

test('a deep link kept through sign-in still lands once the context is chosen', async ({ page }) => {
  // Payment jobs are per context (tickets are not: a ticket link opens without one).
  await signIn(page, 'owner@demo.test', '/payment-jobs?pagesize=10');
  await expect(page).toHaveURL(/\/context\?route=%2Fpayment-jobs%3Fpagesize%3D10/);
  const merchants = page.getByRole('listbox', { name: /Merchants/ });
  await merchants.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/payment-jobs\?pagesize=10$/);
  await expect(appliedContext(page)).toContainText('Harbour & Finch Homeware Ltd');
});
