// Browser figures in Chromium through Playwright, all in one run: JavaScript before the first screen is usable,
// palette open latency beside a bare cmdk palette of 50 items, the longest main-thread task while scrolling a
// 10,000-row list and while switching panes, and interaction durations over a scripted keyboard session.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { extname, join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { buildPortal } from '../build-portal.ts';
import { startServer } from '../server-process.ts';
import { settleMs } from '../../src/ui/data-table/fling-model.ts';
import { launchChromium } from './chromium.ts';
import { markdownTable, ms, percentile } from './stats.ts';

const root = resolve(import.meta.dirname, '../..');
const harnessOut = join(root, '.bench/harness');

export async function buildHarness(): Promise<Server> {
  const { build } = await import('vite');
  await build({ root: join(root, 'scripts/bench/harness'), logLevel: 'warn', build: { outDir: harnessOut, emptyOutDir: true }, base: './' });
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((request, response) => {
    const path = join(harnessOut, (request.url ?? '/').split('?')[0] === '/' ? 'index.html' : ((request.url ?? '').split('?')[0] ?? ''));
    if (!existsSync(path)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

// Ctrl+K pressed as a user presses it (Chromium's input pipeline, through CDP), timed in the page from the keydown's
// own timestamp (as the browser's event timing and INP count) to the end of the frame that first shows an option.
// Until 2026-11-22 the bench dispatched the key from script and timed from the dispatch (paletteLatencyScripted, still
// reported beside it): such a key skips the input pipeline and runs its listeners inside the evaluating script, and
// it told the two palettes apart by less than its own noise (p95 differences of −2.2 to +3.0 ms, run to run), while a
// pressed key shows the bare palette, which mounts its 50 items at every opening, taking about twice as long.
export async function paletteLatency(page: Page, runs: number): Promise<number[]> {
  await page.evaluate(() => {
    const store = window as unknown as { __paletteTimer?: boolean; __paletteOpened?: Promise<number> };
    if (store.__paletteTimer) return;
    store.__paletteTimer = true;
    // A shown option: the portal's palette stays rendered, hidden, while closed.
    const shown = () => document.querySelector('[cmdk-item]')?.checkVisibility({ visibilityProperty: true }) ?? false;
    window.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'k' || !event.ctrlKey) return;
        const started = event.timeStamp;
        store.__paletteOpened = new Promise((done) => {
          // Checked in each animation frame; a task queued in the frame that first shows an option runs once it is painted.
          const check = () => (shown() ? setTimeout(() => done(performance.now() - started), 0) : requestAnimationFrame(check));
          requestAnimationFrame(check);
        });
      },
      { capture: true },
    );
  });
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await page.keyboard.press('Control+k');
    samples.push(await page.evaluate(() => (window as unknown as { __paletteOpened: Promise<number> }).__paletteOpened));
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(document.querySelector('[cmdk-item]')?.checkVisibility({ visibilityProperty: true }) ?? false));
    // The next Ctrl+K at a random point of the display's frame (60 Hz), so no palette gains or loses by phase.
    await page.waitForTimeout(50 + Math.random() * 17);
  }
  return samples;
}

/** The same opening with Ctrl+K dispatched from script, timed from the dispatch (the bench's measure until 2026-11-22). */
async function paletteLatencyScripted(page: Page, runs: number): Promise<number[]> {
  return page.evaluate(async (count) => {
    // Called in the animation frame that first shows an option: a task queued there runs once that frame is painted.
    const afterThisFrame = () => new Promise<void>((done) => setTimeout(done, 0));
    const waitFor = (present: boolean) =>
      new Promise<void>((done) => {
        // A shown option: the portal's palette stays rendered, hidden, while closed.
        const shown = () => document.querySelector('[cmdk-item]')?.checkVisibility({ visibilityProperty: true }) ?? false;
        const check = () => (shown() === present ? done() : requestAnimationFrame(check));
        check();
      });
    const samples: number[] = [];
    for (let run = 0; run < count; run += 1) {
      const target = document.activeElement ?? document.body;
      const started = performance.now();
      target.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', code: 'KeyK', ctrlKey: true, bubbles: true, cancelable: true }));
      await waitFor(true);
      await afterThisFrame();
      samples.push(performance.now() - started);
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true, cancelable: true }));
      await waitFor(false);
      // The next Ctrl+K at a random point of the display's frame (60 Hz), so no palette gains or loses by phase.
      await new Promise((done) => setTimeout(done, 50 + Math.random() * 17));
    }
    return samples;
  }, runs);
}

async function observeLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const store = window as unknown as { __longTasks: number[]; __longTaskStarts: number[]; __events: { id: number; duration: number }[] };
    store.__longTasks = [];
    store.__longTaskStarts = [];
    store.__events = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        store.__longTasks.push(entry.duration);
        store.__longTaskStarts.push(entry.startTime);
      }
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEventTiming[])
        if (entry.interactionId) store.__events.push({ id: entry.interactionId, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
}

async function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const store = window as unknown as { __longTasks: number[] };
    const tasks = store.__longTasks;
    store.__longTasks = [];
    return tasks;
  });
}

