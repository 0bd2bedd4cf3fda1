// A lab audit with the Lighthouse package in Debian Chromium (desktop settings): the sign-in page (where an
// unauthenticated /dashboard lands), then the dashboard and transactions of a signed-in user. Chromium keeps the
// provider's session cookie between audits (storage is not reset), so each audit signs in silently.
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPortal } from '../build-portal.ts';
import { findChromium } from '../find-chromium.ts';
import { startServer } from '../server-process.ts';
import { markdownTable } from './stats.ts';

export async function benchLighthouse(): Promise<string> {
  const chromePath = findChromium();
  // The portal as npm start serves it, built from the current sources (once per bench run).
  await buildPortal();
  const server = await startServer({ port: Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 3650) });
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const rows: (string | number)[][] = [];
  try {
    const audit = async (name: string, path: string) => {
      const result = await lighthouse(
        `${server.url}${path}`,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true },
        desktopConfig,
      );
      const categories = result?.lhr.categories;
      // BENCH_LIGHTHOUSE_TRACES=dir keeps each audit's trace (DevTools' Performance panel opens it).
      const traces = process.env.BENCH_LIGHTHOUSE_TRACES;
      const artifacts = result?.artifacts as { Trace?: unknown } | undefined;
      if (traces && artifacts?.Trace) writeFileSync(join(traces, `${name}.trace.json`), JSON.stringify(artifacts.Trace));
      const score = (value: number | null | undefined) => (value == null ? 'n/a' : Math.round(value * 100));
      rows.push([
        name,
        result?.lhr.finalDisplayedUrl.replace(server.url, '') ?? path,
        score(categories?.performance?.score),
        score(categories?.accessibility?.score),
      ]);
      if (process.env.BENCH_VERBOSE) {
        // What the performance score is made of: each metric's value and its own score.
        const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];
        const audits = result?.lhr.audits ?? {};
        console.log(`[lighthouse] ${name}: ${metrics.map((id) => `${id} ${audits[id]?.displayValue ?? 'n/a'} (${score(audits[id]?.score)})`).join(', ')}`);
        // The long tasks behind the blocking time: where each started, how long it ran, whose script it was.
        const longTasks = (audits['long-tasks']?.details as { items?: { url?: string; startTime?: number; duration?: number }[] } | undefined)?.items ?? [];
        console.log(
          `[lighthouse] ${name} long tasks: ${longTasks.map((task) => `${Math.round(task.startTime ?? 0)} ms +${Math.round(task.duration ?? 0)} ms ${(task.url ?? '').replace(server.url, '')}`).join('; ') || 'none'}`,
        );
      }
    };
    await audit('sign-in', '/dashboard');
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel('Email').fill('solo@demo.test');
    await page.getByLabel('Password').fill('portal-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('region', { name: /^Dashboard/ }).waitFor();
    await page.close();
    await audit('dashboard', '/dashboard');
    await audit('transactions', '/transactions');
  } finally {
    chrome.kill();
    await server.stop();
  }
  return `### Lighthouse (desktop settings, Debian Chromium)\n\n${markdownTable(['page', 'audited address', 'performance', 'accessibility'], rows)}\n\nGoals: performance 95, accessibility 100.`;
}
