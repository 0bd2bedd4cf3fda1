// Support journeys against the real server in Chromium: owner@demo.test reports a bug with a screenshot,
// service@demo.test answers with an internal note and a public reply, and the owner sees only the reply; then
// service@demo.test publishes a notification and the owner's bell, open in another browser, shows it within 5 s.
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

/** A real 1×1 PNG: the server reads the type from these bytes. */
const screenshot = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Signs in on `path`; if the portal asks for a context first, applies the first one offered; waits for `ready`. */
async function signInWithContext(page: Page, email: string, path: string, ready: (page: Page) => Locator): Promise<void> {
  await signIn(page, email, path);
  // Business users are offered their merchants, internal users every business.
  const merchants = page.getByRole('listbox', { name: /^(Merchants|Businesses)/ }).first();
  await expect(ready(page).or(merchants)).toBeVisible({ timeout: 20_000 });
  if (await merchants.isVisible()) {
    await merchants.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Apply' }).click();
  }
  await expect(ready(page)).toBeVisible({ timeout: 20_000 });
}

test('owner reports a bug with a screenshot; service answers with an internal note and a reply; the owner sees only the reply', async ({ browser }) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInWithContext(owner, 'owner@demo.test', '/tickets/add?type=bug', (page) => page.getByRole('heading', { name: 'New ticket', level: 1 }));
  await expect(owner.getByRole('combobox', { name: 'Type' })).toHaveValue('bug');
  await owner.getByRole('textbox', { name: /Subject/ }).fill('Refund button missing on captured payments');
  await owner.getByRole('textbox', { name: /Description/ }).fill('Since this morning the refund button is gone.');
  await owner.locator('input[type="file"]').setInputFiles({ name: 'refund-button-screenshot.png', mimeType: 'image/png', buffer: screenshot });
  await expect(owner.getByRole('list', { name: 'Files to attach' })).toContainText('refund-button-screen');
  await owner.getByRole('textbox', { name: /Description/ }).focus();
  await owner.keyboard.press(`${mod}+Enter`);
  await owner.waitForURL(/\/tickets\/TCK[0-9A-F]+$/);
  const ticketPath = new URL(owner.url()).pathname;
  await expect(owner.getByRole('heading', { name: 'Refund button missing on captured payments', level: 1 })).toBeVisible();
  await expect(owner.getByRole('button', { name: /^Download refund-button-screenshot\.png/ })).toBeVisible();
  await expectNoSeriousViolations(owner);

  const serviceContext = await browser.newContext();
  const service = await serviceContext.newPage();
  await signInWithContext(service, 'service@demo.test', ticketPath, (page) =>
    page.getByRole('heading', { name: 'Refund button missing on captured payments', level: 1 }),
  );
  await service.getByRole('checkbox', { name: 'Internal note' }).check();
  await service.getByRole('textbox', { name: 'Internal note' }).fill('Probably the capture flag; checking with engineering.');
  await service.keyboard.press(`${mod}+Enter`);
  await expect(service.getByRole('article', { name: /^Internal note by/ })).toContainText('checking with engineering');
  await service.getByRole('checkbox', { name: 'Internal note' }).uncheck();
  await service.getByRole('textbox', { name: 'Reply' }).fill('Thanks, we are looking into it.');
  await service.keyboard.press(`${mod}+Enter`);
  await expect(service.getByRole('article', { name: /^Comment by/ })).toContainText('we are looking into it');

  await owner.reload();
  await expect(owner.getByText('Thanks, we are looking into it.')).toBeVisible();
  await expect(owner.getByText('checking with engineering')).toHaveCount(0);
  await expect(owner.getByRole('checkbox', { name: 'Internal note' })).toHaveCount(0);
  await ownerContext.close();
  await serviceContext.close();
});

/** Runs a palette command by its title, as a person would (Ctrl+K, type, Enter). */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await input.fill(title);
  await expect(page.getByRole('option', { name: new RegExp(`^${title}`) }).first()).toBeVisible();
  await expect(page.getByText('Looking up records…')).toHaveCount(0);
  await page.keyboard.press('Enter');
}

