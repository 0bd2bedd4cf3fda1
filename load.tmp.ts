import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { startServer } from './scripts/server-process.ts';
const server = await startServer({ port: 3621 });
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await b.newPage({ viewport: { width: 1350, height: 940 } });
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Email').fill('solo@demo.test');
  await page.getByLabel('Password').fill('portal-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('region', { name: /^Dashboard/ }).waitFor();
  await page.waitForTimeout(2000);
  const cdp = await page.context().newCDPSession(page);
  const chunks: object[] = [];
  cdp.on('Tracing.dataCollected', (e) => chunks.push(...(e.value as object[])));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'] } });
  await page.reload();
  await page.waitForTimeout(4000);
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.end'); await done;
  writeFileSync('/tmp/load.json', JSON.stringify({ traceEvents: chunks }));
} finally { await b.close(); await server.stop(); }
