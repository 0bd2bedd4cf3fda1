// The screens fit a 1280 × 800 screen: the named columns of the tickets, the watch list, the invoices, the report
// queue and the transactions show their whole text (or, where a cell must cut, the row's accessible name carries it),
// status badges are never cut, every control is the portal's own (no bare native select or input), radios sit left
// of their labels with a round focus ring, and with four panes the breadcrumbs neither overlap nor hide the pane's
// title or buttons. Each screen is also scanned by axe.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { signIn, expectNoSeriousViolations, seriousViolations } from './support.ts';

test.use({ viewport: { width: 1280, height: 800 } });

async function settled(page: Page): Promise<void> {
  await expect(page.locator('main h1, [role="main"] h1').first()).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
}

/**
 * The cells of the column headed `header` in `table` that are cut (wider or taller than their box) and whose whole
 * text is not in their row's accessible name. A visible column is required: one dropped for want of room fails.
 */
async function cutCells(table: Locator, header: string): Promise<string[]> {
  const column = table.getByRole('columnheader', { name: new RegExp(`^${header}`) });
  await expect(column).toBeVisible();
  const index = await column.getAttribute('aria-colindex');
  const cells = table.locator(`tbody tr[aria-rowindex] > [aria-colindex="${index}"]`);
  await expect(cells.first()).toBeVisible();
  const found: string[] = [];
  for (const cell of await cells.all()) {
    const cut = await cell.evaluate((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    if (!cut) continue;
    // Cut on screen: the row's accessible name (from its content, as a screen reader hears it) must hold the whole text.
    const text = ((await cell.textContent()) ?? '').trim();
    if ((await table.getByRole('row', { name: text }).count()) === 0) found.push(`${header}: ${text}`);
  }
  return found;
}

/** Status badges cut inside their cell (narrower than their text, or running past the cell). */
async function cutBadges(table: Locator): Promise<string[]> {
  return table.locator('tbody .status-chip').evaluateAll((chips) =>
    chips.flatMap((chip) => {
      const cell = chip.closest('td, th');
      if (!cell) return [];
      const chipBox = chip.getBoundingClientRect();
      const cellBox = cell.getBoundingClientRect();
      const cut = chip.scrollWidth > chip.clientWidth + 1 || chipBox.right > cellBox.right + 1 || chipBox.bottom > cellBox.bottom + 1;
      return cut ? [chip.textContent ?? ''] : [];
    }),
  );
}

/** Native selects and text-like inputs left with the browser's own look (its 13.33 px font and square corners). */
async function bareControls(page: Page): Promise<string[]> {
  return page.locator('main select, main input, main textarea, [role="dialog"] select, [role="dialog"] input').evaluateAll((controls) =>
    controls.flatMap((control) => {
      const type = control.getAttribute('type') ?? '';
      if (['radio', 'checkbox', 'hidden', 'range', 'color', 'file'].includes(type)) return [];
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return [];
      const style = getComputedStyle(control);
      // The browser's default font size for controls; or, for a control without a class, square corners.
      const bare = style.fontSize === '13.3333px' || (!control.getAttribute('class') && style.borderTopLeftRadius === '0px');
      return bare
        ? [
            `${location.pathname} ${control.tagName.toLowerCase()}[${type}].${control.getAttribute('class') ?? ''} ${control.getAttribute('aria-label') ?? control.closest('label')?.textContent?.trim() ?? ''}`,
          ]
        : [];
    }),
  );
}

test('the named columns, badges and controls fit a 1280 px screen with one pane', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, 'admin@demo.test', '/transactions');
  const found: string[] = [];

  // Transactions: the merchant's whole name; the 'Partially refunded' badge and every other badge whole.
  await settled(page);
  const transactions = page.getByRole('grid', { name: /Transactions/ });
  found.push(...(await cutCells(transactions, 'Merchant')), ...(await cutBadges(transactions)));
  found.push(...(await bareControls(page)), ...(await seriousViolations(page)));
  // The longest badge, 'Partially refunded', in a status cell of this table (whichever rows the page has).
  const longest = await transactions
    .locator('tbody tr[aria-rowindex] .status-chip')
    .first()
    .evaluate((chip) => {
      const wide = chip.cloneNode() as HTMLElement;
      wide.textContent = 'Partially refunded';
      chip.after(wide);
      chip.remove();
      const cell = wide.closest('td, th') as HTMLElement;
      const fits =
        wide.scrollWidth <= wide.clientWidth + 1 &&
        wide.getBoundingClientRect().right <= cell.getBoundingClientRect().right - 1 &&
        wide.getBoundingClientRect().height < 22;
      wide.after(chip);
      wide.remove();
      return fits;
    });
  if (!longest) found.push("the 'Partially refunded' badge does not fit its column on one line");

  // An export, so the report queue has a row with its actions.
  await page.goto('/transactions');
  await settled(page);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const exportDialog = page.getByRole('dialog');
  await expect(exportDialog).toBeVisible();
  // The file type is a radio list: each control left of its label, a round focus ring, arrows move the choice.
  const firstRadio = exportDialog.getByRole('radio').first();
  await firstRadio.focus();
  await page.keyboard.press('ArrowDown');
  await expect(exportDialog.getByRole('radio').nth(1)).toBeChecked();
  await page.keyboard.press('ArrowUp');
  await expect(firstRadio).toBeChecked();
  const radioShape = await firstRadio.evaluate((radio) => {
    const label = radio.closest('label') as HTMLElement;
    const range = document.createRange();
    range.selectNodeContents(label);
    const text = [...label.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim()) as Text;
    range.selectNodeContents(text);
    const textBox = range.getBoundingClientRect();
    const box = radio.getBoundingClientRect();
    return {
      leftOfText: box.right <= textBox.left,
      sameLine: box.top < textBox.bottom && box.bottom > textBox.top,
      round: getComputedStyle(radio).borderTopLeftRadius,
      square: Math.abs(box.width - box.height) < 1,
    };
  });
  expect(radioShape).toEqual({ leftOfText: true, sameLine: true, round: '50%', square: true });
  found.push(...(await bareControls(page)));
  await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(exportDialog).toBeHidden();

  // Tickets: 'Last updated' shown and whole.
  await page.goto('/tickets');
  await settled(page);
  found.push(...(await cutCells(page.getByRole('grid').first(), 'Last updated')), ...(await cutBadges(page.getByRole('grid').first())));
  found.push(...(await bareControls(page)), ...(await seriousViolations(page)));

  // Watch list: the signals whole (or in the row's name); the status filter is the portal's select.
  await page.goto('/account-watch-list');
  await settled(page);
  found.push(...(await cutCells(page.getByRole('grid', { name: 'Account watch list' }), 'Signals')));
  found.push(...(await bareControls(page)), ...(await seriousViolations(page)));

  // Billing: the invoices' dates whole; the filters the portal's controls; so are the run form's.
  await page.goto('/billing');
  await settled(page);
  const invoices = page.getByRole('grid').first();
  found.push(...(await cutCells(invoices, 'Issued')), ...(await cutCells(invoices, 'Due')));
  found.push(...(await bareControls(page)), ...(await seriousViolations(page)));
  await page.getByRole('tab', { name: 'Run billing' }).click();
  found.push(...(await bareControls(page)));

  // The report queue: the actions whole, each button inside its cell.
  await page.goto('/reporting-overview');
  await settled(page);
  const queue = page.getByRole('grid').first();
  found.push(...(await cutCells(queue, 'Actions')));
  const spilled = await queue.locator('tbody .report-actions button').evaluateAll((buttons) =>
    buttons
      .filter((button) => {
        const cell = button.closest('td, th') as HTMLElement;
        return button.getBoundingClientRect().right > cell.getBoundingClientRect().right + 1;
      })
      .map((button) => button.textContent ?? ''),
  );
  found.push(...spilled.map((text) => `report queue action past its cell: ${text}`));
  found.push(...(await bareControls(page)), ...(await seriousViolations(page)));

  expect(found).toEqual([]);
});

