// The palette's opening apart from the frame's timing, portal against the bare cmdk palette of the bench harness,
// alternating rounds: the main thread's work (Ctrl+K dispatched from script: script until React has committed, then
// style and layout forced) and, with --real, the pressed key's latency as the bench measures it (browser.ts).
//   npx node scripts/bench/palette-work.ts [dashboard|transactions] [--real]   (build first: npm run build)
import type { Page } from '@playwright/test';
import { startServer } from '../server-process.ts';
import { buildHarness, paletteLatency } from './browser.ts';
import { launchChromium, signedInPage } from './chromium.ts';
import { percentile } from './stats.ts';

const harness = await buildHarness();
const harnessUrl = `http://127.0.0.1:${(harness.address() as { port: number }).port}`;
const server = await startServer({ port: 3620 });
const browser = await launchChromium();

async function work(page: Page, runs: number) {
  return page.evaluate(async (count) => {
    const shown = () => document.querySelector('[cmdk-item]')?.checkVisibility({ visibilityProperty: true }) ?? false;
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    const out: { script: number; layout: number; late: boolean }[] = [];
    for (let run = 0; run < count; run += 1) {
      await frame();
      const target = document.activeElement ?? document.body;
      const t0 = performance.now();
      target.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', code: 'KeyK', ctrlKey: true, bubbles: true, cancelable: true }));
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
      let t1 = performance.now();
      // A render React left to a later task (default priority) is waited for, and its wait counted as script.
      const late = !shown();
      if (late) {
        await new Promise((done) => setTimeout(done, 0));
        t1 = performance.now();
      }
      void document.body.offsetHeight;
      const visible = shown();
      const t2 = performance.now();
      if (!visible) throw new Error('not shown after the commit');
      out.push({ script: t1 - t0, layout: t2 - t1, late });
      await frame();
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true, cancelable: true }));
      await frame();
      await new Promise((done) => setTimeout(done, 40));
    }
    return out;
  }, runs);
}

try {
  const page = await signedInPage(browser, server.url, `/${process.argv[2] ?? 'dashboard'}`);
  await page.waitForTimeout(2_000);
  const bare = await page.context().newPage();
  await bare.goto(`${harnessUrl}/?mode=palette`);
  await bare.waitForTimeout(300);
  if (process.argv.includes('--real')) {
    const real: Record<string, number[]> = { portal: [], bare: [] };
    for (let round = 0; round < 6; round += 1) {
      await page.bringToFront();
      real.portal?.push(...(await paletteLatency(page, 25)));
      await bare.bringToFront();
      real.bare?.push(...(await paletteLatency(bare, 25)));
    }
    for (const [name, samples] of Object.entries(real))
      console.log(`${name} (real input): p50 ${percentile(samples, 50).toFixed(2)} p95 ${percentile(samples, 95).toFixed(2)} ms`);
  }
  const results: Record<string, { script: number; layout: number; late: boolean }[]> = { portal: [], bare: [] };
  for (let round = 0; round < 6; round += 1) {
    await page.bringToFront();
    results.portal?.push(...(await work(page, 25)));
    await bare.bringToFront();
    results.bare?.push(...(await work(bare, 25)));
  }
  for (const [name, samples] of Object.entries(results)) {
    const script = samples.map((s) => s.script);
    const layout = samples.map((s) => s.layout);
    const both = samples.map((s) => s.script + s.layout);
    console.log(
      `${name}: script p50 ${percentile(script, 50).toFixed(2)} p95 ${percentile(script, 95).toFixed(2)}; style+layout p50 ${percentile(layout, 50).toFixed(2)} p95 ${percentile(layout, 95).toFixed(2)}; both p50 ${percentile(both, 50).toFixed(2)} p95 ${percentile(both, 95).toFixed(2)} ms; shown only after a later task in ${samples.filter((s) => s.late).length} of ${samples.length}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
  harness.close();
}
