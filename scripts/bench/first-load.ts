// The main thread during a reload of a signed-in screen, traced with the sampling profiler: each run's longest tasks
// and, for the longest, what ran in it (trace events by name, functions by self time).
//   npx node scripts/bench/first-load.ts [runs] [path]   (build first: npm run build; path /dashboard by default)
import { startServer } from '../server-process.ts';
import { launchChromium, signedInPage } from './chromium.ts';
import { ms } from './stats.ts';

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; args?: { name?: string; data?: { startTime?: number; cpuProfile?: { nodes?: { id: number; callFrame?: { functionName?: string; url?: string; lineNumber?: number } }[]; samples?: number[] }; timeDeltas?: number[] } } };
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
    await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', '__metadata'], enableSampling: false } });
    await page.reload();
    await page.getByRole('table').first().waitFor();
    await page.waitForTimeout(2_000);
    const done = new Promise<void>((settle) => cdp.once('Tracing.tracingComplete', () => settle()));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    const mainThread = chunks.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && chunks.some((other) => other.pid === event.pid && other.name === 'ProfileChunk'));
    if (!mainThread) throw new Error('no renderer main thread with a profile in the trace');
    const main = chunks.filter((event) => event.pid === mainThread.pid && event.tid === mainThread.tid && event.ph === 'X');
    const tasks = main.filter((event) => event.name === 'RunTask').sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
    console.log(`run ${run + 1}: longest tasks ${tasks.slice(0, 5).map((task) => ms((task.dur ?? 0) / 1000)).join(', ')}`);
    // The old document's unload (the reload itself) is not the new screen's work.
    const unload = (task: TraceEvent) => main.some((event) => event.name === 'V8.InvokeApiInterruptCallbacks' && event.ts >= task.ts && (event.dur ?? 0) > (task.dur ?? 0) / 2);
    for (const longest of tasks.filter((task) => !unload(task)).slice(0, 2)) {
    console.log(` ${ms((longest.dur ?? 0) / 1000)}:`);
    const from = longest.ts;
    const to = longest.ts + (longest.dur ?? 0);
    const byName = new Map<string, number>();
    for (const event of main.filter((candidate) => candidate !== longest && candidate.ts >= from && candidate.ts + (candidate.dur ?? 0) <= to)) byName.set(event.name, (byName.get(event.name) ?? 0) + (event.dur ?? 0));
    console.log(`  events: ${[...byName].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, dur]) => `${name} ${(dur / 1000).toFixed(1)}`).join(', ')}`);
    // Self time per function inside the longest task, from the sampled profile of the renderer.
    const nodes = new Map<number, string>();
    const self = new Map<string, number>();
    let clock = 0;
    for (const event of chunks.filter((candidate) => candidate.pid === mainThread.pid && (candidate.name === 'Profile' || candidate.name === 'ProfileChunk')).sort((a, b) => a.ts - b.ts)) {
      if (event.name === 'Profile') {
        clock = event.args?.data?.startTime ?? clock;
        continue;
      }
      const profile = event.args?.data?.cpuProfile;
      for (const node of profile?.nodes ?? []) nodes.set(node.id, `${node.callFrame?.functionName || '(anonymous)'} ${node.callFrame?.url?.split('/').pop() ?? ''}:${node.callFrame?.lineNumber ?? ''}`);
      (profile?.samples ?? []).forEach((sample, index) => {
        clock += event.args?.data?.timeDeltas?.[index] ?? 0;
        if (clock < from || clock > to) return;
        const name = nodes.get(sample) ?? String(sample);
        self.set(name, (self.get(name) ?? 0) + (event.args?.data?.timeDeltas?.[index] ?? 0));
      });
    }
    console.log(`  self time: ${[...self].filter(([name]) => !/^\((idle|program)\)/.test(name)).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([name, time]) => `${name} ${(time / 1000).toFixed(1)}`).join('; ')}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
