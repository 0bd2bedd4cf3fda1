// The billing desk by keyboard only: billing@demo.test finds an invoice from the palette by its number (the full
// number, then the short one), opens it with Enter and reads its balance due after a credit note, issuing one
// through the invoice's own credit note dialog (from the palette) when the invoice has none yet. The filters of the
// invoice list apply on Enter in their fields. axe finds nothing serious or critical on the screens passed. The keys
// pressed and the seconds taken are logged.
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

/** The keyboard, counting what the person presses (a typed text counts a key per character). */
function countedKeyboard(page: Page) {
  let keys = 0;
  return {
    press: async (key: string) => {
      keys += 1;
      await page.keyboard.press(key);
    },
    type: async (text: string) => {
      keys += text.length;
      await page.keyboard.type(text);
    },
    get count() {
      return keys;
    },
  };
}

/** '£1,234.56' or '-£1.00' → minor units. */
const minorOf = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, '')) * 100);

test('billing@demo.test finds an invoice by its number from the palette and reads its balance due after a credit note', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'billing@demo.test', '/billing?status=overdue', 'keyboard');
  const invoices = page.getByRole('grid', { name: 'Invoices' });
  // The seed leaves one invoice unpaid and overdue: its number is what the desk is asked about.
  const number = (await invoices.getByRole('rowheader').first().textContent())?.trim() ?? '';
  expect(number).toMatch(/^INV-\d{4}-\d{6}$/);
  await expectNoSeriousViolations(page);

  const keyboard = countedKeyboard(page);
  const started = performance.now();

  // The full number in the palette: the invoice is offered under Invoices, Enter opens it.
  await keyboard.press(`${mod}+k`);
  await expect(page.getByRole('combobox', { name: 'Command palette' })).toBeFocused();
  await keyboard.type(number);
  const found = page.getByRole('group', { name: 'Invoices' }).getByRole('option', { name: new RegExp(`Invoice ${number}`) });
  await expect(found).toBeVisible({ timeout: 15_000 });
  await expect(found).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousViolations(page);
  await keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${number}` })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/billing\/invoices\/INV[0-9A-Za-z]+$/);
  const toFind = { keys: keyboard.count, seconds: (performance.now() - started) / 1000 };

  // No credit note yet: issue one through the invoice's dialog, from the palette.
  const balance = page.getByTestId('balance-due');
  const before = minorOf((await balance.textContent()) ?? '');
  if (await page.getByText('No credit notes.').isVisible()) {
    await keyboard.press(`${mod}+k`);
    await keyboard.type('issue credit note');
    await expect(page.getByRole('option', { name: /^Issue credit note/ })).toHaveAttribute('aria-selected', 'true');
    await keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Issue a credit note for ${number}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Reason' })).toBeFocused();
    await expectNoSeriousViolations(page);
    await keyboard.type('Goodwill: duplicate fee');
    await keyboard.press('Tab');
    await keyboard.type('1.00');
    await keyboard.press('Enter');
    await expect(page.getByText(/^Credit note CN-\d{4}-\d{6} issued for /)).toBeVisible({ timeout: 15_000 });
    await expect(dialog).toBeHidden();
    await expect.poll(async () => minorOf((await balance.textContent()) ?? '')).toBe(before - 100);
  }
  // The balance due is the total less the credit notes.
  const total = minorOf(
    (await page
      .getByRole('row', { name: /^Total / })
      .getByRole('cell')
      .last()
      .textContent()) ?? '',
  );
  const credited = minorOf(
    (await page
      .getByRole('row', { name: /^Credited / })
      .getByRole('cell')
      .last()
      .textContent()) ?? '',
  );
  expect(credited).toBeLessThan(0);
  expect(minorOf((await balance.textContent()) ?? '')).toBe(total + credited);
  await expect(page.getByRole('heading', { level: 2, name: 'Credit notes' })).toBeVisible();
  await expectNoSeriousViolations(page);

  // The short number as printed (the sequence with its zeros) finds it too, beside any credit note of that sequence.
  const short = number.slice(-6);
  await keyboard.press(`${mod}+k`);
  await keyboard.type(short);
  await expect(page.getByRole('group', { name: 'Invoices' }).getByRole('option', { name: new RegExp(`Invoice ${number}`) })).toBeVisible({ timeout: 15_000 });
  await keyboard.press('Escape');

  // The list's filters apply on Enter in their fields: the number, then a month typed as mm/yyyy.
  await keyboard.press('g');
  await keyboard.press('i');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Invoice number' })).toBeFocused();
  await keyboard.type(number);
  await keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`number=${number}`));
  await expect(invoices.getByRole('rowheader')).toHaveText([number]);
  await expectNoSeriousViolations(page);

  const seconds = (performance.now() - started) / 1000;
  console.log(
    `billing desk: found ${number} from the palette in ${toFind.keys} keys, ${toFind.seconds.toFixed(1)} s; whole journey ${keyboard.count} keys, ${seconds.toFixed(1)} s`,
  );
});
