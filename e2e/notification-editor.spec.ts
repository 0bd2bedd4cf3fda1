// Writing a scheduled notification by keyboard only: service@demo.test (customer service, an author) opens 'Create
// notification' from the palette, picks a business by name in the audience picker (type, ↓, Enter), reads who will
// see it, sets 'Publish at' with the portal's date and time entry (dd/mm/yyyy, 24-hour, ↑ steps 5 minutes) after a
// year beyond 9999 is refused, and saves with Ctrl+Enter. axe finds nothing serious or critical on the editor. The
// keys pressed and the seconds taken are logged.
import { expect, test, type Page } from '@playwright/test';
import { mod, signIn, expectNoSeriousViolations } from './support.ts';

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

test('service@demo.test schedules a notification for one business picked by name, by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'service@demo.test', '/notifications', 'keyboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const keyboard = countedKeyboard(page);
  const started = performance.now();

  await keyboard.press(`${mod}+k`);
  await keyboard.type('create notification');
  await expect(page.getByRole('option', { name: /^Create notification/ })).toHaveAttribute('aria-selected', 'true');
  await keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New notification' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeFocused();
  await keyboard.type('Bank holiday payouts');
  await keyboard.press('Tab');
  // The toolbar is one tab stop; the text follows it.
  await expect(page.getByRole('button', { name: '¶, Paragraph' })).toBeFocused();
  await keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Notification text' })).toBeFocused();
  await keyboard.type('Payouts due on Monday arrive on Tuesday.');

  // Who reads it: all users (the default), only one business, picked by name.
  const picker = page.getByRole('combobox', { name: 'Add a business or partner' });
  await keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Who reads it' })).toBeFocused();
  await keyboard.press('Tab');
  await expect(picker).toBeFocused();
  await keyboard.type('little wren');
  const option = page.getByRole('option', { name: /^Little Wren Bakery Ltd/ });
  await expect(option).toHaveAttribute('aria-selected', 'true', { timeout: 10_000 });
  await keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Little Wren Bakery Ltd, business: remove' })).toBeVisible();
  await expect(page.getByText("Who will see it: Users of 1 business and their partners' users. Internal users see it too.")).toBeVisible();
  await expect(picker).toBeFocused();
  await expect(picker).toHaveValue('');

  // Ready for publication at a time: the status, then the portal's date and time entry.
  const status = page.getByRole('combobox', { name: 'Status' });
  await keyboard.press('Tab');
  await expect(status).toBeFocused();
  await keyboard.press('ArrowDown');
  await expect(status).toHaveValue('readyForPublication');
  const publishAt = page.getByRole('group', { name: 'Publish at (optional; your time zone)' });
  const date = publishAt.getByRole('textbox', { name: 'Date' });
  await keyboard.press('Tab');
  await expect(date).toBeFocused();
  await keyboard.type('25/12/20300');
  await keyboard.press('Tab');
  await expect(publishAt.getByRole('alert')).toHaveText('The year must be 9999 or earlier.');
  await keyboard.press('Shift+Tab');
  await expect(date).toBeFocused();
  await keyboard.press('End');
  await keyboard.press('Backspace');
  await keyboard.press('ArrowUp');
  await expect(date).toHaveValue('26/12/2030');
  await keyboard.press('Tab');
  await keyboard.type('08:55');
  await keyboard.press('ArrowUp');
  await expect(publishAt.getByRole('textbox', { name: 'Time' })).toHaveValue('09:00');
  await expect(publishAt.getByRole('alert')).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await keyboard.press(`${mod}+Enter`);
  await expect(page.getByText("'Bank holiday payouts' is saved.")).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/notifications\/edit\/NTF[0-9A-F]+$/);
  // Read back: the chip names the business, the time is the one set.
  await expect(page.getByRole('button', { name: 'Little Wren Bakery Ltd, business: remove' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('group', { name: 'Publish at (optional; your time zone)' }).getByRole('textbox', { name: 'Date' })).toHaveValue('26/12/2030');
  await expect(page.getByRole('group', { name: 'Publish at (optional; your time zone)' }).getByRole('textbox', { name: 'Time' })).toHaveValue('09:00');
  await expectNoSeriousViolations(page);

  console.log(`notification editor: scheduled for one business in ${keyboard.count} keys, ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
