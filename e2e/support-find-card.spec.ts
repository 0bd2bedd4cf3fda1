// Customer service finds a caller's payment by the card's last four digits and refunds it from the transaction, keyboard
// only, against the real server: the palette's preview and the list it opens agree (filters and scope), the list has
// the card filter applied, and the transaction offers the payment job's refund (Shift+R). Axe on every screen passed;
// keystrokes and seconds are counted and printed.
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Transactions' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

/** Every key the journey presses goes through here, so the count is the journey's. */
function keyboard(page: Page) {
  let count = 0;
  return {
    press: async (key: string) => {
      count += 1;
      await page.keyboard.press(key);
    },
    type: async (text: string) => {
      count += text.length;
      await page.keyboard.type(text);
    },
    get count() {
      return count;
    },
  };
}

test('service@demo.test finds yesterday’s payments of a card by its last four and refunds one from the transaction, keyboard only', async ({ page }) => {
  // Axe on five screens and up to six look-ups: more than the default 90 s on a busy machine.
  test.setTimeout(300_000);
  await signIn(page, 'service@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  await expectNoSeriousViolations(page, { label: 'transactions' });
  const keys = keyboard(page);
  const started = Date.now();

  // The caller reads out the last four digits; 4 digits alone are the card's last four in the palette's search.
  await keys.press(`${mod}+k`);
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  const found = page.getByRole('group', { name: 'Transactions' });
  let lastFour = '';
  // The demo world's test cards: the first with a paid payment yesterday (the seed spreads payments over the cards).
  for (const candidate of ['4242', '1111', '4444', '5100', '8210', '0005']) {
    if (lastFour === '' && candidate !== '4242') {
      await keys.press(`${mod}+a`);
      await keys.press('Backspace');
    }
    await keys.type(`${candidate} date:yesterday status:paid is:payment`);
    const overview = page.getByRole('group', { name: 'Overview' }).getByRole('option', { name: /Open transactions/ });
    await expect(overview).toContainText(`last4:${candidate}`);
    await page.waitForTimeout(600); // the look-up follows 250 ms after the last key
    await expect(page.getByText('Looking up records…')).toHaveCount(0);
    if ((await found.getByRole('option').count()) > 0) {
      lastFour = candidate;
      break;
    }
  }
  expect(lastFour).not.toBe('');
  // The preview: yesterday's paid payments of that card, across every merchant (service sees them all).
  await expect(found.getByRole('option').first()).toContainText(/paid/);
  await expect(page.getByRole('group', { name: 'Overview' }).getByRole('option')).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousViolations(page, { label: 'palette' });

  // Enter opens the list with exactly the preview's filters and scope.
  await keys.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/transactions\\?.*last4=%5Beq%5D${lastFour}`));
  await expect(page).toHaveURL(/scope=all/);
  await expect(page).toHaveURL(/status=%5Beq%5Dpaid/);
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Card: last four or first six digits' })).toHaveValue(lastFour);
  await expectNoSeriousViolations(page, { label: 'filtered transactions' });

  // A row opens a payment with Enter; one with something left to refund offers 'Refund…' (Shift+R).
  const total = await rows(page).count();
  let offered = false;
  for (let index = 0; index < Math.min(total, 8) && !offered; index += 1) {
    // The row as Tab reaches it (the table is one tab stop), then Enter.
    await rows(page).nth(index).focus();
    await keys.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: /^Transaction TX/ })).toBeVisible();
    // The offer comes with the payment job's answer; give it a moment before deciding there is none.
    offered = await page
      .getByRole('button', { name: 'Refund…' })
      .waitFor({ timeout: 8_000 })
      .then(
        () => true,
        () => false,
      );
    if (!offered) {
      await keys.press('Alt+ArrowLeft');
      await expect(rows(page).first()).toBeVisible();
    }
  }
  expect(offered).toBe(true);
  await expect(page.getByLabel('Card number')).toContainText(lastFour);
  await expectNoSeriousViolations(page, { label: 'transaction' });

  // Shift+R: the payment job's own refund dialog, for this payment, its amount what is left to refund.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await keys.press('Shift+R');
  const refund = page.getByRole('dialog', { name: 'Refund payment' });
  const amount = refund.getByLabel(/^Amount/);
  await expect(amount).toBeFocused();
  expect(Number(await amount.inputValue())).toBeGreaterThan(0);
  await expectNoSeriousViolations(page, { label: 'refund dialog' });
  await keys.press('Enter');
  await expect(page.getByText(/^Refund of .+ requested/)).toBeVisible();
  await expect(refund).toBeHidden();
  // The whole amount is on its way back: the detail, read again, offers no further refund.
  await expect(page.getByRole('button', { name: 'Refund…' })).toHaveCount(0);
  await expectNoSeriousViolations(page, { label: 'transaction after the refund' });

  const seconds = (Date.now() - started) / 1000;
  console.log(`[support-find-card] last four ${lastFour}: ${keys.count} keystrokes, ${seconds.toFixed(1)} s from the palette to the refund requested`);
  expect(keys.count).toBeLessThanOrEqual(80);
});
