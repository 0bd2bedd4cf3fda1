// npm run test:e2e: builds the app, starts the real server on a fresh embedded database, runs Playwright in Chromium.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { compressDist } from './compress-dist.ts';
import { findChromium } from './find-chromium.ts';
import { startServer } from './server-process.ts';

const root = resolve(import.meta.dirname, '..');
const chromium = findChromium();
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
compressDist(resolve(root, 'dist'));

const port = Number(process.env.E2E_PORT ?? 3100);
const server = await startServer({ port });
console.log(`[e2e] server on ${server.url}, Chromium at ${chromium}`);
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BASE_URL: server.url, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
await server.stop();
if (result.status !== 0) console.error(`[e2e] server log tail:\n${server.output().split('\n').slice(-30).join('\n')}`);
process.exit(result.status ?? 1);
