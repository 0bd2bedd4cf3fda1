// The hosted payment page editor's figures, in Chromium against the built portal:
// - keystroke to preview: a key pressed in the editor's Title field as a user presses it (Chromium's input pipeline,
//   through CDP), timed in the page from the keydown's own timestamp to the end of the frame that first shows the
//   new title in the preview's sandboxed frame (a task queued in that frame runs once it is painted);
// - the image pipeline for a 4,000 × 3,000 JPEG of photo-like content: from the file input's change event to the
//   new logo shown in the form and in the preview, split into the upload call (request sent to answer received:
//   the transfer and the server's checks: type from the bytes, size, dimensions, metadata stripped, stored) and the
//   rest (the browser's validation, decode, resize to 800 × 600, re-encode and base64, the old image's deletion,
//   and the redraw).
//   node scripts/bench/hosted-page.ts [--keystrokes N] [--images N] [--no-build]     (a section of npm run bench)
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { buildPortal } from '../build-portal.ts';
import { startServer } from '../server-process.ts';
import { launchChromium } from './chromium.ts';
import { markdownTable, ms, percentile } from './stats.ts';

const previewFrame = 'iframe[title^="Preview of the payment page"]';

/** Signs developer@demo.test in, applies the first merchant and opens a new hosted page of its first configuration. */
async function openEditor(page: Page, serverUrl: string): Promise<void> {
  await page.goto(`${serverUrl}/configurations`);
  await page.getByLabel('Email').fill('developer@demo.test');
  await page.getByLabel('Password').fill('portal-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('listbox', { name: /Merchants/ })
    .getByRole('option')
    .first()
    .dblclick();
  const row = page.getByRole('grid', { name: 'Configurations' }).locator('tbody tr[data-index]').first();
  await row.waitFor();
  await row.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('tab', { name: 'Hosted pages' }).click();
  await page.getByRole('button', { name: 'New hosted page' }).click();
  await page.waitForURL(/\/hosted-payment-page\/HPP[0-9A-F]+$/);
  await page.frameLocator(previewFrame).locator('h1').waitFor();
}

/** One pressed key in the Title field: ms from its keydown to the painted frame whose preview shows the new title. */
async function keystrokeLatencies(page: Page, count: number): Promise<number[]> {
  const title = page.getByRole('textbox', { name: /^Title/ });
  await page.evaluate((selector) => {
    const store = window as unknown as { __previewShown?: Promise<number>; __previewTimer?: boolean };
    if (store.__previewTimer) return;
    store.__previewTimer = true;
    window.addEventListener(
      'keydown',
      (event) => {
        const input = event.target as HTMLInputElement;
        if (!(input instanceof HTMLInputElement)) return;
        const started = event.timeStamp;
        store.__previewShown = new Promise((done) => {
          // The input's value is the key's result once the key's task has run: the first frame after it compares.
          const check = () => {
            const heading = (document.querySelector(selector) as HTMLIFrameElement | null)?.contentDocument?.querySelector('h1')?.textContent;
            if (heading === input.value) setTimeout(() => done(performance.now() - started), 0);
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        });
      },
      { capture: true },
    );
  }, previewFrame);
  const samples: number[] = [];
  const text = 'Pay Brightwater Digital securely today';
  while (samples.length < count) {
    await title.fill('');
    await title.focus();
    for (const key of text) {
      if (samples.length >= count) break;
      await page.keyboard.press(key === ' ' ? 'Space' : key);
      samples.push(await page.evaluate(() => (window as unknown as { __previewShown: Promise<number> }).__previewShown));
      // The next key at a random point of the display's frame (60 Hz), as a person types.
      await page.waitForTimeout(40 + Math.random() * 17);
    }
  }
  return samples;
}

/** A 4,000 × 3,000 JPEG that compresses like a photograph (gradients and grain), a few MB as a camera makes it. */
async function photoLikeJpeg(seed: number): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  let state = (seed * 2_654_435_761) >>> 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      state = (state * 1_664_525 + 1_013_904_223) >>> 0;
      const grain = (state >>> 24) / 8 - 16;
      const offset = (y * width + x) * 3;
      raw[offset] = Math.max(0, Math.min(255, 120 + 100 * Math.sin(x / 310 + seed) + grain));
      raw[offset + 1] = Math.max(0, Math.min(255, 110 + 90 * Math.cos(y / 270) + grain));
      raw[offset + 2] = Math.max(0, Math.min(255, 130 + 80 * Math.sin((x + y) / 530) + grain));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

type PipelineRun = { total: number; upload: number; bytes: number };

async function imagePipelineRun(page: Page, jpeg: Buffer): Promise<PipelineRun> {
  await page.evaluate(() => {
    const store = window as unknown as { __pickedAt?: number; __logoShown?: Promise<number> };
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const before = (document.querySelector('img[alt="Current logo"]') as HTMLImageElement | null)?.src ?? null;
    performance.clearResourceTimings();
    store.__logoShown = new Promise((done) => {
      input.addEventListener(
        'change',
        (event) => {
          const started = event.timeStamp;
          // Done when the form's logo and the preview's logo both show the new image, decoded and painted.
          const check = () => {
            const logo = document.querySelector('img[alt="Current logo"]') as HTMLImageElement | null;
            const frame = document.querySelector('iframe[title^="Preview of the payment page"]') as HTMLIFrameElement | null;
            const previewLogo = frame?.contentDocument?.querySelector('img.hpp-logo') as HTMLImageElement | null | undefined;
            if (logo && logo.src !== before && logo.complete && logo.naturalWidth > 0 && previewLogo?.complete && previewLogo.naturalWidth > 0) {
              setTimeout(() => done(performance.now() - started), 0);
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        },
        { once: true, capture: true },
      );
    });
  });
  await page.getByLabel(/Upload a logo/).setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  const total = await page.evaluate(() => (window as unknown as { __logoShown: Promise<number> }).__logoShown);
  const upload = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((item) => /\/images$/.test(new URL(item.name).pathname)) as
      | PerformanceResourceTiming
      | undefined;
    return entry ? entry.responseEnd - entry.startTime : Number.NaN;
  });
  return { total, upload, bytes: jpeg.length };
}

export async function benchHostedPage(options: { keystrokes?: number; images?: number; build?: boolean } = {}): Promise<string> {
  if (options.build !== false) await buildPortal();
  const server = await startServer({ port: Number(process.env.BENCH_HPP_PORT ?? 3620) });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();
    await openEditor(page, server.url);
    // Warm-up: the first keys load nothing new, but the JIT and the frame's first drawing settle.
    await keystrokeLatencies(page, 10);
    const latencies = await keystrokeLatencies(page, options.keystrokes ?? 100);

    const runs: PipelineRun[] = [];
    for (let run = 0; run < (options.images ?? 5); run += 1) runs.push(await imagePipelineRun(page, await photoLikeJpeg(run + 1)));
    const totals = runs.map((run) => run.total);
    const uploads = runs.map((run) => run.upload);
    const rest = runs.map((run) => run.total - run.upload);
    const sizes = runs.map((run) => `${(run.bytes / 2 ** 20).toFixed(1)} MB`);

    return [
      '### Hosted payment page editor',
      '',
      `Keystroke to preview: ${latencies.length} keys pressed in the Title field (after 10 warm-up keys), each timed from its keydown to the end of the frame whose preview shows the new title.`,
      '',
      markdownTable(
        ['Measure', 'p50', 'p95', 'max'],
        [['Keystroke to preview', ms(percentile(latencies, 50)), ms(percentile(latencies, 95)), ms(Math.max(...latencies))]],
      ),
      '',
      `Image pipeline: ${runs.length} photo-like 4,000 × 3,000 JPEGs (${sizes.join(', ')}), each from the file input's change to the new logo painted in the form and the preview (all but the first also delete the previous image).`,
      '',
      markdownTable(
        ['Measure', 'p50', 'max'],
        [
          ['Whole pipeline', ms(percentile(totals, 50)), ms(Math.max(...totals))],
          ["of which the upload call (transfer and the server's checks)", ms(percentile(uploads, 50)), ms(Math.max(...uploads))],
          ['of which the browser (validate, decode, resize, encode, delete the old, redraw)', ms(percentile(rest, 50)), ms(Math.max(...rest))],
        ],
      ),
    ].join('\n');
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? Number(args[index + 1]) : undefined;
  };
  const keystrokes = option('--keystrokes');
  const images = option('--images');
  console.log(
    await benchHostedPage({
      ...(keystrokes ? { keystrokes } : {}),
      ...(images ? { images } : {}),
      build: !args.includes('--no-build'),
    }),
  );
}
