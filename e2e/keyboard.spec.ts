// Keyboard and focus, tabs and context, in Chromium against the real server: Back from a detail puts the
// focus on the list's row; j / k past the end of a page turn it; ] / [ turn pages; Esc on a record goes back to its
// list and j / k step through its records; Ctrl+Enter submits a dialog's form; two tabs share their activity and
// their context, and sign out together; the side menu collapses with Ctrl+B for the session; a filter's values and the
// date presets are listboxes (arrows, Space, Enter); axe finds nothing serious on the way.
import { expect, type Page, test } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Transactions' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');
const pages = (page: Page) => page.getByRole('navigation', { name: 'Transaction pages' });
const reference = async (page: Page, index: number) => ((await rows(page).nth(index).getByRole('rowheader').textContent()) ?? '').trim();

/** A transaction's or a refund's heading (a refund reads as a refund; which the newest rows are depends on the hour). */
const recordHeading = (page: Page, reference: string) => page.getByRole('heading', { name: new RegExp(`^(Transaction|Refund) ${reference}$`) });

// Known defect: after Back, the focus is on the list's row left but the table's cursor
// (its roving tab stop) is sometimes elsewhere, and j on the record then does not open the list's next record. By hand
// (and in this journey with pauses) it works; in this journey's pace it fails in 3 of 4 runs since the areas' merge.
test('Back, Esc and j / k on a record keep the list and its cursor row, by keyboard', async ({ page }) => {
  // Declined iDEAL payments: records with no linked rows of their own, so j on the record is the list's, whatever the
  // hour's newest transactions are (a refund's detail lists its payment, a declined card payment the shopper retried
  // lists its retry, and there j moves in that list; the seed's retries are card payments).
  await signIn(page, 'admin@demo.test', '/transactions?kind=%5Beq%5Dpayment&status=%5Beq%5Ddeclined&paymentmethod=%5Beq%5Dideal', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  const third = await reference(page, 2);
  const fourth = await reference(page, 3);

  // A screen opened by its address has the keyboard in its pane.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-pane-id]') !== null)).toBe(true);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(rows(page).nth(2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(recordHeading(page, third)).toBeVisible();

  // Back: the list again, its cursor and the focus on the row left.
  await page.goBack();
  await expect(rows(page).nth(2)).toBeFocused();
  // The cursor row holds the roving tab stop (aria-selected says picked: the overview takes a selection).
  await expect(rows(page).nth(2)).toHaveAttribute('tabindex', '0');

  // j on the record opens the list's next record; Esc goes back to the list, on that record's row. (The record is read
  // first, as a person would: its linked rows say whether j is the list's or the record's own list's.)
  await page.keyboard.press('Enter');
  await expect(recordHeading(page, third)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Linked transactions' })).toContainText('No linked transactions.');
  await page.keyboard.press('j');
  await expect(recordHeading(page, fourth)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rows(page).nth(3)).toBeFocused();
  await expectNoSeriousViolations(page);
});

test('j past the last row turns the page, k before the first turns it back; ] and [ turn pages', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions?pagenumber=1&pagesize=10', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  await expect(pages(page)).toContainText(/1–10 of/);
  const eleventh = page.getByRole('navigation', { name: 'Transaction pages' });
  await rows(page).first().focus();
  await page.keyboard.press('End');
  await expect(rows(page).nth(9)).toBeFocused();
  await page.keyboard.press('j');
  await expect(eleventh).toContainText(/11–20 of/);
  await expect(rows(page).nth(0)).toBeFocused();
  await page.keyboard.press('k');
  await expect(pages(page)).toContainText(/1–10 of/);
  await expect(rows(page).nth(9)).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(pages(page)).toContainText(/11–20 of/);
  await page.keyboard.press(']');
  await expect(pages(page)).toContainText(/21–30 of/);
  await page.keyboard.press('[');
  await expect(pages(page)).toContainText(/11–20 of/);

  // The ? sheet lists the list's keys.
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByText('Next row', { exact: true })).toBeVisible();
  await expect(help.getByText('Next page', { exact: true })).toBeVisible();
  await expect(help.getByText('Last row; on the last row, the next page')).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
});

test('a dialog opens on its first field, not ×, and Ctrl+Enter submits it', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions?channel=%5Beq%5Dchp&status=%5Beq%5Dpaid', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  await page.keyboard.press('Shift+X');
  const dialog = page.getByRole('dialog', { name: 'Export transactions' });
  await expect(dialog.getByRole('status')).toContainText(/transactions? will be exported/);
  await expect(dialog.getByRole('button', { name: 'Close' })).not.toBeFocused();
  await expect(dialog.getByRole('radio', { name: /Excel/ })).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Your report has been queued.')).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('the side menu collapses with Ctrl+B for the session, keeping the focus; `[` still turns the page', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions?pagenumber=2&pagesize=10', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const toggle = menu.getByRole('button', { name: 'Side menu' });
  await menu.getByRole('button', { name: 'Transactions' }).focus();
  await page.keyboard.press(`${mod}+b`);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await expect(menu.getByRole('button', { name: 'Transactions' })).toBeHidden();
  // The panes have the room: the menu is a rail.
  expect((await menu.boundingBox())?.width ?? 999).toBeLessThan(60);
  // Nothing scrolls sideways with the rail either.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await expectNoSeriousViolations(page);

  // A reload keeps it collapsed (the tab's session).
  await page.reload();
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Side menu' })).toHaveAttribute('aria-expanded', 'false');

  // From the list, Ctrl+B leaves the focus on the row; `[` is the previous page, not the menu.
  await rows(page).first().focus();
  await page.keyboard.press(`${mod}+b`);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(rows(page).first()).toBeFocused();
  await page.keyboard.press('[');
  await expect(pages(page)).toContainText(/1–10 of/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByText('Collapse or expand the side menu')).toBeVisible();
  await page.keyboard.press('Escape');
});

