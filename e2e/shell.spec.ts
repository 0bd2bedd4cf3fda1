// The shell in a real browser against the real server and identity provider: sign-in keeps the deep link,
// menus and the palette follow the role, panes open side by side from the keyboard alone and survive a
// reload, the guard refuses what a role may not open, sign-out ends at the signed-out page, and the shell
// passes an axe scan.
import { expect, type Page, test } from '@playwright/test';
import { chooseContextIfAsked, expectNoSeriousViolations, signIn as signInThroughProvider } from './support.ts';

async function signIn(page: Page, email: string, path = '/dashboard'): Promise<void> {
  await signInThroughProvider(page, email, path);
  await expect(page.getByRole('banner')).toBeVisible();
}

async function menuLabels(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  const read = async () => (await menu.locator(':scope > ul > li > :is(a, button)').allInnerTexts()).map((label) => label.trim());
  // The areas' entries arrive with the user's permissions, after the first screen (the menu read 'Dashboard' alone
  // on a busy machine): read it once it holds more than one entry and has stayed the same for half a second.
  let labels = await read();
  for (let settled = 0, tries = 0; settled < 2 && tries < 60; tries += 1) {
    await page.waitForTimeout(250);
    const now = await read();
    settled = now.length > 1 && now.join('|') === labels.join('|') ? settled + 1 : 0;
    labels = now;
  }
  return labels;
}

async function paletteOptions(page: Page, query: string): Promise<string[]> {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await input.fill(query);
  await page.waitForTimeout(150);
  const titles = await page.getByRole('listbox').locator('.palette-item-title').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(input).toBeHidden();
  return titles.map((title) => title.split('\n')[0]?.trim() ?? '');
}

test('an internal admin signs in through a deep link with two panes and sees every area', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/users?panes=_,%2Ftransactions');
  await expect(page).toHaveURL(/\/users\?panes=_,%2Ftransactions$/);
  await expect(page.getByRole('region', { name: /^Users \(pane 1 of 2\)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ })).toBeVisible();

  const labels = await menuLabels(page);
  expect(labels).toEqual(
    expect.arrayContaining(['Dashboard', 'Transactions', 'Reporting', 'Configurations', 'Users', 'Billing', 'Watch list', 'Support', 'Partners']),
  );
  expect(labels.indexOf('Dashboard')).toBeLessThan(labels.indexOf('Transactions'));
  expect(labels.indexOf('Watch list')).toBeLessThan(labels.indexOf('Partners'));

  expect(await paletteOptions(page, 'billing')).toContain('Go to billing');
  expect(await paletteOptions(page, 'watch list')).toContain('Go to account watch list');

  await page.getByRole('button', { name: 'Help' }).click();
  await expect(page.getByRole('menuitem', { name: /Report bug/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /Give feedback/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
});

test('a virtual-terminal user gets the virtual terminal only, and the guard refuses the rest', async ({ page }) => {
  await signIn(page, 'vt@demo.test');
  await chooseContextIfAsked(page);
  const labels = await menuLabels(page);
  expect(labels).not.toContain('Users');
  expect(labels).not.toContain('Billing');
  expect(labels).not.toContain('Partners');
  // The transactions section holds the payment jobs (the role reads them), never the transactions list.
  if (labels.includes('Transactions')) {
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('button', { name: 'Transactions' }).click();
    const entries = await menu.locator('.side-menu-entries:not([hidden]) :is(a, button)').allInnerTexts();
    expect(entries.map((entry) => entry.trim())).toEqual(['Payment jobs']);
    await page.keyboard.press('Escape');
  }
  const options = await paletteOptions(page, 'go to');
  expect(options).not.toContain('Go to users');
  expect(options).not.toContain('Go to billing');
  expect(options).not.toContain('Go to transactions');

  await page.goto('/users');
  await expect(page.getByRole('alert').filter({ hasText: 'You do not have the correct permissions.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Visit the support center' })).toBeVisible();
});

test('a read-only internal user sees the watch list but not billing', async ({ page }) => {
  await signIn(page, 'readonly@demo.test', '/account-watch-list');
  await expect(page.getByRole('region', { name: /^Account watch list/ })).toBeVisible();
  const labels = await menuLabels(page);
  expect(labels).toContain('Watch list');
  expect(labels).not.toContain('Billing');
  expect(await paletteOptions(page, 'billing')).not.toContain('Go to billing');
});

test('panes open side by side from the keyboard alone, survive a reload, and sign-out ends the session', async ({ page }) => {
  await signIn(page, 'solo@demo.test');
  await chooseContextIfAsked(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('region', { name: /^Dashboard/ })).toBeVisible();

  // Split the view, then go to transactions in the new pane with the g t sequence.
  await page.locator('body').press('Control+Backslash');
  await expect(page.getByRole('region', { name: /\(pane 2 of 2\)/ })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page.getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ })).toBeVisible();
  await expect(page).toHaveURL(/\/transactions\?panes=%2Fdashboard,_$/);

  // Focus the first pane, then open the report queue beside it from the palette with Shift+Enter.
  await page.keyboard.press('Control+BracketLeft');
  await expect(page).toHaveURL(/\/dashboard\?panes=_,%2Ftransactions$/);
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Command palette' }).fill('report queue');
  await expect(page.getByRole('option').first()).toContainText('Go to my report queue');
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByRole('region', { name: /\(pane 3 of 3\)/ })).toBeVisible();
  // A new pane opens at the right end.
  await expect(page.getByRole('region', { name: /^My report queue \(pane 3 of 3\)/ })).toBeVisible();

  // Close the focused pane from the keyboard.
  await page.keyboard.press('Alt+KeyW');
  await expect(page.getByRole('region', { name: /\(pane 2 of 2\)/ })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('region', { name: /^Dashboard \(pane 1 of 2\)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ })).toBeVisible();

  // The shortcut help lists what works here, and filters.
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByText('Focus next pane')).toBeVisible();
  await page.keyboard.type('pane');
  // The list under the dialog is what counts: its 'open beside' command is a pane command too.
  await expect(help.getByRole('heading', { level: 3 })).toHaveText(['Workspace', 'Table']);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Going somewhere from the palette with nothing focused (as after a page load) leaves the keyboard in the pane
  // that went there.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Command palette' }).fill('report queue');
  await expect(page.getByRole('option').first()).toContainText('Go to my report queue');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: /^My report queue \(pane [12] of 2\)/ })).toBeFocused();

  // Sign out from the profile menu, confirm at the provider, land on the signed-out page.
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  const confirm = page.getByRole('button', { name: 'Sign out' });
  await confirm.click();
  await expect(page).toHaveURL(/\/signed-out$/);
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in again' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('portal.credentials'))).toBeNull();
});

test('the shell has no serious or critical accessibility violations', async ({ page }) => {
  await signIn(page, 'owner@demo.test', '/transactions');
  await expect(page.getByRole('region', { name: /^Transactions/ })).toBeVisible();
  await page.getByRole('button', { name: 'Reporting' }).click();
  await expectNoSeriousViolations(page);

  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: 'Command palette' })).toBeFocused();
  await expectNoSeriousViolations(page, { label: 'palette' });
});
