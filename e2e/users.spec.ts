// Users journeys against the real server in Chromium: an owner invites a finance user by keyboard and the invitee
// accepts from the link in the email the portal sent (through the SMTP server scripts/e2e.ts starts), then signs in
// and sees only the owner's business; the account whose password has expired changes it inside the sign-in before
// the portal opens; a technical admin unlocks a locked user; the expiring account resets its password from the
// emailed link ('Forgot your password?'), turns on two-factor sign-in from /profile and is asked for a code at the
// next sign-in. axe scans of the overview, the add form, the user detail, the invitation page, the reset request and
// the profile.
import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { demoPassword, emailTo, signIn, expectNoSeriousViolations } from './support.ts';

test('owner@demo.test invites a new finance user by keyboard; the invitee accepts from the email and sees only that business', async ({ page, browser }) => {
  // Two people, five axe scans and two emails through SMTP: more than the default 90 s on a busy machine.
  test.slow();
  await signIn(page, 'owner@demo.test', '/users', 'keyboard');
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(grid.getByRole('rowheader').first()).toBeVisible();
  // Only the owner's business: no internal users.
  await expect(grid.getByRole('rowheader', { name: 'Priya Shah' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await page.locator('body').focus();
  await page.keyboard.press('Shift+N');
  await expect(page).toHaveURL(/\/users\/add$/);
  await expect(page.getByLabel('Email addresses')).toBeFocused();
  const email = `new.finance.${Date.now()}@harbour-finch.example`;
  await page.keyboard.type(email);
  const businessOption = await page.getByLabel('Add a business').locator('option', { hasText: 'Harbour & Finch' }).getAttribute('value');
  await page.getByLabel('Add a business').selectOption(businessOption ?? '');
  // The choice is added on Enter (arrow keys only move through the options).
  await page.getByLabel('Add a business').focus();
  await page.keyboard.press('Enter');
  const roleGroups = page.getByRole('group', { name: /Role groups for Harbour & Finch/ });
  await roleGroups.getByRole('button', { name: 'Finance', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(roleGroups.getByRole('button', { name: 'Finance', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('checkbox', { name: /^Finance at Harbour & Finch/ })).toBeChecked();
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Send invitation' }).focus();
  await page.keyboard.press('Enter');

  await expect(page.getByText('An invitation has been sent (valid 7 days).')).toBeVisible();
  await expect(page).toHaveURL(/\/users\/USR/);
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  await expect(page.getByText('Invited', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign-in and security' }).click();
  await expect(page.getByText(/Invitation pending: sent/)).toBeVisible();
  await expectNoSeriousViolations(page);

  // The invitee, in a browser of their own, follows the link in the email that reached the SMTP server.
  const invitation = await emailTo(email);
  // The invitation names the business it is for, in the subject and the body.
  expect(invitation.subject).toMatch(/invited you to Harbour & Finch.* on the payments portal$/);
  expect(invitation.text).toMatch(/has invited you to the payments portal, as Finance of Harbour & Finch/);
  const link = invitation.link('/user-invite');
  expect(link?.searchParams.get('InviteId')).toBeTruthy();
  const invitee = await browser.newContext();
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(link?.href ?? '');
  await expect(inviteePage.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
  await expect(inviteePage.getByText(email)).toBeVisible();
  await expect(inviteePage.getByLabel('First name')).toBeFocused();
  await inviteePage.keyboard.type('Nell');
  await inviteePage.getByLabel('Last name').fill('Finch');
  // The strength estimator's feedback is shown before anything is sent.
  await inviteePage.getByLabel('Password', { exact: true }).fill('password1');
  await expect(inviteePage.getByRole('meter', { name: 'Password strength' })).toBeVisible();
  const chosen = 'Quartz-heron-lantern-73';
  await inviteePage.getByLabel('Password', { exact: true }).fill(chosen);
  await inviteePage.getByLabel('Repeat the password').fill(chosen);
  await expectNoSeriousViolations(inviteePage);
  await inviteePage.getByRole('button', { name: 'Create account' }).press('Enter');
  // Signed in straight away: no sign-in page, no password asked again.
  await inviteePage.waitForURL((url) => !['/user-invite', '/sign-in'].includes(url.pathname) && !url.pathname.startsWith('/connect'), { timeout: 30_000 });
  const welcome = await emailTo(email, 'Welcome to the payments portal');
  expect(welcome.text).toContain('Welcome, Nell');

  // The link is single-use: opened again, it has expired.
  const again = await invitee.newPage();
  await again.goto(link?.href ?? '');
  await expect(again.getByRole('alert')).toHaveText('Oops that link has expired.');
  await again.close();

  // Signed in, the new user sees the owner's business and nothing else.
  const search = inviteePage.getByRole('searchbox', { name: 'Search businesses and merchants' });
  await expect(search).toBeVisible();
  await search.fill('Little Wren');
  await expect(inviteePage.getByText('no context for Little Wren')).toBeVisible();
  await search.fill('Harbour');
  await expect(inviteePage.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toContainText('Harbour & Finch Homeware Ltd');
  await invitee.close();
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
  await expectNoSeriousViolations(page);
});

test('expiring@demo.test forgets the password, chooses a new one from the emailed link, then turns on two-factor sign-in', async ({ page, browser }) => {
  test.slow();
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('expiring@demo.test');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(
    'If an account exists for this email address, we have sent it a link to reset the password. The link is valid for 15 minutes.',
  );
  await expectNoSeriousViolations(page);

  const mail = await emailTo('expiring@demo.test', 'Reset your payments portal password');
  const link = mail.link('/connect/reset-password');
  expect(link?.searchParams.get('token')).toBeTruthy();
  await page.goto(link?.href ?? '');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toBeFocused();
  const fresh = 'Thistle-ferry-compass-64';
  await page.keyboard.type(fresh);
  await page.getByLabel('Repeat the new password').fill(fresh);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  await page.goto('/dashboard');
  await page.getByLabel('Email').fill('expiring@demo.test');
  await page.getByLabel('Password').fill(fresh);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
  await expect(page.getByRole('navigation').first()).toBeVisible();

  // Two-factor sign-in from the profile: the password again, the key (as an authenticator app reads it from the QR
  // code), the first code; ten recovery codes shown once.
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByLabel('Your password').fill(fresh);
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await section.getByLabel('Key for typing').textContent()) ?? '').replace(/\s+/g, '');
  const authenticator = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
  await section.getByLabel('Code from the app').fill(authenticator.generate());
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('region', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await expectNoSeriousViolations(page);

  // In another browser the password alone no longer opens the portal: the provider asks for a code.
  const elsewhere = await browser.newContext();
  const second = await elsewhere.newPage();
  await second.goto('/dashboard');
  await second.getByLabel('Email').fill('expiring@demo.test');
  await second.getByLabel('Password').fill(fresh);
  await second.getByRole('button', { name: 'Sign in' }).click();
  await expect(second.getByRole('heading', { level: 1, name: 'Two-factor sign-in' })).toBeVisible();
  await expect(second.getByLabel('Code')).toBeFocused();
  await second.keyboard.type('000000');
  await second.keyboard.press('Enter');
  await expect(second.getByRole('alert')).toHaveText('That code is not right. Enter the current code from your authenticator app, or a recovery code.');
  // The code that turned it on is spent; the authenticator's next one is accepted (one step of drift allowed).
  await second.getByLabel('Code').fill(authenticator.generate({ timestamp: Date.now() + 30_000 }));
  await second.keyboard.press('Enter');
  await second.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
  await expect(second.getByRole('navigation').first()).toBeVisible();
  await elsewhere.close();
});
