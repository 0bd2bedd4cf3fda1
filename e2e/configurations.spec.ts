// Configuration journeys against the real server in Chromium: developer@demo.test changes a hosted page's colours
// and logo and sees the preview change (with the keystroke-to-preview latency and the image pipeline's time for a
// 4,000 × 3,000 JPEG measured and printed); a shopper opens a payment link and pays with a test card; two browser
// contexts edit the same configuration and the second gets the 409 dialog. axe scans of the editor and shopper page.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from './support.ts';

/** The preview frame holds the shopper page's markup, which the shopper journey scans on its own page. */
async function seriousViolations(page: Page, exclude?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (exclude) builder.exclude(exclude);
  const { violations } = await builder.analyze();
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Signs the developer in and applies the first merchant of their business, landing on /configurations. */
async function developerOnConfigurations(page: Page): Promise<void> {
  await signIn(page, 'developer@demo.test', '/configurations');
  const merchants = page.getByRole('listbox', { name: /Merchants/ });
  // The developer's business has three merchants: the panel asks which one.
  await expect(merchants).toBeVisible();
  await merchants.getByRole('option').first().dblclick();
  await expect(page.getByLabel('Applied context')).toContainText('Brightwater Digital');
  await expect(page).toHaveURL(/\/configurations$/);
  await expect(page.getByRole('grid', { name: 'Configurations' }).locator('tbody tr[data-index]').first()).toBeVisible();
}

async function openFirstConfiguration(page: Page): Promise<string> {
  const row = page.getByRole('grid', { name: 'Configurations' }).locator('tbody tr[data-index]').first();
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/configurations\/[A-Z0-9]+$/);
  await expect(page.getByRole('tablist', { name: 'Configuration' })).toBeVisible();
  return new URL(page.url()).pathname;
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)] ?? 0;

test('developer@demo.test changes a hosted page\'s colours and logo and sees the preview change', async ({ page }) => {
  test.setTimeout(240_000);
  await developerOnConfigurations(page);
  await openFirstConfiguration(page);
  await page.getByRole('tab', { name: 'Hosted pages' }).click();
  await page.getByRole('button', { name: 'New hosted page' }).click();
  await expect(page).toHaveURL(/\/hosted-payment-page\/HPP[0-9A-F]+$/);
  const preview = page.frameLocator('iframe[title^="Preview of the payment page"]');
  await expect(preview.locator('h1')).toContainText('Pay ');

  // Colours: the preview's brand border follows the picker.
  await page.getByLabel('Brand colour').fill('#aa0000');
  await expect.poll(async () => preview.locator('.hpp-header').evaluate((element) => getComputedStyle(element).borderBottomColor)).toBe('rgb(170, 0, 0)');
  await page.getByLabel('Text colour', { exact: true }).fill('#dddddd');
  await expect(page.getByText(/Text on the background has a contrast of/)).toBeVisible();
  await page.getByLabel('Text colour', { exact: true }).fill('#1b1b1f');

  // Keystroke to preview: each character typed into the title, until the frame's heading shows it.
  const latencies = await page.evaluate(async () => {
    const input = [...document.querySelectorAll('input')].find((element) => element.labels?.[0]?.textContent?.startsWith('Title')) as HTMLInputElement;
    const frame = document.querySelector('iframe[title^="Preview of the payment page"]') as HTMLIFrameElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    const results: number[] = [];
    input.focus();
    for (let index = 0; index < 40; index += 1) {
      const text = `Pay us ${index}`;
      const started = performance.now();
      setter?.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise<void>((resolve) => {
        const check = () => (frame.contentDocument?.querySelector('h1')?.textContent === text ? resolve() : requestAnimationFrame(check));
        check();
      });
      results.push(performance.now() - started);
    }
    return results;
  });
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`[figure] keystroke to preview over ${latencies.length} keystrokes: p95 ${p95(latencies).toFixed(1)} ms, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)} ms`);
  await expect(preview.locator('h1')).toHaveText('Pay us 39');

  // Logo: a 4,000 × 3,000 JPEG goes through validate, resize (800 × 600), upload; the preview shows it.
  const jpeg = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#2255aa' } }).jpeg({ quality: 90 }).toBuffer();
  const started = Date.now();
  await page.getByLabel(/Upload a logo/).setInputFiles({ name: 'logo.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(page.getByRole('img', { name: 'Current logo' })).toBeVisible();
  console.log(`[figure] image pipeline for a 4,000 × 3,000 JPEG (${(jpeg.length / 1024).toFixed(0)} KB): ${Date.now() - started} ms from choosing the file to the new reference shown`);
  await expect(preview.locator('img.hpp-logo')).toBeVisible();
  const natural = await preview.locator('img.hpp-logo').evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]);
  expect(natural).toEqual([800, 600]);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Hosted page saved.')).toBeVisible();
  expect(await seriousViolations(page, 'iframe[title^="Preview of the payment page"]')).toEqual([]);
});

