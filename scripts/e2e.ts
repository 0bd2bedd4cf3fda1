// npm run test:e2e: builds the app, starts the real server on a fresh embedded database, runs Playwright in Chromium.
// The server sends its mail (SMTP_URL) to an SMTP server started here, which writes every message it receives, one
// JSON file each ({ from, to, raw }), to E2E_MAIL_DIR: journeys read them with emailTo() (e2e/support.ts).
//
// E2E_SHARDS=N runs the suite in N shards side by side (default 1): each shard is one Playwright process with its own
// server, database, SMTP server, mail folder and artifacts folder, so journeys of different shards never see each
// other's writes or mail. The database is seeded once: the first server seeds it and stops, and every shard starts on
// its own copy of the folder. On the two-core machines two shards were no faster than one (a shard of 37 journeys took
// 19.1 min, the whole suite alone about 18.5): a journey keeps the browser and the server busy, so the default is one;
// the option is for machines with more cores.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compressDist } from './compress-dist.ts';
import { findChromium } from './find-chromium.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { startSmtpTestServer } from '../tests/server/mail/smtp-test-server.ts';

const root = resolve(import.meta.dirname, '..');
const chromium = findChromium();
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
compressDist(resolve(root, 'dist'));

const args = process.argv.slice(2);
const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 1));
const basePort = Number(process.env.E2E_PORT ?? 3100);
// 50,000 transactions: enough for merchants to cross the watch list's thresholds (5 do; none at 20,000).
const serverEnv = { SEED_TRANSACTIONS: '50000' };

/** Seeds a database folder once (a server started on an empty folder seeds it), then stops that server. */
async function seededFolder(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-data-'));
  const started = performance.now();
  const seeding = await startServer({ port: basePort, dataDir, env: serverEnv, timeoutMs: 600_000 });
  await seeding.stop();
  console.log(`[e2e] seeded ${dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return dataDir;
}

type Shard = { index: number; server: ServerProcess; smtp: Awaited<ReturnType<typeof startSmtpTestServer>>; mailDir: string };

async function startShard(index: number, seeded: string): Promise<Shard> {
  const mailDir = mkdtempSync(join(tmpdir(), `portal-e2e-mail-${index}-`));
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
  const dataDir = mkdtempSync(join(tmpdir(), `portal-e2e-data-${index}-`));
  cpSync(seeded, dataDir, { recursive: true });
  const server = await startServer({ port: basePort + index, dataDir, env: { ...serverEnv, SMTP_URL: smtp.url }, timeoutMs: 420_000 }).catch(
    async (error: unknown) => {
      await smtp.close();
      throw error;
    },
  );
  console.log(`[e2e] shard ${index + 1}/${shards}: server on ${server.url}, mail through ${smtp.url} into ${mailDir}, Chromium at ${chromium}`);
  return { index, server, smtp, mailDir };
}

/** One Playwright process per shard; with several, each line it prints is prefixed with its shard. */
async function runShard(shard: Shard): Promise<number> {
  // Each shard writes its traces and failure reports to a folder of its own: two runs sharing test-results/ removed
  // each other's artifacts mid-journey.
  const shardArgs = shards > 1 ? [`--shard=${shard.index + 1}/${shards}`, `--output=test-results/shard-${shard.index + 1}`] : [];
  // Not spawnSync: this process's event loop must keep running for the SMTP server to answer while the journeys run.
  const playwright = spawn('npx', ['playwright', 'test', ...shardArgs, ...args], {
    cwd: root,
    stdio: shards > 1 ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, BASE_URL: shard.server.url, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_MAIL_DIR: shard.mailDir },
  });
  if (shards > 1) {
    const prefix = `[${shard.index + 1}/${shards}] `;
    for (const stream of [playwright.stdout, playwright.stderr]) {
      let pending = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      });
      stream?.on('end', () => {
        if (pending) process.stdout.write(`${prefix}${pending}\n`);
      });
    }
  }
  const status = await new Promise<number>((done) => playwright.once('exit', (code) => done(code ?? 1)));
  await shard.server.stop();
  await shard.smtp.close();
  if (status !== 0)
    console.error(`[e2e] shard ${shard.index + 1}/${shards} failed; its server's log tail:\n${shard.server.output().split('\n').slice(-30).join('\n')}`);
  return status;
}

const seeded = await seededFolder();
const started: Shard[] = [];
try {
  for (let index = 0; index < shards; index += 1) started.push(await startShard(index, seeded));
} catch (error) {
  await Promise.all(
    started.map(async (shard) => {
      await shard.server.stop();
      await shard.smtp.close();
    }),
  );
  throw error;
}
const statuses = await Promise.all(started.map(runShard));
process.exit(statuses.find((status) => status !== 0) ?? 0);
