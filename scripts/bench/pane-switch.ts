// The browser bench's pane-switching section on its own, with a trace: signs in to the built portal, opens the
// transactions beside the dashboard, switches panes 20 times per run and reports each run's longest main-thread
// task, and, from the trace, what the longest tasks spent their time on (outermost events by name, and the
// script functions that ran longest by self time in the sampled profile).
//   npx node scripts/bench/pane-switch.ts [runs] [--profile] [--palette | --rows]   (build first: npm run build)
// --profile adds the sampling profiler (which slows script about twofold) and writes the first run's trace to
// .bench/pane-switch-trace.json; without it the trace holds task timings only.
import { writeFileSync } from 'node:fs';
import { startServer } from '../server-process.ts';
import { launchChromium, signedInPage } from './chromium.ts';
import { ms } from './stats.ts';
import { eventsInside, formatTimes, selfTimeByFunction, type TraceEvent } from './trace.ts';

const profiling = process.argv.includes('--profile');
// --palette: open and close the palette (Ctrl+K, Escape) 20 times instead of switching panes.
const palette = process.argv.includes('--palette');
// --rows: move the transactions list's cursor row (j ×10, k ×10) instead.
const rowKeys = process.argv.includes('--rows');
const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const server = await startServer({ port: 3610 });
const browser = await launchChromium();
try {
  const page = await signedInPage(browser, server.url);
  await page.waitForTimeout(1_500);
  await page.locator('body').press('Control+Backslash');
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await page.getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ }).waitFor();
  await page.waitForTimeout(1_000);
  if (rowKeys)
    await page
      .getByRole('region', { name: /^Transactions \(pane 2 of 2\)/ })
      .locator('tbody tr[data-index="0"]')
      .focus();
  const cdp = await page.context().newCDPSession(page);
  for (let run = 0; run < runs; run += 1) {
    const chunks: TraceEvent[] = [];
    const collect = (event: { value: object[] }) => chunks.push(...(event.value as TraceEvent[]));
    cdp.on('Tracing.dataCollected', collect);
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: {
        includedCategories: profiling
          ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler']
          : ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'],
        enableSampling: false,
      },
    });
    for (let step = 0; step < 20; step += 1) {
      if (rowKeys) {
        await page.keyboard.press(step < 10 ? 'j' : 'k');
        await page.waitForTimeout(60);
      } else if (palette) {
        await page.keyboard.press('Control+k');
        await page.getByRole('option').first().waitFor();
        await page.waitForTimeout(60);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(60);
      } else {
        await page.keyboard.press(step % 2 === 0 ? 'Control+BracketLeft' : 'Control+BracketRight');
        await page.waitForTimeout(120);
      }
    }
    const done = new Promise<void>((settle) => cdp.once('Tracing.tracingComplete', () => settle()));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    if (run === 0 && profiling) writeFileSync('.bench/pane-switch-trace.json', JSON.stringify({ traceEvents: chunks }));
    const keydown = chunks.find((event) => event.name === 'EventDispatch' && (event.args?.data as { type?: string } | undefined)?.type === 'keydown');
    if (!keydown) throw new Error('no keydown in the trace');
    const main = chunks.filter((event) => event.tid === keydown.tid && event.ph === 'X');
    const tasks = main.filter((event) => event.name === 'RunTask').sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
    const keydowns = main
      .filter((event) => event.name === 'EventDispatch' && (event.args?.data as { type?: string } | undefined)?.type === 'keydown')
      .map((event) => (event.dur ?? 0) / 1000)
      .sort((a, b) => b - a);
    // Switching panes and the palette press Control with each key: the 20 longest keydowns are the actions'.
    const actionKeydowns = keydowns.slice(0, 20);
    console.log(
      `run ${run + 1}: action keydown p50 ${ms(actionKeydowns[Math.floor(actionKeydowns.length / 2)] ?? 0)}, max ${ms(actionKeydowns[0] ?? 0)}, main-thread task time in all ${ms(tasks.reduce((sum, task) => sum + (task.dur ?? 0), 0) / 1000)}, longest tasks ${tasks
        .slice(0, 5)
        .map((task) => ms((task.dur ?? 0) / 1000))
        .join(', ')}`,
    );
    for (const task of tasks.slice(0, 2)) console.log(`  ${ms((task.dur ?? 0) / 1000)}: ${formatTimes(eventsInside(main, task), 8)}`);
    if (!profiling) continue;
    // Self time per function from the sampled profile over the whole run.
    const functions = selfTimeByFunction(chunks).filter(([name]) => !/^\((idle|program|garbage collector)\)/.test(name));
    console.log(`  self time: ${formatTimes(functions, 12, '; ')}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
