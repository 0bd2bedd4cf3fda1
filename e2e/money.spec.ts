// Money that reads right and presets that stay true (shared presets), in Chromium against the
// real server: the keyboard-only journey 'last month's refunded EUR transactions over €50, exported' (keystrokes
// counted), and a preset one user of a business shares and another uses.
import { expect, test, type Page } from '@playwright/test';
import { signIn, expectNoSeriousViolations } from './support.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Transactions' });
const rows = (page: Page) => grid(page).locator('tbody tr[data-index]');

/** Every key the journey presses goes through here, so the count is the journey's. */
function keyboard(page: Page) {
  let count = 0;
  const press = async (key: string) => {
    count += 1;
    await page.keyboard.press(key);
  };
  return {
    press,
    type: async (text: string) => {
      count += text.length;
      await page.keyboard.type(text);
    },
    /** Tab (Shift+Tab backwards, ArrowDown in a listbox; at most `limit` times) until the focused element's accessible name matches. */
    tabTo: async (name: RegExp, limit = 25, key = 'Tab') => {
      for (let step = 0; step < limit; step += 1) {
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element) return '';
          const labelled = element.getAttribute('aria-label');
          const label = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null;
          return labelled ?? label ?? element.closest('label')?.textContent ?? element.textContent ?? '';
        });
        if (name.test(focused.trim())) return;
        await press(key);
      }
      throw new Error(`never reached ${String(name)} by Tab`);
    },
    get count() {
      return count;
    },
  };
}

test("keyboard only: last month's refunded EUR transactions over €50, exported", async ({ page }) => {
  await signIn(page, 'admin@demo.test', '/transactions', 'keyboard');
  await expect(rows(page).first()).toBeVisible();
  const keys = keyboard(page);

  // Shift+F: the filters, on the first of them (Type). Enter opens it; its values are a listbox (one tab stop: the
  // arrows or a first letter move, Space ticks a draft, Enter applies).
  await keys.press('Shift+F');
  await expect(page.getByRole('button', { name: /^Type:/ })).toBeFocused();
  await keys.press('Enter');
  await expect(page.getByRole('checkbox', { name: 'Payment' })).toBeFocused();
  await keys.press('r');
  await expect(page.getByRole('checkbox', { name: 'Refund' })).toBeFocused();
  await keys.press('Space');
  await keys.press('Enter');
  await expect(page).toHaveURL(/kind=%5Beq%5Drefund/);
  await keys.tabTo(/^Currency:/);
  await keys.press('Enter');
  await keys.tabTo(/^EUR$/, 25, 'ArrowDown');
  await keys.press('Space');
  await keys.press('Enter');
  await expect(page).toHaveURL(/currency=%5Beq%5Deur/);

  // At least 50, in the one currency chosen.
  await keys.tabTo(/^Minimum amount$/);
  await keys.type('50');
  await keys.press('Enter');
  await expect(page).toHaveURL(/amount=%5Bgte%5D50/);

  // The date button (back from the amount field: shortcuts do not fire in a text field), its presets (a listbox:
  // 'l' goes to Last week, 'l' again to Last month); Enter applies it at once.
  await keys.tabTo(/^Date/, 25, 'Shift+Tab');
  await keys.press('Enter');
  const dates = page.getByRole('dialog', { name: 'Transaction dates' });
  await expect(dates.getByRole('button', { name: 'Today' })).toBeFocused();
  await keys.press('l');
  await keys.press('l');
  await expect(dates.getByRole('button', { name: 'Last month' })).toBeFocused();
  await keys.press('Enter');
  await expect(page).toHaveURL(/date=%5Bgte%5D/);
  await expect(grid(page)).not.toHaveAttribute('aria-busy', 'true');

  // Every row is a EUR refund of at least €50, negative and badged.
  const count = await rows(page).count();
  for (let index = 0; index < Math.min(count, 10); index += 1) {
    const row = rows(page).nth(index);
    await expect(row).toContainText('Refund');
    const amount = (await row.locator('td:nth-child(4)').textContent()) ?? '';
    expect(amount).toMatch(/^-€/);
    expect(Number(amount.replace(/[^\d.]/g, ''))).toBeGreaterThanOrEqual(50);
  }
  await expectNoSeriousViolations(page);

  // Shift+X: export every matching row.
  await keys.press('Shift+X');
  const dialog = page.getByRole('dialog', { name: 'Export transactions' });
  await expect(dialog).toBeVisible();
  await keys.tabTo(/^Export$/);
  await keys.press('Enter');
  await expect(page.getByText('Your report has been queued.')).toBeVisible();
  console.log(`[money] keystrokes for the journey: ${keys.count}`);
  expect(keys.count).toBeLessThanOrEqual(60);
});

test('a preset shared with the business is used, read-only, by another user of it', async ({ browser }) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, 'owner@demo.test', '/context?route=%2Ftransactions', 'keyboard');
  await owner
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: /Harbour & Finch Homeware Online/ })
    .click();
  await owner.getByRole('button', { name: 'Apply' }).click();
  await expect(owner).toHaveURL(/\/transactions$/);
  await expect(rows(owner).first()).toBeVisible();
  await owner.keyboard.press('Shift+F');
  await owner.keyboard.press('Enter');
  await owner.getByRole('checkbox', { name: 'Refund' }).focus();
  await owner.keyboard.press('Space');
  await owner.keyboard.press('Enter');
  await expect(owner).toHaveURL(/kind=%5Beq%5Drefund/);
  await owner.getByRole('button', { name: 'Presets' }).focus();
  await owner.keyboard.press('Enter');
  await owner.getByLabel('Save current filters as').fill('Team: refunds');
  await owner.getByRole('checkbox', { name: /Share with everyone on this business/ }).check();
  await owner.getByRole('button', { name: 'Save preset' }).click();
  await expect(owner.getByText("Filter preset 'Team: refunds' saved.")).toBeVisible();
  await ownerContext.close();

  // partner@demo.test works on the same business (Harbour & Finch, through its partner).
  const partnerContext = await browser.newContext();
  const partner = await partnerContext.newPage();
  await signIn(partner, 'partner@demo.test', '/context?route=%2Ftransactions', 'keyboard');
  await partner
    .getByRole('listbox', { name: 'Businesses' })
    .getByRole('option', { name: /Harbour & Finch Homeware Ltd/ })
    .click();
  await partner
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option', { name: /Harbour & Finch Homeware Online/ })
    .click();
  await partner.getByRole('button', { name: 'Apply' }).click();
  await expect(partner).toHaveURL(/\/transactions$/);
  await expect(rows(partner).first()).toBeVisible();
  await partner.getByRole('button', { name: 'Presets' }).focus();
  await partner.keyboard.press('Enter');
  const shared = partner.getByRole('listitem').filter({ hasText: 'Team: refunds' });
  await expect(shared).toContainText('Shared with the business by Olivia Bennett (read-only)');
  await expect(shared).toContainText('Type: Refund');
  await expect(partner.getByRole('button', { name: 'Remove preset Team: refunds' })).toHaveCount(0);
  await expectNoSeriousViolations(partner);
  await partner.getByRole('button', { name: 'Team: refunds' }).focus();
  await partner.keyboard.press('Enter');
  await expect(partner).toHaveURL(/kind=%5Beq%5Drefund/);
  await expect(partner.getByText("Filter preset 'Team: refunds' applied.")).toBeVisible();
  await partnerContext.close();
});