test('owner selects all matching tickets and exports them: the report waits in My report queue and downloads, internal notes left out', async ({ browser }) => {
  // Its own ticket, with a public reply and an internal note written by support, so no other journey's data is touched.
  const subject = `Export journey ${Date.now().toString(36)}`;
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInWithContext(owner, 'owner@demo.test', '/tickets/add?type=general', (page) => page.getByRole('heading', { name: 'New ticket', level: 1 }));
  await owner.getByRole('textbox', { name: /Subject/ }).fill(subject);
  await owner.getByRole('textbox', { name: /Description/ }).fill('Please send the settlement dates.');
  await owner.keyboard.press(`${mod}+Enter`);
  await owner.waitForURL(/\/tickets\/TCK[0-9A-F]+$/);
  const ticketPath = new URL(owner.url()).pathname;
  const serviceContext = await browser.newContext();
  const service = await serviceContext.newPage();
  await signInWithContext(service, 'service@demo.test', ticketPath, (page) => page.getByRole('heading', { name: subject, level: 1 }));
  await service.getByRole('checkbox', { name: 'Internal note' }).check();
  await service.getByRole('textbox', { name: 'Internal note' }).fill('Staff only: settlement was delayed by us.');
  await service.keyboard.press(`${mod}+Enter`);
  await expect(service.getByRole('article', { name: /^Internal note by/ })).toContainText('Staff only');
  await service.getByRole('checkbox', { name: 'Internal note' }).uncheck();
  await service.getByRole('textbox', { name: 'Reply' }).fill('Settlement dates are on their way.');
  await service.keyboard.press(`${mod}+Enter`);
  await expect(service.getByRole('article', { name: /^Comment by/ })).toContainText('on their way');
  await serviceContext.close();

  // The overview filtered to the ticket; all matching selected from the palette; 'Export selected…'.
  await owner.goto('/tickets');
  const grid = owner.getByRole('grid', { name: 'Support tickets' });
  await owner.getByRole('searchbox', { name: 'Search subject or ticket id' }).fill(subject);
  await expect(grid.locator('tbody tr[data-index]')).toHaveCount(1, { timeout: 20_000 });
  await grid.locator('tbody tr[data-index]').first().focus();
  await runCommand(owner, 'Select all matching');
  const bar = owner.getByRole('region', { name: 'Selection' });
  await expect(bar.getByRole('status')).toHaveText('All 1 matching selected');
  await bar.getByRole('button', { name: 'Export selected…' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Export tickets' });
  await expect(dialog.getByRole('status')).toHaveText('1 ticket will be exported, every one that matches the filters.');
  await dialog.getByRole('radio', { name: /CSV/ }).check();
  await dialog.getByRole('radio', { name: /^All \d+ columns/ }).check();
  await expectNoSeriousViolations(owner);
  await dialog.getByRole('button', { name: 'Export' }).click();
  await expect(dialog).toBeHidden();
  await expect(owner.getByText('The export is being made: it will wait for you in My report queue.').first()).toBeVisible();

  // My report queue: the report becomes Ready and downloads.
  await owner.goto('/reporting-overview');
  await expect(owner.getByRole('heading', { name: 'My report queue' })).toBeVisible();
  const report = owner.getByRole('row').filter({ hasText: 'Tickets · CSV' }).first();
  await expect(report.getByText('Ready')).toBeVisible({ timeout: 90_000 });
  const downloading = owner.waitForEvent('download');
  await report.getByRole('button', { name: /Download/ }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^tickets-\d{4}-\d{2}-\d{2}-RPT[0-9A-F]+\.csv$/);
  const csv = readFileSync(await file.path()).toString('utf8');
  expect(csv).toContain(subject);
  expect(csv).toContain('Settlement dates are on their way.');
  expect(csv).not.toContain('Staff only');
  await ownerContext.close();
});

test('service publishes a notification and the owner’s bell in another browser shows it within 5 seconds', async ({ browser }) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInWithContext(owner, 'owner@demo.test', '/tickets', (page) => page.getByRole('heading', { name: 'Support tickets', level: 1 }));
  const bell = owner.getByRole('link', { name: /^Notifications, / });
  await expect(bell).toBeVisible();
  const unread = async () => {
    const label = (await bell.getAttribute('aria-label')) ?? '';
    const match = /(\d+) unread/.exec(label);
    return match ? Number(match[1]) : 0;
  };
  await owner.waitForTimeout(1000);
  const before = await unread();

  const serviceContext = await browser.newContext();
  const service = await serviceContext.newPage();
  await signIn(service, 'service@demo.test', '/notifications/add');
  await expect(service.getByRole('heading', { name: 'New notification', level: 1 })).toBeVisible();
  await service.getByRole('textbox', { name: 'Title' }).fill('Refunds are back');
  await service.getByRole('textbox', { name: 'Notification text' }).click();
  await service.keyboard.type('The refund button is available again.');
  await service.getByRole('combobox', { name: 'Status' }).selectOption('published');
  await expect(service.getByRole('region', { name: 'Preview, as readers will see it' })).toContainText('The refund button is available again.');
  const published = Date.now();
  await service.getByRole('button', { name: 'Publish' }).click();
  await expect(service.getByText("'Refunds are back' is published.")).toBeVisible();

  await expect.poll(unread, { timeout: 5000, intervals: [100] }).toBe(before + 1);
  console.log(`bell updated ${Date.now() - published} ms after Publish was pressed`);
  await ownerContext.close();
  await serviceContext.close();
});
