// The support queue against the real server in Chromium, two browsers, by keyboard: owner@demo.test raises a ticket;
// service@demo.test (no context picked: staff's queue is every business) answers it from the Unassigned view, which
// puts it On hold, assigned to them, and rings the owner's bell; the owner replies, which reopens the ticket, flags
// it in the queue ('v r': Updated by requester) and rings the agent's bell. The emailed link opens the ticket at once.
// Keystrokes and seconds of each side are counted and printed. axe on every screen.
import { expect, test, type Page } from '@playwright/test';
import { demoPassword, emailTo, mod, expectNoSeriousViolations } from './support.ts';

/** A person at a keyboard: every key pressed and character typed is counted. */
function keyboardOf(page: Page) {
  let keys = 0;
  return {
    press: async (key: string) => {
      keys += 1;
      await page.keyboard.press(key);
    },
    /** a shortcut sequence such as 'v r': one key per part */
    sequence: async (shortcut: string) => {
      for (const key of shortcut.split(' ')) {
        keys += 1;
        await page.keyboard.press(key);
      }
    },
    type: async (text: string) => {
      keys += [...text].length;
      await page.keyboard.type(text);
    },
    count: () => keys,
  };
}

/** Signs in by keyboard (email, Tab, password, Enter) on `path`. */
async function signInByKeyboard(page: Page, keyboard: ReturnType<typeof keyboardOf>, email: string, path: string) {
  await page.goto(path);
  await page.getByLabel('Email').focus();
  await keyboard.type(email);
  await page.getByLabel('Password').focus();
  await keyboard.type(demoPassword);
  await keyboard.press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/connect') && !url.pathname.startsWith('/sign-in'));
}

