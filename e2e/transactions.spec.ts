// Transactions journeys against the real server in Chromium, by keyboard: filter and sort, save and re-apply a
// preset, export and download from the report queue, open two transactions side by side.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations, signIn } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Transactions' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

/** Focus a control the way Tab would reach it, then use it by key. */
async function press(page: Page, name: string | RegExp, key = 'Enter', role: 'button' | 'link' = 'button'): Promise<void> {
  await page.getByRole(role, { name }).first().focus();
  await page.keyboard.press(key);
}

test('admin@demo.test filters, sorts, saves a preset and re-applies it, by keyboard', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Transaction pages' })).toContainText(/1–25 of/);

  // Shift+F opens the filters on the first of them (Type); Enter opens the status choice, Enter applies the ticks.
  await page.keyboard.press('Shift+F');
  await expect(page.getByRole('button', { name: /^Type:/ })).toBeFocused();
  await page.getByRole('button', { name: /^Status:/ }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('checkbox', { name: 'Declined' }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/status=%5Beq%5Ddeclined/);
  await expect(
    grid(page)
      .getByRole('gridcell')
      .filter({ hasText: /^Paid$/ }),
  ).toHaveCount(0);
  await expect(grid(page).getByRole('gridcell', { name: 'Declined' }).first()).toBeVisible();

  // The amount's Exact/Range switch shows whole (it was clipped to 28 of its 98 px).
  const amountMatch = page.getByRole('radiogroup', { name: 'Amount match' });
  await expect(amountMatch.getByText('Range')).toBeVisible();
  expect(await amountMatch.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);

  // Sort by amount: largest first, and back on page 1.
  await press(page, /^Amount/);
  await expect(page).toHaveURL(/OrderingField=amount&OrderingDirection=Descending/);
  await expect(page.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
  // The previous rows stay on screen, dimmed and the grid busy, until the sorted page arrives.
  await expect(grid(page)).not.toHaveAttribute('aria-busy', 'true');
  const amounts = await rows(page).locator('td:nth-child(4)').allTextContents();
  const values = amounts.slice(0, 5).map((text) => Number(text.replace(/[^\d.]/g, '')));
  expect(values).toEqual([...values].sort((a, b) => b - a));

  // Save the filters as a preset.
  await press(page, 'Presets');
  await page.getByLabel('Save current filters as').focus();
  await page.keyboard.type('Declined payments');
  await page.keyboard.press('Enter');
  await expect(page.getByText("Filter preset 'Declined payments' saved.")).toBeVisible();

  // Clear, then re-apply it.
  await press(page, 'Clear filters');
  await expect(page).not.toHaveURL(/status=/);
  await expect(grid(page).getByRole('gridcell', { name: 'Paid' }).first()).toBeVisible();
  await press(page, 'Presets');
  await press(page, 'Declined payments');
  await expect(page.getByText("Filter preset 'Declined payments' applied.")).toBeVisible();
  await expect(page).toHaveURL(/status=%5Beq%5Ddeclined/);
  await expect(
    grid(page)
      .getByRole('gridcell')
      .filter({ hasText: /^Paid$/ }),
  ).toHaveCount(0);

  // The link reproduces the view.
  const link = page.url();
  await page.goto('/dashboard');
  await page.goto(link);
  await expect(page.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('button', { name: /^Status: Declined/ })).toBeVisible();
});

test('admin@demo.test exports a filtered view and downloads it from the report queue, by keyboard', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions?channel=%5Beq%5Dchp&status=%5Beq%5Dpaid', 'keyboard');
  await expect(rows(page).first()).toBeVisible();

  await page.keyboard.press('Shift+X');
  const dialog = page.getByRole('dialog', { name: 'Export transactions' });
  await expect(dialog.getByRole('status')).toContainText(/transactions? will be exported/);
  const expected = Number((await dialog.getByRole('status').textContent())?.replace(/[^\d]/g, '').replace(/^$/, 'NaN'));
  expect(expected).toBeGreaterThan(0);
  await dialog.getByRole('radio', { name: /Excel/ }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: /CSV/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Export' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your report has been queued.')).toBeVisible();

  await press(page, 'Open my report queue', 'Enter', 'link');
  await expect(page.getByRole('heading', { name: 'My report queue' })).toBeVisible();
  const report = page.getByRole('row').filter({ hasText: 'Transactions · CSV' }).first();
  await expect(report).toContainText('Channel: Chp');
  await expect(report).toContainText('Status: Paid');
  await expect(report.getByText('Ready')).toBeVisible({ timeout: 60_000 });
  // The queue is a dense table, and axe finds nothing serious in it.
  await expectNoSeriousViolations(page);

  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: /Download/ }).focus();
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}-RPT[0-9A-F]+\.csv$/);
  const text = readFileSync(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '');
  expect(lines[0]).toBe('Date (Europe/London),Reference,Merchant,Amount,Currency,Status,Payment method,Channel,E-wallet,Type');
  expect(lines).toHaveLength(expected + 1);
  // A paid payment with refunds reads as (partially) refunded in the file too.
  expect(lines.slice(1).every((line) => /,(paid|refunded|partiallyRefunded),/.test(line) && line.includes(',Chp,'))).toBe(true);
});

test('admin@demo.test opens two transactions side by side, by keyboard', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  const first = (await rows(page).nth(0).getByRole('rowheader').textContent()) ?? '';
  const second = (await rows(page).nth(1).getByRole('rowheader').textContent()) ?? '';

  // j moves the cursor to the first row's neighbour and k back; Shift+Enter opens the row beside.
  await page.keyboard.press('j');
  await expect(rows(page).nth(1)).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('k');
  await expect(rows(page).nth(0)).toBeFocused();
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByRole('heading', { name: new RegExp(`^(Transaction|Refund) ${first}$`) })).toBeVisible();
  // The new pane has the keyboard: it is the focused pane and holds the focus.
  const besideFirst = page.getByRole('region', { name: new RegExp(`^Transaction ${first} \\(pane 2 of 2\\)`) });
  await expect(besideFirst).toHaveAttribute('data-focused', 'true');
  await expect(besideFirst).toBeFocused();

  // Back to the list pane by keyboard, where the cursor row takes the focus again; next row, beside again.
  await page.keyboard.press('Control+[');
  const list = page.getByRole('region', { name: /^Transactions \(pane 1 of 2\)/ });
  await expect(list).toHaveAttribute('data-focused', 'true');
  await expect(besideFirst).toHaveAttribute('data-focused', 'false');
  await list.getByRole('grid').locator('tbody tr[data-index="0"]').focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Shift+Enter');
  // A refund's heading says Refund.
  await expect(page.getByRole('heading', { name: new RegExp(`^(Transaction|Refund) ${second}$`) })).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(`^(Transaction|Refund) ${first}$`) })).toBeVisible();
  await expect(page.getByRole('region', { name: /pane \d of 3/ })).toHaveCount(3);
  // A new pane opens at the right end.
  const besideSecond = page.getByRole('region', { name: new RegExp(`^Transaction ${second} \\(pane 3 of 3\\)`) });
  await expect(besideSecond).toHaveAttribute('data-focused', 'true');
  await expect(besideSecond).toBeFocused();

  // The detail shows its links and the masked card; the reveal is there for an internal admin.
  const detail = page.getByRole('region', { name: new RegExp(`Transaction ${second}`) });
  await expect(detail.getByRole('heading', { name: 'Linked transactions' })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Card' })).toBeVisible();
});
