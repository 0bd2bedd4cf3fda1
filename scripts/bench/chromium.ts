// The bench's Chromium: Debian's (or another found one), headless, with what this closed network needs (no
// background networking), and a page of the built portal signed in the way a person signs in.
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromeArgs, findChromium } from '../find-chromium.ts';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: chromeArgs });
}

/** A new page at `path` of the portal at `serverUrl`, signed in as solo@demo.test, once its first table is shown. */
export async function signedInPage(browser: Browser, serverUrl: string, path = '/dashboard'): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();
  await page.goto(`${serverUrl}${path}`);
  await page.getByLabel('Email').fill('solo@demo.test');
  await page.getByLabel('Password').fill('portal-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('table').first().waitFor();
  return page;
}