test('Escape clears the search, then leaves it for the list; j / k work from the filter bar and g sequences after Escape', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search reference, payment job or customer email' });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('jk');
  // Letters typed in the field are text, not row moves.
  await expect(search).toHaveValue('jk');
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(search).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(rows(page).first()).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows(page).nth(1)).toBeFocused();

  // From the bar's buttons j and k move the list's cursor (Enter stays the button's).
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('searchbox', { name: 'Card: last four or first six digits' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('search', { name: 'Transaction filters' }).getByRole('button', { name: /^Date/ })).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows(page).nth(2)).toBeFocused();
  await page.keyboard.press('k');
  await expect(rows(page).nth(1)).toBeFocused();

  // Shift+F shows the filters with the first one focused; after Escape from the field a g sequence works.
  await page.keyboard.press('Shift+F');
  await expect(page.locator('.filter-panel :focus')).toHaveCount(1);
  await page.keyboard.press('/');
  await page.keyboard.press('Escape');
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press('g');
  await page.keyboard.press('q');
  await expect(page).toHaveURL(/\/reporting-overview/);
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  await expectNoSeriousViolations(page);
});

test("a filter's values and the date presets are listboxes: arrows move, Space ticks, Enter applies; Ctrl+Enter applies the dates", async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  await page.keyboard.press('Shift+F');
  const status = page.getByRole('button', { name: /^Status:/ });
  await status.focus();
  await page.keyboard.press('Enter');
  const popup = page.getByRole('dialog', { name: 'Status' });
  await expect(popup.getByRole('checkbox').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(popup.getByRole('checkbox').nth(1)).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  // Ticks are a draft: nothing applied yet.
  await expect(page).not.toHaveURL(/status=/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/status=%5Beq%5D[^&]+%5Band%5D%5Beq%5D/);
  await expect(status).toBeFocused();

  await rows(page).first().focus();
  await page.keyboard.press('Shift+D');
  const dates = page.getByRole('dialog', { name: 'Transaction dates' });
  await expect(dates.getByRole('button', { name: 'Today' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(dates.getByRole('button', { name: 'Last year' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(dates.getByRole('button', { name: 'Last month' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dates).toBeVisible();
  await expect(dates.getByLabel('From')).not.toHaveValue('');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Control+Enter');
  await expect(dates).toBeHidden();
  await expect(page).toHaveURL(/date=%5Bgte%5D/);
});

// Known defect: when the time is up, a tab that was refreshing its tokens as the other
// tab's sign-out ended the provider session goes to the provider's password page instead of 'You have been inactive…'
// (signed out either way). Passed alone twice, failed once in the full run, since DPoP; the fix is for a refused
// refresh past the tab's own inactivity deadline to sign out as inactivity.
test('two tabs share their activity and their context, and sign out together', async ({ browser }) => {
  const context = await browser.newContext();
  await context.clock.install();
  const first = await context.newPage();
  // owner@demo.test chooses a merchant; a new tab opens in that context, without the selection page.
  await signIn(first, 'owner@demo.test', '/dashboard', 'keyboard');
  await expect(first).toHaveURL(/\/context\?route=%2Fdashboard/);
  await expect(first.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await first.keyboard.press('ArrowDown');
  await first.keyboard.press('ArrowDown');
  await first.keyboard.press('Enter');
  await first.keyboard.press('Control+Enter');
  await expect(first).toHaveURL(/\/dashboard$/);
  // Focus is not lost after applying the context: it is in the pane.
  await expect.poll(() => first.evaluate(() => document.activeElement?.closest('[data-pane-id]') !== null)).toBe(true);
  const applied = (await first.getByLabel('Applied context').textContent()) ?? '';
  expect(applied).toContain('Harbour & Finch Homeware Ltd');

  const second = await context.newPage();
  await second.goto('/transactions');
  await expect(second.getByRole('grid', { name: 'Transactions' })).toBeVisible();
  await expect(second).toHaveURL(/\/transactions$/);
  await expect(second.getByLabel('Applied context')).toHaveText(applied);

  // Ten minutes on, someone works in the first tab; six more minutes: past the second tab's own fifteen.
  await context.clock.runFor('10:00');
  await first.bringToFront();
  await first.keyboard.press('Shift+?');
  await first.keyboard.press('Escape');
  await context.clock.runFor('06:00');
  await expect(second.getByRole('alertdialog')).toHaveCount(0);
  await expect(second).not.toHaveURL(/signed-out/);

  // Then nobody: both tabs sign out together.
  await context.clock.runFor('16:00');
  await expect(first).toHaveURL(/\/signed-out/);
  await expect(second).toHaveURL(/\/signed-out/);
  await context.close();
});
