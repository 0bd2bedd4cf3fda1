// Shared by the browser journeys: signing in through the provider's form as a person would, and scanning a screen with axe.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { headerOf, linkTo, plainTextOf } from '../tests/server/mail/read-mail.ts';

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

export type ReceivedEmail = {
  to: string[];
  subject: string;
  text: string;
  from: string;
  replyTo: string | null;
  /** the first link in the text to this path */ link: (path: string) => URL | undefined;
};

function receivedEmails(): ReceivedEmail[] {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir || !existsSync(dir))
    throw new Error('E2E_MAIL_DIR is not set: run the journeys through scripts/e2e.ts, which starts the SMTP server the portal sends to');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const mail = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { to: string[]; raw: string };
      const text = plainTextOf(mail.raw);
      return {
        to: mail.to,
        subject: headerOf(mail.raw, 'Subject') ?? '',
        text,
        from: headerOf(mail.raw, 'From') ?? '',
        replyTo: headerOf(mail.raw, 'Reply-To') ?? null,
        link: (path: string) => linkTo(text, path),
      };
    });
}

/**
 * Waits until the portal's mail worker has delivered a message for `recipient` (with this subject, when given) to the
 * SMTP server scripts/e2e.ts started, and returns the newest such message, decoded as a mail client shows it.
 */
export async function emailTo(recipient: string, subject?: string): Promise<ReceivedEmail> {
  const matching = () =>
    receivedEmails().filter(
      (mail) => mail.to.some((to) => to.toLowerCase() === recipient.toLowerCase()) && (subject === undefined || mail.subject === subject),
    );
  await expect
    .poll(() => matching().length, { message: `an email to ${recipient}${subject ? ` “${subject}”` : ''} arrives at the SMTP server`, timeout: 30_000 })
    .toBeGreaterThan(0);
  const newest = matching().at(-1);
  if (!newest) throw new Error(`no email to ${recipient}`);
  return newest;
}

/** After sign-in: applies the first context offered, by keyboard, when the portal asks for one (not when there is one choice). */
export async function chooseContextIfAsked(page: Page): Promise<void> {
  await expect(
    page
      .getByRole('navigation', { name: 'Main menu' })
      .or(page.getByRole('button', { name: 'Apply' }))
      .first(),
  ).toBeVisible();
  const leftSelection = await page
    .waitForURL((url) => !url.pathname.startsWith('/context'), { timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
  if (leftSelection) return;
  const apply = page.getByRole('button', { name: 'Apply' });
  for (let step = 0; step < 3 && !(await apply.isEnabled()); step += 1) {
    await page.locator('.context-panel [role="option"], .context-panel li button').first().focus();
    await page.keyboard.press('Enter');
  }
  await apply.focus();
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/context/);
}

type AxeScan = {
  /** selectors of parts of the page left out of the scan (each excluded on its own) */ exclude?: string | string[];
  /** names the screen in the findings; the page's path when absent */ label?: string;
};

/**
 * axe's serious and critical findings on the page, one line each: '<label or path> <rule>: <help> (<elements>)'.
 * Lists and figures load after the screen is shown, so the scan waits (up to 10 s, then scans anyway) until nothing on
 * the page says it is busy: a scan of the settled screen.
 */
export async function seriousViolations(page: Page, { exclude = [], label }: AxeScan = {}): Promise<string[]> {
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 10_000 }).catch(() => undefined);
  const builder = new AxeBuilder({ page });
  for (const selector of typeof exclude === 'string' ? [exclude] : exclude) builder.exclude(selector);
  const { violations } = await builder.analyze();
  const where = label ?? new URL(page.url()).pathname;
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${where} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** Fails the journey on any serious or critical axe finding on the page (see seriousViolations). */
export async function expectNoSeriousViolations(page: Page, scan?: AxeScan): Promise<void> {
  expect(await seriousViolations(page, scan)).toEqual([]);
}
