// A lock felt at once, against the real server in Chromium: "A user's 'Sign-in and security' tab does not refresh
// after Lock or Unlock and omits the locked user's refused sign-in. A locked user's open tab stays on screen until its
// next call: sign it out through the live events stream." admin@demo.test locks readonly@demo.test while that user's
// page is open in a browser of its own: that page goes to the signed-out page at once, saying why; the admin's tab
// shows the lock, then (after Unlock, which also gives the account back to the other journeys) the refused sign-in.
import { expect, test } from '@playwright/test';
import { demoPassword, expectNoSeriousViolations, signIn } from './support.ts';

test('admin@demo.test locks a user whose page is open elsewhere: that page signs out at once; the tab shows the lock and the refused sign-in', async ({
  page,
  browser,
}) => {
  // Two people, two sign-ins, a lock and an unlock: more than the default on a busy machine.
  test.slow();
  const lockedContext = await browser.newContext();
  const lockedPage = await lockedContext.newPage();
  try {
    // The locked user's tab, with its live events stream open.
    const streamOpened = lockedPage.waitForResponse((response) => new URL(response.url()).pathname === '/api/portal/events' && response.status() === 200, {
      timeout: 60_000,
    });
    await signIn(lockedPage, 'readonly@demo.test', '/profile');
    await streamOpened;

    await signIn(page, 'admin@demo.test', '/users?name=%5Beq%5DHannah%20Price', 'keyboard');
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByRole('rowheader', { name: 'Hannah Price' }).locator('a').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hannah Price' })).toBeVisible();
    await page.getByRole('tab', { name: 'Sign-in and security' }).click();
    const trail = page.getByRole('region', { name: 'Recent audit events' });
    await page.getByRole('button', { name: 'Lock sign-in' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Lock Hannah Price?' });
    await confirm.getByRole('button', { name: 'Lock sign-in' }).click();
    const locked = performance.now();

    // The other browser is signed out without touching it, and told why.
    await lockedPage.waitForURL((url) => url.pathname === '/signed-out', { timeout: 10_000 });
    const signedOutAfterMs = performance.now() - locked;
    console.log(`live sign-out: the locked user's tab reached /signed-out ${signedOutAfterMs.toFixed(0)} ms after the lock was confirmed`);
    expect(signedOutAfterMs).toBeLessThan(10_000);
    await expect(lockedPage.getByRole('alert')).toHaveText('Your account has been locked, so you have been signed out. Ask your administrator to unlock it.');
    await expectNoSeriousViolations(lockedPage);

    // The admin's tab shows the lock without being reloaded.
    await expect(page.getByText('Hannah Price can no longer sign in; their sessions have ended.')).toBeVisible();
    await expect(trail.getByRole('cell', { name: 'User Locked', exact: true })).toBeVisible();

    // The locked user tries again with the right password: refused with the ordinary message.
    await lockedPage.getByRole('button', { name: 'Sign in again' }).click();
    await lockedPage.getByLabel('Email').fill('readonly@demo.test');
    await lockedPage.getByLabel('Password').fill(demoPassword);
    await lockedPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(lockedPage.getByText('The email address or password is incorrect.')).toBeVisible();

    // Unlock: the tab refreshes again, now with the unlock and the refused sign-in, said as such.
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByText('Hannah Price can sign in again.')).toBeVisible();
    await expect(trail.getByRole('cell', { name: 'User Unlocked', exact: true })).toBeVisible();
    await expect(trail.getByRole('cell', { name: 'Sign In Failed: refused: the account is locked' })).toBeVisible();
  } finally {
    await lockedContext.close();
  }
});
