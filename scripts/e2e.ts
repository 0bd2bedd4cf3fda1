// npm run test:e2e: builds the app, starts the real server on a fresh embedded database, runs Playwright in Chromium.
// The server sends its mail (SMTP_URL) to an SMTP server started here, which writes every message it receives, one
// JSON file each ({ from, to, raw }), to E2E_MAIL_DIR: journeys read them with emailTo() (e2e/support.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compressDist } from './compress-dist.ts';
import { findChromium } from './find-chromium.ts';
import { startServer } from './server-process.ts';
import { startSmtpTestServer } from '../tests/server/mail/smtp-test-server.ts';

const root = resolve(import.meta.dirname, '..');
const chromium = findChromium();
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
compressDist(resolve(root, 'dist'));

const port = Number(process.env.E2E_PORT ?? 3100);
const mailDir = mkdtempSync(join(tmpdir(), 'portal-e2e-mail-'));
let mailCount = 0;
const smtp = await startSmtpTestServer({
  onMessage: (mail) => {
    mailCount += 1;
    const name = join(mailDir, `${String(mailCount).padStart(6, '0')}.json`);
    // Written whole, then renamed: a journey polling the folder never reads half a message.
    writeFileSync(`${name}.part`, JSON.stringify(mail));
    renameSync(`${name}.part`, name);
  },
});
// 50,000 transactions: enough for merchants to cross the watch list's thresholds (5 do; none at 20,000).
const server = await startServer({ port, env: { SMTP_URL: smtp.url, SEED_TRANSACTIONS: '50000' }, timeoutMs: 420_000 }).catch(async (error: unknown) => {
  await smtp.close();
  throw error;
});
console.log(`[e2e] server on ${server.url}, mail through ${smtp.url} into ${mailDir}, Chromium at ${chromium}`);
// Not spawnSync: this process's event loop must keep running for the SMTP server to answer while the journeys run.
const playwright = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BASE_URL: server.url, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_MAIL_DIR: mailDir },
});
const result = await new Promise<{ status: number | null }>((done) => playwright.once('exit', (status) => done({ status })));
await server.stop();
await smtp.close();
if (result.status !== 0) console.error(`[e2e] server log tail:\n${server.output().split('\n').slice(-30).join('\n')}`);
process.exit(result.status ?? 1);
