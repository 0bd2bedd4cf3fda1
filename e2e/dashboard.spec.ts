// The statistics dashboard against the real server in Chromium, with the demo accounts: stepping through the
// intervals from the keyboard only, comparing with a year earlier, and the empty-data toast for a merchant
// without payments (owner@demo.test's 'Harbour & Finch Homeware Manchester', named in the seed summary), and an
// axe scan of the drawn dashboard.
import { expect, test, type Page } from '@playwright/test';
import { signIn, mod, expectNoSeriousViolations } from './support.ts';

/**
 * owner@demo.test's business has five merchants: choose one on the context page and apply it. `beforeApply`
 * runs while the context page is shown, before anything of the dashboard has loaded.
 */
async function signInToMerchant(page: Page, merchant: RegExp, beforeApply: () => void = () => undefined): Promise<void> {
  await signIn(page, 'owner@demo.test', '/dashboard');
  await expect(page).toHaveURL(/\/context\?route=%2Fdashboard/);
  await page
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: merchant })
    .click();
  beforeApply();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Runs a palette command by typing its title, keys only. */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('dialog', { name: /command/i }).getByRole('combobox');
  await expect(input).toBeFocused();
  await input.fill(title);
  await expect(page.getByRole('option', { name: new RegExp(`^${title}`) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(input).toBeHidden();
}

/** Moves focus off any control so that single-key shortcuts reach the shortcut binder. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

const statisticsTable = (page: Page) => page.getByRole('table', { name: /per (hour|day|month|\d+ days) in [A-Z]{3},/ });
const periodButton = (page: Page) => page.getByRole('group', { name: 'Period' }).getByRole('button', { name: /\w/ }).nth(1);

test('steps through the intervals keyboard only and turns compare on', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const chartLibrary = () => scripts.filter((url) => /lightweight-charts/.test(url));
  // The chart library is no part of the first load: nothing of it before the dashboard is shown.
  await signInToMerchant(page, /Harbour & Finch Homeware Online/, () => expect(chartLibrary()).toEqual([]));

  // This month by day, with data, drawn by the chart library that arrived only now.
  await expect(statisticsTable(page)).toHaveAccessibleName(/^Volume per day in GBP, /);
  await expect(page.getByTestId('statistics-chart').locator('canvas').first()).toBeVisible();
  expect(chartLibrary()).toHaveLength(1);

  await blur(page);
  await runCommand(page, 'Show a day by hour');
  await expect(page).toHaveURL(/\/dashboard\?interval=day&from=\d{4}-\d{2}-\d{2}$/);
  await expect(statisticsTable(page)).toHaveAccessibleName(/^Volume per hour in GBP, /);

  await runCommand(page, 'Show a week by day');
  await expect(page).toHaveURL(/interval=week/);
  await expect(statisticsTable(page).getByRole('row')).toHaveCount(8);

  await runCommand(page, 'Show a year by month');
  await expect(page).toHaveURL(/interval=year/);
  await expect(statisticsTable(page).getByRole('row')).toHaveCount(13);
  const thisYear = await periodButton(page).textContent();

  // [ steps back a period (pre-fetched: no wait for the server), ] forward again.
  await page.keyboard.press('BracketLeft');
  await expect(periodButton(page)).toHaveText(String(Number(thisYear) - 1));
  await page.keyboard.press('BracketRight');
  await expect(periodButton(page)).toHaveText(thisYear ?? '');

  await runCommand(page, 'Show a month by day');
  await expect(page).toHaveURL(/interval=month/);

  // The interval selector is a radio group: arrow keys move along it.
  await page.getByRole('radio', { name: 'Month' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Week' })).toBeChecked();
  await expect(page).toHaveURL(/interval=week/);

  // Shift+D opens the date control; Escape closes it.
  await blur(page);
  await page.keyboard.press('Shift+D');
  const dialog = page.getByRole('dialog', { name: 'Choose dates' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await runCommand(page, 'Compare with a year earlier');
  await expect(page).toHaveURL(/compare=1/);
  await expect(page.getByRole('checkbox', { name: 'Compare with a year earlier' })).toBeChecked();
  await expect(statisticsTable(page).getByRole('columnheader', { name: 'A year earlier' })).toBeAttached();
  await expect(page.getByRole('button', { name: /^Volume .* a year earlier\b/ })).toBeVisible();

  // Changing the interval resets compare.
  await runCommand(page, 'Show a day by hour');
  await expect(page.getByRole('checkbox', { name: 'Compare with a year earlier' })).not.toBeChecked();
  await expect(page.getByRole('alert').filter({ hasText: 'No graph data available.' })).toHaveCount(0);
});

test('a merchant without payments shows the empty-data toast and an empty chart', async ({ page }) => {
  await signInToMerchant(page, /Harbour & Finch Homeware Manchester/);
  await expect(page.getByRole('alert').filter({ hasText: 'No graph data available.' })).toBeVisible();
  await expect(page.getByTestId('statistics-chart-empty')).toBeVisible();
  await expect(page.getByTestId('statistics-chart')).toHaveCount(0);
  // Declines are empty too, and the toast goes after five seconds.
  await expect(page.getByText(/No declined payments in GBP/)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'No graph data available.' })).toBeHidden({ timeout: 8000 });
});

test('the dashboard has no serious or critical accessibility violations, chart drawn, table shown, compare on', async ({ page }) => {
  await signInToMerchant(page, /Harbour & Finch Homeware Online/);
  const chart = page.getByRole('img', { name: /^Bar chart of volume per day in GBP/ });
  await expect(chart.locator('canvas').first()).toBeVisible();
  // The chart image holds nothing focusable; the library's attribution is a link beside it, not a tab stop.
  await expect(chart.locator('a, button, input, select, textarea, [tabindex]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Charting by TradingView' })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: 'Show table' }).click();
  await page.getByRole('checkbox', { name: 'Compare with a year earlier' }).check();
  await page.getByRole('radio', { name: 'Line' }).check();
  await expect(
    page
      .getByRole('img', { name: /^Line chart of volume per day in GBP.*a year earlier as a dashed line/ })
      .locator('canvas')
      .first(),
  ).toBeVisible();
  await expect(statisticsTable(page)).toBeVisible();
  await expectNoSeriousViolations(page);
});

test('the breakdown under the chart: by status, axe clean, Enter on a row opens its transactions', async ({ page }) => {
  await signInToMerchant(page, /Harbour & Finch Homeware Online/);
  const byMerchant = page.getByRole('grid', { name: /^GBP payments by merchant/ });
  await expect(byMerchant.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('combobox', { name: 'Break down by' }).selectOption('Status');
  const byStatus = page.getByRole('grid', { name: /^GBP payments by status/ });
  const paid = byStatus.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'paid' }) });
  await expect(paid).toBeVisible();
  await expectNoSeriousViolations(page);
  await paid.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/transactions\?.*status=%5Beq%5Dpaid/);
});