export async function benchBrowser(): Promise<string> {
  // The portal as npm start serves it: built from the current sources, precompressed.
  await buildPortal();
  const harness = await buildHarness();
  const harnessUrl = `http://127.0.0.1:${(harness.address() as AddressInfo).port}`;
  const server = await startServer({ port: Number(process.env.BENCH_BROWSER_PORT ?? 3600) });
  const browser = await launchChromium();
  const lines: string[] = [];
  try {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();

    // JavaScript before the first screen is usable, on the wire (compressed): the cold path (first visit, through
    // the sign-in page, to the dashboard) and a reload of the signed-in dashboard with the browser cache disabled.
    // Usable = the dashboard's figures are on screen: an init script notes the moment its statistics table gets
    // its data-bearing caption. Counted: every script of the app requested before that moment, in any of the
    // documents on the way (the first visit passes through the provider's sign-in page). Sizes are the gzip
    // files the server sends (the wire size without relying on the browser's reporting, which reads 0 for some
    // cached and streamed responses).
    await page.addInitScript(() => {
      const caption = /per (hour|day|month|\d+ days) in [A-Z]{3},/;
      const store = window as unknown as { __usableAt?: number };
      const observer = new MutationObserver(() => {
        const text = document.querySelector('table.dashboard-table caption')?.textContent ?? '';
        if (store.__usableAt === undefined && caption.test(text)) {
          store.__usableAt = performance.timeOrigin + performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    });
    let scripts: { path: string; startedAt: number }[] = [];
    const counting = (response: import('@playwright/test').Response) => {
      const url = new URL(response.url());
      if (response.request().resourceType() === 'script' && url.origin === server.url)
        scripts.push({ path: url.pathname, startedAt: response.request().timing().startTime });
    };
    const usable = async (target: Page) => {
      await target.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined, undefined, { timeout: 60_000 });
      return target.evaluate(() => (window as unknown as { __usableAt: number }).__usableAt);
    };
    const total = (usableAt: number) => {
      const files = [...new Set(scripts.filter((script) => script.startedAt <= usableAt).map((script) => script.path))];
      const late = [...new Set(scripts.filter((script) => script.startedAt > usableAt).map((script) => script.path))];
      scripts = [];
      const size = (path: string) => {
        const gzip = join(root, 'dist', `${path}.gz`);
        return existsSync(gzip) ? statSync(gzip).size : gzipSync(readFileSync(join(root, 'dist', path))).length;
      };
      if (process.env.BENCH_VERBOSE) {
        for (const path of files) console.log(`[bench] before usable ${path} ${size(path)} B gzip`);
        for (const path of late) console.log(`[bench] after usable ${path} ${size(path)} B gzip`);
      }
      return { kb: files.reduce((sum, path) => sum + size(path), 0) / 1024, files: files.length };
    };
    page.on('response', counting);
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('Email').fill('solo@demo.test');
    await page.getByLabel('Password').fill('portal-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const coldUsableAt = await usable(page);
    // Not 'networkidle': the live events stream stays open once the first screen has settled, so the network is
    // never idle; what is requested after the figures were on screen has had time to be requested by then.
    await page.waitForTimeout(3_000);
    const cold = total(coldUsableAt);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.reload();
    const warmUsableAt = await usable(page);
    await page.waitForTimeout(3_000);
    page.off('response', counting);
    const warm = total(warmUsableAt);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });

    // Palette: the portal's, with every registered command, against a bare cmdk palette of 50 items, in alternating
    // rounds of 25 openings (200 in all), so a busy moment of the machine weighs on both alike.
    await page.waitForTimeout(1500);
    const barePage = await browser.newPage();
    await barePage.goto(`${harnessUrl}/?mode=palette`);
    await barePage.waitForTimeout(300);
    const portal: number[] = [];
    const bare: number[] = [];
    const portalScripted: number[] = [];
    const bareScripted: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      await page.bringToFront();
      portal.push(...(await paletteLatency(page, 25)));
      portalScripted.push(...(await paletteLatencyScripted(page, 25)));
      await barePage.bringToFront();
      bare.push(...(await paletteLatency(barePage, 25)));
      bareScripted.push(...(await paletteLatencyScripted(barePage, 25)));
    }

    // Longest task while scrolling 10,000 rows of the portal's DataTable.
    const tablePage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await tablePage.goto(`${harnessUrl}/?mode=table`);
    await tablePage.getByRole('grid').first().waitFor({ state: 'attached', timeout: 60_000 });
    await tablePage.waitForTimeout(300);
    const renderedRows = await tablePage.locator('tbody tr').count();
    await observeLongTasks(tablePage);
    // Keyboard paging first, from the cursor row at the top (the row must hold focus for the keys to reach the
    // table), then the wheel.
    await tablePage.locator('tbody tr[tabindex="0"]').first().focus();
    for (let step = 0; step < 40; step += 1) await tablePage.keyboard.press('PageDown');
    const wheelFrom = await tablePage.evaluate(() => performance.now());
    await tablePage.mouse.move(700, 450);
    for (let step = 0; step < 150; step += 1) {
      await tablePage.mouse.wheel(0, 900);
      await tablePage.waitForTimeout(16);
    }
    // The rows drawn as placeholders during the fling are filled in once the window is still: that work counts too,
    // and none may be left.
    await tablePage.waitForTimeout(500);
    const scrollTaskStarts = await tablePage.evaluate(() => (window as unknown as { __longTaskStarts: number[] }).__longTaskStarts);
    const scrollTasks = await takeLongTasks(tablePage);
    const scrollPhases = scrollTasks.map((duration, index) => `${Math.round(duration)} ms ${(scrollTaskStarts[index] ?? 0) < wheelFrom ? 'paging' : 'wheel'}`);
    const placeholdersLeft = await tablePage.locator('tbody tr[aria-busy="true"]').count();
    if (placeholdersLeft > 0) throw new Error(`${placeholdersLeft} rows were still placeholders half a second after scrolling stopped`);

    // Switching panes, and a scripted keyboard session for interaction durations.
    await page.locator('body').press('Control+Backslash');
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    await page.getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ }).waitFor();
    await page.waitForTimeout(500);
    await observeLongTasks(page);
    for (let step = 0; step < 20; step += 1) {
      await page.keyboard.press(step % 2 === 0 ? 'Control+BracketLeft' : 'Control+BracketRight');
      await page.waitForTimeout(120);
    }
    const switchTasks = await takeLongTasks(page);
    for (const query of ['trans', 'report queue', 'dashboard']) {
      await page.keyboard.press('Control+k');
      await page.keyboard.type(query, { delay: 30 });
      await page.waitForTimeout(100);
      await page.keyboard.press('Escape');
    }
    for (let step = 0; step < 10; step += 1) await page.keyboard.press(step < 5 ? 'j' : 'k');
    const events = await page.evaluate(() => (window as unknown as { __events: { id: number; duration: number }[] }).__events);
    const perInteraction = [
      ...events.reduce((worst, event) => worst.set(event.id, Math.max(worst.get(event.id) ?? 0, event.duration)), new Map<number, number>()).values(),
    ];

    const max = (values: number[]) => (values.length ? Math.max(...values) : 0);
    lines.push(
      markdownTable(
        ['measure', 'figure', 'goal'],
        [
          ['JavaScript before the dashboard is usable, reload of a signed-in session (gzip)', `${warm.kb.toFixed(1)} KB in ${warm.files} files`, '≤ 150 KB'],
          [
            'JavaScript before the dashboard is usable, first visit through the sign-in page (gzip)',
            `${cold.kb.toFixed(1)} KB in ${cold.files} files`,
            '≤ 150 KB',
          ],
          [
            'palette: Ctrl+K pressed (keydown timestamp) → options painted, portal (all registered commands), p50 / p95',
            `${ms(percentile(portal, 50))} / ${ms(percentile(portal, 95))}`,
            'p95 ≤ bare palette',
          ],
          [
            'palette: Ctrl+K pressed (keydown timestamp) → options painted, bare cmdk with 50 items, p50 / p95',
            `${ms(percentile(bare, 50))} / ${ms(percentile(bare, 95))}`,
            '—',
          ],
          [
            "palette: Ctrl+K dispatched from script → options painted, portal / bare, p95 (not a user's key: see browser.ts)",
            `${ms(percentile(portalScripted, 95))} / ${ms(percentile(bareScripted, 95))}`,
            '—',
          ],
          [
            `longest main-thread task scrolling 10,000 rows (${renderedRows} rows in the DOM at a time; rows a fling brings are placeholders until the window is still for ${settleMs} ms)`,
            scrollTasks.length ? `${ms(max(scrollTasks))} (${scrollTasks.length} tasks over 50 ms: ${scrollPhases.join(', ')})` : 'none over 50 ms',
            'none over 50 ms',
          ],
          [
            'longest main-thread task switching panes (20 switches)',
            switchTasks.length ? `${ms(max(switchTasks))} (${switchTasks.length} tasks over 50 ms)` : 'none over 50 ms',
            'none over 50 ms',
          ],
          [
            'interaction to next paint over a scripted keyboard session (worst, p98)',
            perInteraction.length
              ? `${ms(max(perInteraction))}, ${ms(percentile(perInteraction, 98))} (${perInteraction.length} interactions ≥ 16 ms)`
              : 'every interaction under 16 ms',
            '≤ 200 ms',
          ],
        ],
      ),
    );
  } finally {
    await browser.close();
    await server.stop();
    harness.close();
  }
  return `### Browser (Debian Chromium, headless)\n\n${lines.join('\n')}`;
}
