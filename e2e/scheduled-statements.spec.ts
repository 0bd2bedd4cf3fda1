// Scheduled statements and camt.053 through the report queue, against the real server in Chromium: finance@demo.test
// schedules the trading account's statement weekly, finds the schedule in My report queue, runs it now (Shift+R), pauses and deletes it
// (leaving nothing behind for other journeys), queues the statement as camt.053 XML and downloads it from the queue,
// closing at the balance the screen shows. An internal user reads the provider's internal accounts. axe on each screen.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn, expectNoSeriousViolations } from './support.ts';

/** '£1,234.56' or '-£12.00' → 1234.56 / -12 */
const amountOf = (text: string) => Number(`${text.includes('-') || text.includes('−') ? '-' : ''}${text.replace(/[^\d.]/g, '')}`);

test('finance@demo.test schedules the trading statement, manages the schedule and downloads the camt.053 file from the queue', async ({ page }) => {
  await signIn(page, 'finance@demo.test', '/reporting/trading-account');
  await page
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: /Online/ })
    .click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/reporting\/trading-account\/3\d+/);
  await expect(page.getByRole('grid', { name: 'Trading account movements' })).toBeVisible();
  const accountNumber = /trading-account\/(3\d+)/.exec(page.url())?.[1] ?? '';

  await page.getByRole('button', { name: 'Schedule statement…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule statement' });
  await dialog.getByRole('combobox', { name: 'Repeat', exact: true }).selectOption('weekly');
  await dialog.getByRole('combobox', { name: 'Weekday' }).selectOption('Friday');
  await dialog.getByRole('combobox', { name: 'At', exact: true }).selectOption('07:00');
  await dialog.getByRole('combobox', { name: 'Time zone' }).selectOption('Europe/London');
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Scheduled: Weekly on Friday at 07:00 (Europe/London).', { exact: false }).first()).toBeVisible();

  // camt.053 through the report queue, for last month (a closed period: nothing posts into it meanwhile).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Shift+D');
  await page.getByRole('dialog', { name: 'Statement period' }).getByRole('button', { name: 'Last month' }).click();
  await expect(page).toHaveURL(/date=%5Bgte%5D/);
  await expect(page.getByRole('grid', { name: 'Trading account movements' })).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('closing-balance')).not.toHaveText('…');
  const closing = amountOf((await page.getByTestId('closing-balance').textContent()) ?? '');
  await page.getByRole('button', { name: 'Download statement…' }).click();
  const download = page.getByRole('dialog', { name: 'Download statement' });
  await download.getByRole('radio', { name: /camt\.053/ }).check();
  await download.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByText('Your report has been queued.').first()).toBeVisible();

  await page.goto('/reporting-overview?view=schedules');
  const schedules = page.getByRole('table', { name: 'Scheduled statements and reports' });
  const row = schedules
    .getByRole('row')
    .filter({ hasText: `Trading account ${accountNumber}` })
    .filter({ hasText: 'Weekly on Friday at 07:00' });
  await expect(row).toHaveCount(1);
  await expectNoSeriousViolations(page);
  // Run now by keyboard: Shift+R on the schedule's row queues one run of the period just ended; a toast says where the
  // file will be, focus stays on the schedule's Run now, and the report is in the queue above.
  await row.getByRole('button', { name: `Pause Trading account ${accountNumber}` }).focus();
  await page.keyboard.press('Shift+R');
  await expect(page.getByText(/is queued\. The file appears in My report queue when it is ready/).first()).toBeVisible();
  await expect(row.getByRole('button', { name: `Run now Trading account ${accountNumber}` })).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: 'Trading account · PDF' }).first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await row.getByRole('button', { name: `Pause Trading account ${accountNumber}` }).click();
  await expect(row.getByText('Paused')).toBeVisible();
  await row.getByRole('button', { name: `Delete schedule Trading account ${accountNumber}` }).click();
  await expect(row).toHaveCount(0);

  const report = page.getByRole('row').filter({ hasText: 'Trading account · XML' }).first();
  await expect(report.getByText('Ready')).toBeVisible({ timeout: 90_000 });
  const saved = page.waitForEvent('download');
  await report.getByRole('button', { name: /Download/ }).click();
  const file = await saved;
  // Named by the account and the month the run covered.
  expect(file.suggestedFilename()).toMatch(/^trading-account-[0-9A-Z]+-\d{4}-\d{2}\.xml$/);
  const xml = readFileSync(await file.path(), 'utf8');
  expect(xml).toContain('urn:iso:std:iso:20022:tech:xsd:camt.053.001.08');
  const closingBalance = /<Bal><Tp><CdOrPrtry><Cd>CLBD<\/Cd><\/CdOrPrtry><\/Tp><Amt Ccy="[A-Z]{3}">([0-9.]+)<\/Amt><CdtDbtInd>(CRDT|DBIT)<\/CdtDbtInd>/.exec(
    xml,
  );
  expect(Number(closingBalance?.[1]) * (closingBalance?.[2] === 'DBIT' ? -1 : 1)).toBeCloseTo(closing, 2);
});

test("an internal user reads the provider's internal accounts", async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/reporting/internal-accounts');
  const table = page.getByRole('table', { name: 'Internal accounts and balances' });
  await expect(table).toBeVisible();
  await expect(table.getByRole('rowheader', { name: 'GBP' })).toBeVisible();
  await expectNoSeriousViolations(page);
});
