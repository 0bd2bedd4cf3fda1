// Links opened signed out, keyboard only: a four-pane link comes back whole after sign-in and the context step (it
// was wrapped twice, '/context?route=/context?route=…', and landed on the dashboard), and a link to one record opens
// that record in its own context without the picker. axe on each screen; keystrokes and seconds are logged.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

const owner = 'owner@demo.test';
// Sign-in, the context step and four panes loading: more than the default 90 s on a loaded machine.
test.describe.configure({ timeout: 240_000 });
const appliedContext = (page: Page) => page.getByLabel('Applied context');

/** Counts the keys a journey presses (typing the credentials aside). */
function keyCounter(page: Page) {
  let presses = 0;
  return {
    press: async (key: string) => {
      presses += 1;
      await page.keyboard.press(key);
    },
    count: () => presses,
  };
}

/** Two transaction references the owner can see, read from the overview as the owner (in a browser context of its own). */
async function ownersTransactions(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, owner, '/transactions');
    // The transactions overview may ask for a context first, or list what the owner reaches without one.
    const merchants = page.getByRole('listbox', { name: /Merchants/ });
    const overview = page.getByRole('region', { name: /^Transactions/ });
    await expect(merchants.or(overview).first()).toBeVisible({ timeout: 60_000 });
    if (await merchants.isVisible()) {
      await merchants.getByRole('option').first().click();
      await page.getByRole('button', { name: 'Apply' }).click();
    }
    await expect(overview).toBeVisible();
    const links = page.locator('a[href^="/transactions/"]');
    await expect(links.first()).toBeVisible();
    const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    return [...new Set(hrefs)].slice(0, 2).map((href) => decodeURIComponent(href.slice('/transactions/'.length)));
  } finally {
    await context.close();
  }
}

test('a four-pane link opened signed out comes back whole after sign-in and the context step', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  // The link 'Copy link to this view' makes: the focused pane owns the path, the others ride in `panes`.
  const link = `/transactions?panes=${['/dashboard', '_', '/tickets?status=Open', '/profile'].map((entry) => (entry === '_' ? entry : encodeURIComponent(entry))).join(',')}`;
  const keys = keyCounter(page);
  const started = performance.now();

  await signIn(page, owner, link, 'keyboard');
  // Wrapped once, the whole link in its route.
  await expect(page).toHaveURL(`/context?${new URLSearchParams({ route: link }).toString()}`);
  const merchants = page.getByRole('listbox', { name: /Merchants/ });
  await expect(merchants).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search businesses and merchants' })).toBeFocused();
  await expectNoSeriousViolations(page);

  await keys.press('ArrowDown');
  await expect(merchants).toBeFocused();
  await keys.press('ArrowDown');
  await keys.press('Enter');
  await keys.press(`${mod}+Enter`);

  // Back whole: the same four panes in the same order, the focused one owning the address bar.
  await expect(page).toHaveURL(link);
  await expect(page.getByRole('region', { name: /^Dashboard \(pane 1 of 4\)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Transactions \(pane 2 of 4\)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /\(pane 3 of 4\)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^My profile \(pane 4 of 4\)/ })).toBeVisible();
  await expect(appliedContext(page)).toContainText('Harbour & Finch Homeware Ltd');
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `[links] four-pane link after sign-in: ${keys.count()} keys after the credentials (Enter to submit them aside), ${seconds.toFixed(1)} s from opening the link`,
  );

  // Four panes at 1600 px: no breadcrumb runs under its pane's buttons, no status badge is cut, and a merchant name
  // the column ellipsises is whole in its row's accessible name.
  const overlaps = await page.locator('.pane-header').evaluateAll((headers) =>
    headers.flatMap((header) => {
      const crumbs = header.querySelector('.breadcrumb')?.getBoundingClientRect();
      const actions = header.querySelector('.pane-actions')?.getBoundingClientRect();
      return crumbs && actions && crumbs.right > actions.left + 0.5 ? [header.textContent ?? ''] : [];
    }),
  );
  expect(overlaps).toEqual([]);
  const transactions = page.getByRole('region', { name: /^Transactions \(pane 2 of 4\)/ });
  await expect(transactions.locator('tbody tr').first()).toBeVisible();
  const cutBadges = await transactions
    .locator('.status-chip')
    .evaluateAll((chips) =>
      chips
        .filter(
          (chip) =>
            chip.scrollWidth > chip.clientWidth + 1 || chip.getBoundingClientRect().right > (chip.parentElement?.getBoundingClientRect().right ?? 0) + 0.5,
        )
        .map((chip) => chip.textContent),
    );
  expect(cutBadges).toEqual([]);
  // The longest cell of the first row (the merchant's name): whole in the row's accessible name, ellipsised or not.
  const cells = await transactions.locator('tbody tr').first().locator('td, th').allTextContents();
  const longest = cells.reduce((best, text) => (text.trim().length > best.length ? text.trim() : best), '');
  expect(longest.length).toBeGreaterThan(0);
  await expect(transactions.getByRole('row', { name: new RegExp(longest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first()).toBeVisible();
  await expectNoSeriousViolations(page);
});

test('a link to one record opens it after sign-in, without the context picker', async ({ page, browser }) => {
  const [reference] = await ownersTransactions(browser);
  expect(reference).toBeTruthy();
  // Any sign of the picker in any document of the journey counts.
  await page.addInitScript(() => {
    const flag = () => {
      if (document.querySelector('.context-panel')) (window as unknown as { contextPanelSeen: boolean }).contextPanelSeen = true;
    };
    new MutationObserver(flag).observe(document, { subtree: true, childList: true });
  });
  const link = `/transactions/${encodeURIComponent(reference ?? '')}`;
  const started = performance.now();
  await signIn(page, owner, link, 'keyboard');
  await expect(page).toHaveURL(link);
  // A transaction needs no context (its screen is context-free): it opens as named, with no picker on the way.
  await expect(page.getByRole('region', { name: new RegExp(`^Transaction ${reference}`) })).toBeVisible();
  const seconds = (performance.now() - started) / 1000;
  expect(await page.evaluate(() => (window as unknown as { contextPanelSeen?: boolean }).contextPanelSeen ?? false)).toBe(false);
  console.log(`[links] record link after sign-in: 0 keys after the credentials, ${seconds.toFixed(1)} s from opening the link`);
  await expectNoSeriousViolations(page);

  // A record that is not the owner's: nothing is applied from it, the picker asks as before.
  await page.goto('/context?route=%2Ftransactions%2FTXNOTANYONES0');
  await expect(page.getByRole('listbox', { name: /Merchants/ })).toBeVisible();
});
