// The main thread during a reload of a signed-in screen, traced with the sampling profiler: each run's longest tasks
// and, for the longest, what ran in it (trace events by name, functions by self time).
//   npx node scripts/bench/first-load.ts [runs] [path]   (build first: npm run build; path /dashboard by default)
import { startServer } from '../server-process.ts';
import { launchChromium, signedInPage } from './chromium.ts';
import { ms } from './stats.ts';
import { eventsInside, formatTimes, selfTimeByFunction, type TraceEvent } from './trace.ts';

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const path = process.argv.slice(2).find((arg) => arg.startsWith('/')) ?? '/dashboard';
const server = await startServer({ port: 3630 });
const browser = await launchChromium();
try {
  const page = await signedInPage(browser, server.url, path);
  await page.waitForTimeout(1_500);
  const cdp = await page.context().newCDPSession(page);
  for (let run = 0; run < runs; run += 1) {
    const chunks: TraceEvent[] = [];
    const collect = (event: { value: object[] }) => chunks.push(...(event.value as TraceEvent[]));
    cdp.on('Tracing.dataCollected', collect);
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: {
        includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', '__metadata'],
        enableSampling: false,
      },
    });
    await page.reload();
    await page.getByRole('table').first().waitFor();
    await page.waitForTimeout(2_000);
    const done = new Promise<void>((settle) => cdp.once('Tracing.tracingComplete', () => settle()));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    const mainThread = chunks.find(
      (event) =>
        event.name === 'thread_name' &&
        event.args?.name === 'CrRendererMain' &&
        chunks.some((other) => other.pid === event.pid && other.name === 'ProfileChunk'),
    );
    if (!mainThread) throw new Error('no renderer main thread with a profile in the trace');
    const main = chunks.filter((event) => event.pid === mainThread.pid && event.tid === mainThread.tid && event.ph === 'X');
    const tasks = main.filter((event) => event.name === 'RunTask').sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
    console.log(
      `run ${run + 1}: longest tasks ${tasks
        .slice(0, 5)
        .map((task) => ms((task.dur ?? 0) / 1000))
        .join(', ')}`,
    );
    // The old document's unload (the reload itself) is not the new screen's work.
    const unload = (task: TraceEvent) =>
      main.some(
        (event) =>
          event.name === 'V8.InvokeApiInterruptCallbacks' &&
          event.ts >= task.ts &&
          event.ts < task.ts + (task.dur ?? 0) &&
          (event.dur ?? 0) > (task.dur ?? 0) / 2,
      );
    for (const longest of tasks.filter((task) => !unload(task)).slice(0, 2)) {
      console.log(` ${ms((longest.dur ?? 0) / 1000)}:`);
      console.log(`  events: ${formatTimes(eventsInside(main, longest), 8)}`);
      // Self time per function inside the task, from the sampled profile of the renderer.
      const functions = selfTimeByFunction(chunks, { pid: mainThread.pid, from: longest.ts, to: longest.ts + (longest.dur ?? 0) }).filter(
        ([name]) => !/^\((idle|program)\)/.test(name),
      );
      console.log(`  self time: ${formatTimes(functions, 14, '; ')}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
