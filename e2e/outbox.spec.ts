// The mail outbox against the real server in Chromium: a Technical admin reaches it from the palette, keys only,
// opens a message with the keyboard, reads it in its sandboxed frame and as plain text; axe finds nothing serious.
// A merchant's owner is not offered the screen and is refused at its address.
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations, mod, signIn } from './support.ts';

test('a Technical admin reads the outbox from the palette, keyboard only', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  // The shortcuts are bound once the shell is up: wait for the first pane.
  await expect(page.getByRole('region', { name: /^Transactions/ })).toBeVisible();
  await page.keyboard.press(`${mod}+k`);
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  await input.fill('outbox');
  await expect(page.getByRole('option', { name: /^Go to outbox/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/outbox$/);
  const table = page.getByRole('table', { name: 'Outbox' });
  // The seed's welcome messages (delivered locally) and whatever the journeys before this one queued (invitations,
  // payment links…): sent, as scripts/e2e.ts gives the portal an SMTP server (SMTP_URL).
  await expect(table.getByText(/^(Delivered locally|Sent)$/).first()).toBeVisible();

  // The newest message, opened with the keyboard: its subject is the screen's heading and its body is in the frame.
  const newest = table.getByRole('link').first();
  const subject = (await newest.textContent()) ?? '';
  expect(subject.length).toBeGreaterThan(0);
  await page.keyboard.press('j');
  await expect(newest).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/outbox\/EM/);
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  const frame = page.frameLocator('iframe[title^="HTML body of"]');
  await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(frame.getByText('Payments portal', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Plain text' }).press('Enter');
  await expect(page.getByLabel(/^Plain text body of/)).toContainText('— Payments portal');
  // Scanned with the plain text shown: axe cannot run inside the fully sandboxed frame (no scripts there, by design),
  // and waits for it until the test times out.
  await expectNoSeriousViolations(page);
});

test('an owner is not offered the outbox and is refused at its address', async ({ page }) => {
  await signIn(page, 'solo@demo.test', '/dashboard');
  await expect(page.getByRole('region', { name: /^Dashboard/ })).toBeVisible();
  await page.keyboard.press(`${mod}+k`);
  await page.getByRole('combobox', { name: 'Command palette' }).fill('outbox');
  await expect(page.getByRole('option', { name: /^Go to outbox/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/outbox');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('You do not have the correct permissions.')).toBeVisible();
});
