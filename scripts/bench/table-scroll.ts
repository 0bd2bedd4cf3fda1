// The browser bench's scroll section on its own, repeated: builds the harness, opens the 10,000-row DataTable in
// Chromium and runs the same PageDown, wheel and PageUp script several times, each on a fresh page, reporting the longest
// main-thread task and the count over 50 ms per run.
//   npx node scripts/bench/table-scroll.ts [runs] [--trace file] [--cpu] [--compare builtDirA builtDirB …]
// --trace writes the first run's trace (DevTools' Performance panel or ui.perfetto.dev opens it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { launchChromium } from './chromium.ts';
import { ms, percentile } from './stats.ts';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, '.bench/harness-scroll');
const args = process.argv.slice(2);
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5);
const traceIndex = args.indexOf('--trace');
const tracePath = traceIndex >= 0 ? args[traceIndex + 1] : undefined;
// --cpu: trace every run lightly and report the main thread's CPU time per PageDown and per wheel by phase, a figure that moves
// less than wall time when other work shares the machine.
const cpuMode = args.includes('--cpu');
type TraceEvent = { name: string; ph: string; tid: number; ts: number; dur?: number; tdur?: number; args?: { data?: { type?: string } } };
const phases: Record<string, string[]> = {
  script: ['FunctionCall', 'EventDispatch'],
  style: ['UpdateLayoutTree'],
  layout: ['Layout'],
  paint: ['PrePaint', 'Paint', 'Layerize'],
};
/** Main-thread CPU per step of a phase: the PageDown phase per key, the wheel phase (with its fill-in) per wheel. */
function cpuPerStep(events: TraceEvent[], from: string, to: string, steps: number): Record<string, number> {
  const mark = (name: string) => events.find((event) => event.name === name)?.ts;
  const start = mark(from);
  const end = mark(to);
  const firstScroll = events.find((event) => event.name === 'EventDispatch' && event.args?.data?.type === 'scroll');
  if (start === undefined || end === undefined || !firstScroll) return {};
  const main = events.filter((event) => event.tid === firstScroll.tid && event.ph === 'X' && event.ts >= start && event.ts < end);
  // Only outermost events count, so nested FunctionCall inside EventDispatch is not counted twice.
  const sum = (names: string[]) => {
    let total = 0;
    let last = 0;
    for (const event of main.filter((candidate) => names.includes(candidate.name)).sort((a, b) => a.ts - b.ts)) {
      if (event.ts < last) continue;
      last = event.ts + (event.dur ?? 0);
      total += event.tdur ?? 0;
    }
    return total / 1000 / steps;
  };
  return { task: sum(['RunTask']), ...Object.fromEntries(Object.entries(phases).map(([phase, names]) => [phase, sum(names)])) };
}

