// Reporting journey against the real server in Chromium, by keyboard: finance@demo.test opens the trading account of
// a merchant, filters last month, downloads the statement as PDF and as CSV from the report queue, and the CSV closes
// at the balance the screen shows. axe scan of the statement.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn, expectNoSeriousViolations } from './support.ts';

async function press(page: Page, locator: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await locator.focus();
  await page.keyboard.press(key);
}

async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** '£1,234.56' or '-£12.00' → '1234.56' / '-12.00', as the CSV writes it. */
const asDecimal = (text: string) => `${text.includes('-') || text.includes('−') ? '-' : ''}${text.replace(/[^\d.]/g, '')}`;

test('finance@demo.test reconciles last month of the trading account with its PDF and CSV statements', async ({ page }) => {
  await signIn(page, 'finance@demo.test', '/reporting/trading-account', 'keyboard');
  await expect(page).toHaveURL(/\/context\?route=%2Freporting%2Ftrading-account/);
  await page
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: /Online/ })
    .click();
  await page.getByRole('button', { name: 'Apply' }).click();
  // The merchant has one account group: it is chosen at once.
  await expect(page).toHaveURL(/\/reporting\/trading-account\/3\d+/);
  await expect(page.getByRole('heading', { level: 1, name: /^Trading account 3\d+/ })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Trading account movements' })).toBeVisible();

  // Shift+D: the period dialog; 'Last month' applies at once.
  await blur(page);
  await page.keyboard.press('Shift+D');
  const periodDialog = page.getByRole('dialog', { name: 'Statement period' });
  await press(page, periodDialog.getByRole('button', { name: 'Last month' }));
  await expect(page).toHaveURL(/date=%5Bgte%5D/);
  await expect(page.getByRole('grid', { name: 'Trading account movements' })).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('closing-balance')).not.toHaveText('…');
  const closing = asDecimal((await page.getByTestId('closing-balance').textContent()) ?? '');
  await expectNoSeriousViolations(page);

  // Shift+X: 'Download statement', PDF first, then CSV.
  for (const type of ['PDF', 'CSV'] as const) {
    await blur(page);
    await page.keyboard.press('Shift+X');
    const dialog = page.getByRole('dialog', { name: 'Download statement' });
    if (type === 'CSV') await press(page, dialog.getByRole('radio', { name: /CSV/ }), 'Space');
    await press(page, dialog.getByRole('button', { name: 'Download' }));
    await expect(page.getByText('Your report has been queued.').first()).toBeVisible();
  }

  // g q: the report queue (the toasts' links go as their toasts do).
  await blur(page);
  await page.keyboard.press('g');
  await page.keyboard.press('q');
  await expect(page.getByRole('heading', { name: 'My report queue' })).toBeVisible();
  const downloaded: Record<string, Buffer> = {};
  for (const type of ['PDF', 'CSV'] as const) {
    const report = page
      .getByRole('row')
      .filter({ hasText: `Trading account · ${type}` })
      .first();
    await expect(report.getByText('Ready')).toBeVisible({ timeout: 90_000 });
    const download = page.waitForEvent('download');
    await press(page, report.getByRole('button', { name: /Download/ }));
    const file = await download;
    // Named by the account and the month it covers.
    expect(file.suggestedFilename()).toMatch(new RegExp(`^trading-account-[0-9A-Z]+-\\d{4}-\\d{2}\\.${type.toLowerCase()}$`));
    downloaded[type] = readFileSync(await file.path());
  }
  expect(downloaded.PDF?.subarray(0, 5).toString()).toBe('%PDF-');
  const lines = (downloaded.CSV?.toString('utf8') ?? '')
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '');
  expect(lines[1]).toMatch(/^,Opening balance,,,,/);
  expect(lines.at(-1)).toBe(`,Closing balance,,,,${closing}`);
});