test('a shopper opens a payment link and pays with a test card', async ({ page, browser }) => {
  await signIn(page, 'admin@demo.test', '/transactions');
  const references = await page.evaluate(async () => {
    const { accessToken } = JSON.parse(sessionStorage.getItem('portal.credentials') ?? '{}') as { accessToken: string };
    const response = await fetch('/api/portal/transactions?status=%5Beq%5Dpending&pagesize=100', { headers: { authorization: `Bearer ${accessToken}` } });
    const body = (await response.json()) as { results: { paymentJobReference: string; kind: string }[] };
    return body.results.filter((row) => row.kind === 'payment').map((row) => row.paymentJobReference);
  });
  const shopper = await (browser as Browser).newContext({ locale: 'en-GB' });
  const shopperPage = await shopper.newPage();
  let open: string | null = null;
  for (const reference of references) {
    const response = await shopperPage.request.get(`/pay/${reference}`);
    if (response.status() === 200) {
      open = reference;
      break;
    }
  }
  expect(open, 'an open payment job among the pending payments').not.toBeNull();
  await shopperPage.goto(`/pay/${open}`);
  await expect(shopperPage.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await seriousViolations(shopperPage)).toEqual([]);
  await shopperPage.getByLabel('Name on card').fill('Ada Lovelace');
  await shopperPage.getByLabel('Card number').fill('4000 0000 0000 0002');
  await shopperPage.getByLabel('Expiry date (MM/YY)').fill('12/39');
  await shopperPage.getByLabel('Security code').fill('123');
  await shopperPage.getByRole('button', { name: /^Pay/ }).click();
  await expect(shopperPage.getByRole('alert')).toContainText('The card was declined');
  await shopperPage.getByLabel('Card number').fill('4111 1111 1111 1111');
  await shopperPage.getByLabel('Security code').fill('123');
  await shopperPage.getByRole('button', { name: /^Pay/ }).click();
  await expect(shopperPage.getByRole('heading', { name: 'Thank you, your payment was received' })).toBeVisible();
  await shopperPage.goto(`/pay/${open}`);
  await expect(shopperPage.getByRole('heading', { name: 'This payment is complete' })).toBeVisible();
  await shopper.close();
});

test('two browser contexts edit the same configuration; the second gets the 409 dialog', async ({ page, browser }) => {
  await developerOnConfigurations(page);
  const path = await openFirstConfiguration(page);
  const other = await (browser as Browser).newContext({ locale: 'en-GB', timezoneId: 'Europe/London', viewport: { width: 1440, height: 900 } });
  const second = await other.newPage();
  await developerOnConfigurations(second);
  await second.goto(path);
  await expect(second.getByRole('tablist', { name: 'Configuration' })).toBeVisible();

  const tradeName = (target: Page) => target.getByRole('textbox', { name: /^Trade name/ });
  await tradeName(page).fill(`First edit ${Date.now() % 1000}`);
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByText('Configuration saved.')).toBeVisible();

  await tradeName(second).fill('Second edit');
  await second.getByRole('button', { name: 'Save' }).first().click();
  const dialog = second.getByRole('alertdialog', { name: 'Someone updated this view' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(second.getByText(/^Their version: First edit/)).toBeVisible();
  await expect(tradeName(second)).toHaveValue('Second edit');
  await other.close();
});