// --compare dirA dirB …: alternate between harness builds made earlier (copies of .bench/harness-scroll), so
// variants meet the same background load; otherwise build the harness from the working tree.
const compareIndex = args.indexOf('--compare');
const variants = compareIndex >= 0 ? args.slice(compareIndex + 1).filter((arg) => !arg.startsWith('--')) : [out];
if (compareIndex < 0) {
  const { build } = await import('vite');
  await build({ root: join(root, 'scripts/bench/harness'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true }, base: './' });
}
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((request, response) => {
  const [, prefix = '0', ...rest] = ((request.url ?? '/').split('?')[0] ?? '/').split('/');
  const pathname = rest.join('/');
  const path = join(variants[Number(prefix)] ?? out, pathname === '' ? 'index.html' : pathname);
  if (!existsSync(path)) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await launchChromium();
const longest: number[][] = variants.map(() => []);
const counts: number[][] = variants.map(() => []);
const perFrame: number[][] = variants.map(() => []);
const cpuSamples: Record<string, number>[][] = variants.map(() => []);
const keySamples: Record<string, number>[][] = variants.map(() => []);
try {
  for (let run = 0; run < runs * variants.length; run += 1) {
    const variant = run % variants.length;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${origin}/${variant}/?mode=table`);
    await page.getByRole('grid').first().waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForTimeout(300);
    const renderedRows = await page.locator('tbody tr').count();
    const cdp = await page.context().newCDPSession(page);
    const tracing = (run === 0 && tracePath !== undefined) || cpuMode;
    const chunks: TraceEvent[] = [];
    if (tracing) {
      cdp.on('Tracing.dataCollected', (event) => chunks.push(...(event.value as unknown as TraceEvent[])));
      const categories =
        run === 0 && tracePath
          ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'disabled-by-default-v8.cpu_profiler']
          : ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];
      await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: categories, enableSampling: false } });
    }
    await page.evaluate(() => {
      const store = window as unknown as { __longTasks: number[]; __longTaskPhases: string[]; __phase: string };
      store.__longTasks = [];
      store.__longTaskPhases = [];
      store.__phase = 'start';
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          store.__longTasks.push(entry.duration);
          store.__longTaskPhases.push(store.__phase);
        }
      }).observe({ type: 'longtask' });
    });
    const phase = (name: string) =>
      page.evaluate((value) => {
        (window as unknown as { __phase: string }).__phase = value;
        performance.mark(`phase:${value}`);
      }, name);
    await cdp.send('Performance.enable');
    const before = await cdp.send('Performance.getMetrics');
    // The bench's script: 40 PageDown from the cursor row, 150 wheels of 900 px 16 ms apart and the fill-in
    // after them; then 40 PageUp.
    await phase('pagedown');
    await page.locator('tbody tr[tabindex="0"]').first().focus();
    for (let step = 0; step < 40; step += 1) await page.keyboard.press('PageDown');
    await phase('wheel');
    await page.mouse.move(700, 450);
    for (let step = 0; step < 150; step += 1) {
      await page.mouse.wheel(0, 900);
      await page.waitForTimeout(16);
    }
    await phase('fill-in');
    await page.waitForTimeout(500);
    await phase('pageup');
    for (let step = 0; step < 40; step += 1) await page.keyboard.press('PageUp');
    await page.waitForTimeout(100);
    const after = await cdp.send('Performance.getMetrics');
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const taskPhases = await page.evaluate(() => (window as unknown as { __longTaskPhases: string[] }).__longTaskPhases);
    if (tracing) {
      const done = new Promise<void>((settle) => cdp.once('Tracing.tracingComplete', () => settle()));
      await cdp.send('Tracing.end');
      await done;
      if (run === 0 && tracePath) writeFileSync(tracePath, JSON.stringify({ traceEvents: chunks }));
    }
    const perKey = cpuMode ? cpuPerStep(chunks, 'phase:pagedown', 'phase:wheel', 40) : {};
    const cpu = cpuMode ? cpuPerStep(chunks, 'phase:wheel', 'phase:pageup', 150) : {};
    if (cpuMode) keySamples[variant]?.push(perKey);
    if (cpuMode) cpuSamples[variant]?.push(cpu);
    const metric = (list: typeof before, name: string) => list.metrics.find((entry) => entry.name === name)?.value ?? 0;
    const delta = (name: string) => metric(after, name) - metric(before, name);
    const scrollTop = await page.evaluate(() => document.querySelector('.data-table-scroll')?.scrollTop ?? -1);
    const over = tasks.filter((duration) => duration > 50);
    longest[variant]?.push(tasks.length ? Math.max(...tasks) : 0);
    counts[variant]?.push(over.length);
    perFrame[variant]?.push((delta('TaskDuration') * 1000) / 150);
    console.log(
      `${variants.length > 1 ? `variant ${variant} ` : ''}run ${Math.floor(run / variants.length) + 1}: longest ${ms(longest[variant]?.at(-1) ?? 0)}, ${over.length} tasks over 50 ms (${tasks.map((task, index) => `${Math.round(task)} in ${taskPhases[index]}`).join(', ')}); ${renderedRows} rows in DOM; script ${ms(delta('ScriptDuration') * 1000)}, layout ${ms(delta('LayoutDuration') * 1000)} in ${delta('LayoutCount')}, style ${ms(delta('RecalcStyleDuration') * 1000)}, task ${ms(delta('TaskDuration') * 1000)}; scrollTop at end ${scrollTop}${
        cpuMode
          ? `; CPU per PageDown ${Object.entries(perKey)
              .map(([phase, value]) => `${phase} ${value.toFixed(1)}`)
              .join(', ')} ms; CPU per wheel ${Object.entries(cpu)
              .map(([phase, value]) => `${phase} ${value.toFixed(1)}`)
              .join(', ')} ms`
          : ''
      }`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
variants.forEach((variant, index) => {
  const longestOf = longest[index] ?? [];
  console.log(
    `${variants.length > 1 ? `${variant}: ` : ''}longest task over ${runs} runs: p50 ${ms(percentile(longestOf, 50))}, max ${ms(Math.max(...longestOf))}; tasks over 50 ms per run: ${(counts[index] ?? []).join(', ')}; main-thread task time per wheel p50 ${ms(percentile(perFrame[index] ?? [], 50))}${
      cpuMode
        ? `; CPU per PageDown p50 ${Object.keys(keySamples[index]?.[0] ?? {})
            .map(
              (phase) =>
                `${phase} ${percentile(
                  (keySamples[index] ?? []).map((sample) => sample[phase] ?? 0),
                  50,
                ).toFixed(1)}`,
            )
            .join(', ')} ms; CPU per wheel p50 ${Object.keys(cpuSamples[index]?.[0] ?? {})
            .map(
              (phase) =>
                `${phase} ${percentile(
                  (cpuSamples[index] ?? []).map((sample) => sample[phase] ?? 0),
                  50,
                ).toFixed(1)}`,
            )
            .join(', ')} ms`
        : ''
    }`,
  );
});
