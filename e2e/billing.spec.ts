// Billing against the real seeded server in Chromium, keyboard first: the finance admin billing@demo.test
// runs billing for last month from the palette (preview, then 'Create invoices' after confirming), opens an invoice
// from the table and downloads its PDF. The seed bills the two months before last, so last month is open to run.
// axe finds nothing serious or critical on the screens.
import { expect, test } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

const lastMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

test('billing@demo.test runs billing for last month and downloads an invoice PDF, by keyboard', async ({ page }) => {
  await signIn(page, 'billing@demo.test', '/billing', 'keyboard');
  const invoices = page.getByRole('grid', { name: 'Invoices' });
  await expect(invoices.getByRole('rowheader').first()).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.keyboard.press(`${mod}+k`);
  await page.getByRole('combobox', { name: 'Command palette' }).fill('run billing');
  await expect(page.getByRole('option', { name: /^Run billing for a month/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/billing\?tab=run$/);
  // The portal's month entry shows mm/yyyy.
  const month = page.getByRole('textbox', { name: 'Month' });
  await expect(month).toHaveValue(`${lastMonth().slice(5, 7)}/${lastMonth().slice(0, 4)}`);
  await page.getByRole('button', { name: 'Preview' }).focus();
  await page.keyboard.press('Enter');
  const preview = page.getByRole('table', { name: /^Preview: \d+ draft invoices for / });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  const draftCount = Number(
    ((await preview.getAttribute('aria-label')) ?? (await preview.locator('caption').textContent()) ?? '').match(/Preview: (\d+)/)?.[1] ?? '0',
  );
  expect(draftCount).toBeGreaterThan(0);
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: 'Create invoices' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: /^Create invoices for / });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Create invoices' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(new RegExp(`^Created ${draftCount} invoices for `))).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`/billing\\?month=${lastMonth()}$`));
  // The list shows the month just billed (not the unfiltered rows it held while they load).
  const billedMonth = new Date(`${lastMonth()}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  await expect(invoices.getByRole('row').nth(1)).toContainText(billedMonth);

  // j puts the cursor on the first invoice, Enter opens it.
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/billing\/invoices\/INV[0-9A-F]+$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Invoice INV-\d{4}-\d{6}$/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invoice lines' })).toBeVisible();
  await expectNoSeriousViolations(page);

  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Shift+I');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^INV-\d{4}-\d{6}\.pdf$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The month is billed once: a second run is refused with the reason.
  await page.goto(`/billing?tab=run&runmonth=${lastMonth()}`);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText(/has been billed already/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Create invoices' })).toBeDisabled();
});
