// Users journeys against the real server in Chromium: an owner invites a finance user by keyboard; the account whose
// password has expired changes it inside the sign-in before the portal opens; a technical admin unlocks a locked
// user. axe scans of the overview, the add form and the user detail. (Following the invitation email's link in the
// browser needs the mail worker's delivered messages: tests/server/identity/password-flows.test.ts follows it from
// the outbox and signs the invitee in.)
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { demoPassword, signIn } from './support.ts';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('owner@demo.test invites a new finance user by keyboard', async ({ page }) => {
  await signIn(page, 'owner@demo.test', '/users', 'keyboard');
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(grid.getByRole('rowheader').first()).toBeVisible();
  // Only the owner's business: no internal users.
  await expect(grid.getByRole('rowheader', { name: 'Priya Shah' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await page.locator('body').focus();
  await page.keyboard.press('Shift+N');
  await expect(page).toHaveURL(/\/users\/add$/);
  await expect(page.getByLabel('Email addresses')).toBeFocused();
  const email = `new.finance.${Date.now()}@harbour-finch.example`;
  await page.keyboard.type(email);
  const businessOption = await page.getByLabel('Add a business').locator('option', { hasText: 'Harbour & Finch' }).getAttribute('value');
  await page.getByLabel('Add a business').selectOption(businessOption ?? '');
  const roleGroups = page.getByRole('group', { name: /Role groups for Harbour & Finch/ });
  await roleGroups.getByRole('button', { name: 'Finance', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(roleGroups.getByRole('button', { name: 'Finance', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('checkbox', { name: /^Finance at Harbour & Finch/ })).toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Send invitation' }).focus();
  await page.keyboard.press('Enter');

  await expect(page.getByText('An invitation has been sent (valid 7 days).')).toBeVisible();
  await expect(page).toHaveURL(/\/users\/USR/);
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  await expect(page.getByText('Invited', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign-in and security' }).click();
  await expect(page.getByText(/Invitation pending: sent/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('expired@demo.test must choose a new password before the portal opens', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByLabel('Email').fill('expired@demo.test');
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Your password has expired' })).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toBeFocused();
  await page.keyboard.type('password1234');
  await page.getByLabel('Repeat the new password').fill('password1234');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('The password is too easy to guess.');
  const fresh = 'Meadow-lantern-quartz-58';
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Repeat the new password').fill(fresh);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
  await expect(page.getByRole('navigation').first()).toBeVisible();
});

test('admin@demo.test unlocks a locked user', async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/users?status=%5Beq%5Dlocked', 'keyboard');
  const grid = page.getByRole('grid', { name: 'Users' });
  const first = grid.getByRole('rowheader').first();
  await expect(first).toBeVisible();
  const name = (await first.textContent())?.trim() ?? '';
  await first.locator('a').click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(/^Locked until /).first()).toBeVisible();
  await page.keyboard.press('Shift+Digit2');
  await page.getByRole('tab', { name: 'Sign-in and security' }).click();
  await page.getByRole('button', { name: 'Unlock' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${name} can sign in again.`)).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Locked until /)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});