const unreadOf = (page: Page) => async () => {
  const label = (await page.getByRole('link', { name: /^Notifications, / }).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
};

test('a merchant’s reply flags the ticket in the staff queue and rings the agent’s bell; a staff reply rings the merchant’s', async ({ browser }) => {
  test.setTimeout(240_000);
  const subject = `Settlement short by one refund ${Date.now() % 100000}`;

  // The merchant raises a ticket (the owner works in one business: the context picker asks first).
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const ownerKeys = keyboardOf(owner);
  const ownerStarted = Date.now();
  await signInByKeyboard(owner, ownerKeys, 'owner@demo.test', '/tickets/add?type=general');
  const heading = owner.getByRole('heading', { name: 'New ticket', level: 1 });
  const choices = owner.getByRole('listbox', { name: /^(Merchants|Businesses)/ }).first();
  await expect(heading.or(choices)).toBeVisible({ timeout: 30_000 });
  if (await choices.isVisible()) {
    await choices.getByRole('option').first().focus();
    await ownerKeys.press('Enter');
    await ownerKeys.press('Control+Enter');
  }
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousViolations(owner);
  await owner.getByRole('textbox', { name: /Subject/ }).focus();
  await ownerKeys.type(subject);
  await ownerKeys.press('Tab');
  await expect(owner.getByRole('textbox', { name: /Description/ })).toBeFocused();
  await ownerKeys.type('The settlement of yesterday is 12.50 short.');
  await ownerKeys.press(`${mod}+Enter`);
  // One readable id format, seeded or new: TCK and five digits.
  await owner.waitForURL(/\/tickets\/TCK\d{5}$/);
  const ticketPath = new URL(owner.url()).pathname;
  const ticketId = ticketPath.split('/').at(-1) ?? '';
  await expect(owner.getByRole('heading', { name: subject, level: 1 })).toBeVisible();
  await expectNoSeriousViolations(owner);
  const ownerUnread = unreadOf(owner);
  await expect(owner.getByRole('link', { name: /^Notifications, / })).toBeVisible();
  const ownerBefore = await ownerUnread();

  // The agent: no business to pick first; the Unassigned view ('v u') shows the new ticket.
  const serviceContext = await browser.newContext();
  const service = await serviceContext.newPage();
  const serviceKeys = keyboardOf(service);
  const serviceStarted = Date.now();
  await signInByKeyboard(service, serviceKeys, 'service@demo.test', '/tickets');
  await expect(service.getByRole('heading', { name: 'Support tickets', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(service.getByRole('listbox', { name: /^(Merchants|Businesses)/ })).toHaveCount(0);
  await service.locator('body').focus();
  await serviceKeys.sequence('v u');
  await expect(service.getByRole('button', { name: 'Unassigned', pressed: true })).toBeVisible();
  // The rows of the Unassigned view, not the previous view's kept on screen while they load.
  await expect(service.getByRole('grid', { name: 'Support tickets' })).not.toHaveAttribute('aria-busy', 'true', { timeout: 15_000 });
  await expect(service.getByRole('rowheader', { name: ticketId })).toBeVisible({ timeout: 15_000 });
  await expectNoSeriousViolations(service);
  const serviceUnread = unreadOf(service);
  const serviceBefore = await serviceUnread();

  // The agent answers: On hold, assigned to them; the merchant's bell rings through the live stream.
  await service.goto(ticketPath);
  await expect(service.getByRole('heading', { name: subject, level: 1 })).toBeVisible({ timeout: 30_000 });
  await service.getByRole('textbox', { name: 'Reply' }).focus();
  await serviceKeys.type('We found the late refund; the difference comes with the next settlement.');
  await serviceKeys.press(`${mod}+Enter`);
  await expect(service.getByRole('article', { name: /^Comment by/ }).last()).toContainText('late refund');
  await expect(service.getByText('On hold').first()).toBeVisible();
  await expectNoSeriousViolations(service);
  const replied = Date.now();
  await expect.poll(ownerUnread, { timeout: 10_000, intervals: [200] }).toBe(ownerBefore + 1);
  const ownerBellMs = Date.now() - replied;
  // The agent goes back to the queue (through the breadcrumb) and works on: the ticket is no longer open on their
  // screen when the merchant answers (an open ticket shows the answer, and that counts as seen).
  await service.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Support' }).focus();
  await serviceKeys.press('Enter');
  await expect(service.getByRole('heading', { name: 'Support tickets', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(service.getByRole('group', { name: 'Queue views' })).toBeVisible();

  // The merchant replies from the ticket: reopened and flagged; the agent's bell rings.
  await owner.reload();
  await expect(owner.getByText('late refund')).toBeVisible({ timeout: 30_000 });
  await owner.getByRole('textbox', { name: 'Reply' }).focus();
  await ownerKeys.type('Thanks, but the refund was on the 3rd, not the 4th.');
  await ownerKeys.press(`${mod}+Enter`);
  await expect(owner.getByRole('article', { name: /^Comment by/ }).last()).toContainText('refund was on the 3rd');
  const ownerSeconds = (Date.now() - ownerStarted) / 1000;
  const merchantReplied = Date.now();
  await expect.poll(serviceUnread, { timeout: 10_000, intervals: [200] }).toBe(serviceBefore + 1);
  const serviceBellMs = Date.now() - merchantReplied;

  // 'v r': the queue's Updated by requester view, with the row flagged (named so for screen readers).
  // Out of any field (the screen may focus its search), as after signing in: the view keys act on the page.
  await service.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await serviceKeys.sequence('v r');
  await expect(service.getByRole('button', { name: 'Updated by requester', pressed: true })).toBeVisible();
  const row = service.getByRole('row').filter({ has: service.getByRole('rowheader', { name: ticketId }) });
  await expect(row).toContainText('Updated by requester', { timeout: 15_000 });
  await expect(row).toContainText('Open');
  await expectNoSeriousViolations(service);
  const serviceSeconds = (Date.now() - serviceStarted) / 1000;

  // The emailed link opens the ticket itself, in a fresh browser, without the context picker.
  const mail = await emailTo('owner@demo.test', `New reply on ticket ${ticketId}: ${subject}`);
  const link = mail.link(ticketPath);
  expect(link).toBeDefined();
  const fresh = await browser.newContext();
  const reader = await fresh.newPage();
  await signInByKeyboard(reader, keyboardOf(reader), 'owner@demo.test', `${link?.pathname ?? ticketPath}`);
  await expect(reader.getByRole('heading', { name: subject, level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(reader.getByRole('listbox', { name: /^(Merchants|Businesses)/ })).toHaveCount(0);
  await expectNoSeriousViolations(reader);

  console.log(
    `merchant: ${ownerKeys.count()} keystrokes, ${ownerSeconds.toFixed(1)} s (sign-in to reply); agent: ${serviceKeys.count()} keystrokes, ${serviceSeconds.toFixed(1)} s; merchant's bell ${ownerBellMs} ms after the staff reply, agent's bell ${serviceBellMs} ms after the merchant's`,
  );
  await fresh.close();
  await ownerContext.close();
  await serviceContext.close();
});
