// The beneficiary approval queue against the real seeded server in Chromium, keyboard only: risk@demo.test signs in
// with two-factor (approving a beneficiary needs it), opens the queue from the palette with no context chosen, filters
// it by a business picked by name, opens a beneficiary another person set up beside the queue, approves it (Shift+Y),
// closes it and finds it gone from the queue. axe finds nothing serious or critical on the queue. The journey's
// keystrokes and seconds are logged.
//
// The seed gives risk@demo.test no second factor (the other journeys sign in with the password alone), so this
// journey turns one on for it first, as a script would through the API, and an administrator resets it afterwards.
import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { signIn as oidcSignIn } from '../scripts/oidc-sign-in.ts';
import { demoPassword, mod, seriousViolations } from './support.ts';

const origin = process.env.BASE_URL ?? 'http://localhost:3100';
const api = (path: string) => `${origin}/api/portal${path}`;
/** The seeded beneficiary awaiting approval that solo@demo.test set up in their own business: risk@ may approve it. */
const beneficiaryName = 'Thornbury Joinery Ltd';

/** The user id a JWT access token is for (its subject). */
const subjectOf = (accessToken: string) => (JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;

/** Turns two-factor sign-in on for risk@demo.test through the API and answers its authenticator. */
async function enrolRisk(): Promise<{ authenticator: OTPAuth.TOTP; userId: string }> {
  const { accessToken } = await oidcSignIn(origin, 'risk@demo.test');
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  const started = await fetch(api('/user/second-factor/enrolment'), { method: 'POST', headers, body: JSON.stringify({ currentPassword: demoPassword }) });
  expect(started.status, await started.clone().text()).toBe(200);
  const { secret } = (await started.json()) as { secret: string };
  const authenticator = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret.replace(/\s+/g, '')) });
  const confirmed = await fetch(api('/user/second-factor/enrolment/confirm'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ code: authenticator.generate() }),
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { authenticator, userId: subjectOf(accessToken) };
}

/** The technical administrator resets risk@demo.test's second factor, so the other journeys sign in as before. */
async function resetRisk(userId: string): Promise<void> {
  const { accessToken } = await oidcSignIn(origin, 'admin@demo.test');
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  await fetch(api('/user/step-up'), { method: 'POST', headers, body: JSON.stringify({ password: demoPassword }) });
  const reset = await fetch(api(`/users/${encodeURIComponent(userId)}/second-factor`), { method: 'DELETE', headers });
  expect(reset.status, await reset.clone().text()).toBe(204);
}

test('risk@demo.test approves a beneficiary from the approval queue, by keyboard, and it leaves the queue', async ({ page }) => {
  test.slow();
  const { authenticator, userId } = await enrolRisk();
  let keystrokes = 0;
  let axeMs = 0;
  const press = async (key: string) => {
    keystrokes += 1;
    await page.keyboard.press(key);
  };
  const type = async (text: string) => {
    keystrokes += text.length;
    await page.keyboard.type(text);
  };
  const axe = async () => {
    const started = performance.now();
    const found = await seriousViolations(page);
    axeMs += performance.now() - started;
    return found;
  };
  try {
    const started = performance.now();
    // Sign in: the email field has the focus; the password; then the provider asks for the code.
    await page.goto('/transactions');
    await expect(page.getByLabel('Email')).toBeFocused();
    await type('risk@demo.test');
    await press('Tab');
    await type(demoPassword);
    await press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Two-factor sign-in' })).toBeVisible();
    await expect(page.getByLabel('Code')).toBeFocused();
    // The code that turned it on is spent: the authenticator's next one (one step of drift is allowed).
    await type(authenticator.generate({ timestamp: Date.now() + 30_000 }));
    await press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
    await expect(page.getByRole('region', { name: /^Transactions/ })).toBeVisible();

    // No context chosen: the queue from the palette.
    await press(`${mod}+k`);
    await expect(page.getByRole('combobox', { name: 'Command palette' })).toBeFocused();
    await type('beneficiary approvals');
    await expect(page.getByRole('option', { name: /^Go to beneficiary approvals/ })).toBeVisible();
    await press('Enter');
    await expect(page).toHaveURL(/\/beneficiary-approvals$/);
    const queue = page.getByRole('grid', { name: 'Beneficiaries awaiting approval' });
    const row = queue.getByRole('rowheader', { name: beneficiaryName });
    await expect(row).toBeVisible();
    // Several businesses are waiting: the seed's owner business among them.
    await expect(queue.getByRole('rowheader', { name: 'Amelia Hartley' })).toBeVisible();
    expect(await axe()).toEqual([]);

    // The business by name: Tab to the Business filter, open it, type the name's first letter until it is reached, tick, apply.
    const businessCell = await row.locator('xpath=..').getByRole('gridcell').first().textContent();
    const businessName = (businessCell ?? '').replace(/\s*\([^)]*\)\s*$/, '').trim();
    expect(businessName).not.toBe('');
    const businessFilter = page.getByRole('button', { name: 'Business: Any' });
    for (let tabs = 0; tabs < 40 && !(await businessFilter.evaluate((element) => element === document.activeElement)); tabs += 1) await press('Tab');
    await expect(businessFilter).toBeFocused();
    await press('Enter');
    const choice = page.getByRole('checkbox', { name: new RegExp(`^${businessName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+\\)$`) });
    await expect(page.getByRole('checkbox').first()).toBeFocused();
    for (let letters = 0; letters < 5 && !(await choice.evaluate((element) => element === document.activeElement)); letters += 1)
      await press((businessName[0] ?? '').toLowerCase());
    await expect(choice).toBeFocused();
    await press('Space');
    await expect(choice).toBeChecked();
    await press('Enter');
    await expect(page).toHaveURL(/\/beneficiary-approvals\?businessid=%5Beq%5D\w+$/);
    await expect(queue.getByRole('rowheader', { name: 'Amelia Hartley' })).toHaveCount(0);
    await expect(row).toBeVisible();
    expect(await axe()).toEqual([]);

    // Escape leaves the filters for the list, on its one row; Shift+Enter opens it beside the queue; Shift+Y approves it.
    await expect(page.getByRole('button', { name: /^Business: / })).toBeFocused();
    await press('Escape');
    await expect(page.locator('tr:focus')).toHaveCount(1);
    await press('Shift+Enter');
    const detail = page.getByRole('heading', { level: 1, name: beneficiaryName });
    await expect(detail).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toBeEnabled();
    await press('Shift+Y');
    await expect(page.getByText('Beneficiary approved.')).toBeVisible();
    await expect(page.getByText(/^Approved \(by Tomasz Nowak/)).toBeVisible();

    // Closing the beneficiary's pane comes back to the queue, which no longer lists it.
    await press('Alt+KeyW');
    await expect(detail).toHaveCount(0);
    await expect(row).toHaveCount(0);
    await expect(queue.getByText('No beneficiary awaiting approval matches these filters.')).toBeVisible();
    const seconds = (performance.now() - started - axeMs) / 1000;
    console.log(
      `[beneficiary-approvals journey] ${keystrokes} keystrokes (typed characters included), ${seconds.toFixed(1)} s without the axe scans (${(axeMs / 1000).toFixed(1)} s of axe)`,
    );
  } finally {
    await resetRisk(userId);
  }
});
