// Browser-side defences against the real server in Chromium: a strict Content-Security-Policy with no inline
// script, tokens kept out of localStorage, and hostile notification text rendered as text (no dialog, no image).
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support.ts';


const script = '<script>alert(1)</script>';
const image = '<img src=x onerror=alert(1)>';


test('the app page is served with a strict Content-Security-Policy and no inline script', async ({ page }) => {
  const response = await page.goto('/dashboard');
  expect(response).not.toBeNull();
  const csp = (await response?.headerValue('content-security-policy')) ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  // The body as the server sends it, fetched again: the navigation's own body can be gone by now (signed out, the
  // app has already moved on to the provider's sign-in page, and Chromium drops the old document's resources).
  const html = await (await page.request.get('/dashboard')).text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)].map((match) => match[1] ?? '');
  expect(scripts.length).toBeGreaterThan(0);
  for (const attributes of scripts) expect(attributes).toMatch(/\bsrc=/);
});

test('after sign-in the session lives in sessionStorage and no token in localStorage', async ({ page }) => {
  await signIn(page, 'owner@demo.test', '/notifications');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('portal.credentials') ?? '')).toContain('accessToken');
  const storage = await page.evaluate(() => ({
    local: Object.entries(localStorage),
    credentials: JSON.parse(sessionStorage.getItem('portal.credentials') ?? '{}') as { accessToken?: string },
  }));
  const accessToken = storage.credentials.accessToken ?? '';
  expect(accessToken.length).toBeGreaterThan(16);
  for (const [key, value] of storage.local) {
    expect(key.toLowerCase(), key).not.toContain('token');
    expect(value, key).not.toContain('eyJ');
    expect(value, key).not.toContain(accessToken);
  }
});

test('a notification with hostile text shows it as text: no dialog, no image', async ({ page }) => {
  // Any alert() that ran would raise a dialog: record and dismiss it, and fail below.
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, 'owner@demo.test', '/notifications');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page).toHaveURL(/\/notifications$/);
  const table = page.getByRole('table', { name: 'Notifications' });
  const link = table.getByRole('link', { name: /Security notice/ });
  await expect(link).toHaveText(`Security notice ${script}`);
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/notifications\/NTF\d+$/);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(`Security notice ${script}`);
  await expect(article.getByText(`Never share your password. ${image} Our staff will never ask for it.`)).toBeVisible();
  await expect(article.getByText(script, { exact: true })).toBeVisible();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(article.locator('script, img')).toHaveCount(0);
  // Give any injected handler a moment to run.
  await page.waitForTimeout(500);
  expect(dialogs).toEqual([]);
});