test('with four panes the breadcrumbs do not overlap and each pane header keeps its title and buttons', async ({ page }) => {
  test.setTimeout(180_000);
  const others = ['/tickets', '_', '/account-watch-list', '/reporting/internal-accounts'].map((entry) => (entry === '_' ? entry : encodeURIComponent(entry)));
  await signIn(page, 'admin@demo.test', `/transactions?panes=${others.join(',')}`);
  const panes = page.locator('section.pane');
  await expect(panes).toHaveCount(4);
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
  const problems = await panes.evaluateAll((sections) =>
    sections.flatMap((section) => {
      const found: string[] = [];
      const header = section.querySelector('.pane-header') as HTMLElement;
      const crumbs = [...header.querySelectorAll('.breadcrumb li')] as HTMLElement[];
      const actions = header.querySelector('.pane-actions') as HTMLElement;
      const boxes = crumbs.map((crumb) => crumb.getBoundingClientRect()).filter((box) => box.width > 0);
      boxes.forEach((box, index) => {
        const next = boxes[index + 1];
        if (next && next.left < box.right - 0.5 && next.top < box.bottom - 0.5) found.push(`crumbs ${index} and ${index + 1} overlap`);
        if (box.right > actions.getBoundingClientRect().left + 0.5) found.push(`crumb ${index} runs under the buttons`);
        if (box.right > header.getBoundingClientRect().right) found.push(`crumb ${index} past the header`);
      });
      // Every button stays visible and whole.
      for (const button of actions.querySelectorAll('button')) {
        const box = button.getBoundingClientRect();
        if (box.width < 24 || box.right > header.getBoundingClientRect().right + 0.5) found.push(`button ${button.getAttribute('aria-label')} cut`);
      }
      // The screen's own header: its buttons wrap inside the pane rather than run past its edge (a table scrolls).
      const paneRight = section.getBoundingClientRect().right;
      for (const button of section.querySelectorAll('.pane-body button')) {
        const box = button.getBoundingClientRect();
        if (box.width > 0 && !button.closest('.data-table-scroll') && box.right > paneRight + 0.5)
          found.push(`button ${button.textContent} past the pane's edge`);
      }
      // The current crumb (the pane's title), if ellipsised, keeps its whole text as its name and title.
      const current = header.querySelector('[aria-current="page"]') as HTMLElement | null;
      if (!current) found.push('no current crumb');
      else if (current.scrollWidth > current.clientWidth + 1) {
        const whole = current.getAttribute('title') ?? '';
        if (!whole || !(current.textContent ?? '').includes(whole)) found.push(`title cut without its whole text: ${current.textContent}`);
        if (!(section.getAttribute('aria-label') ?? '').startsWith(whole)) found.push(`pane not named by its whole title: ${whole}`);
      }
      return found.map((problem) => `${section.getAttribute('aria-label')}: ${problem}`);
    }),
  );
  expect(problems).toEqual([]);
  await expectNoSeriousViolations(page);
});
