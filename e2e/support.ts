// Shared by the browser journeys: signing in through the provider's form as a person would.
import { expect, type Page } from '@playwright/test';

export const demoPassword = 'portal-demo';
/** The platform's command modifier for Ctrl+K and friends. */
export const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

/** Opens `path`, signs in on the provider's page (clicking, or pressing Enter for keyboard-only journeys) and waits to be back in the portal. */
export async function signIn(page: Page, email: string, path = '/dashboard', submit: 'click' | 'keyboard' = 'click'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(demoPassword);
  if (submit === 'keyboard') await page.keyboard.press('Enter');
  else await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
  await expect(page.locator('body')).toBeVisible();
}
