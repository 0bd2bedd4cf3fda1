// Starts the real portal server as a child process (e2e, fault suites, benchmarks) and waits until it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export type ServerProcess = { url: string; child: ChildProcess; output: () => string; stop: () => Promise<void>; kill9: () => Promise<void> };

const root = resolve(import.meta.dirname, '..');

/** Refuses a busy port up front, so a suite never talks to somebody else's server by mistake. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((done, fail) => {
    const probe = createServer();
    probe.once('error', () => fail(new Error(`port ${port} is already in use: stop that server or choose another port`)));
    probe.listen(port, () => probe.close(() => done()));
  });
}

/** root: another checkout of the portal to run (a benchmark's "before"); default this one */
export async function startServer(options: {
  port: number;
  dataDir?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  root?: string;
}): Promise<ServerProcess> {
  const url = `http://localhost:${options.port}`;
  await assertPortFree(options.port);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-data-'));
  const child = spawn(process.execPath, [join(options.root ?? root, 'server/main.ts')], {
    cwd: options.root ?? root,
    env: { ...process.env, PORT: String(options.port), PUBLIC_URL: url, DATA_DIR: dataDir, SEED_TRANSACTIONS: '20000', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/connect/.well-known/openid-configuration`);
      if (response.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((done) => setTimeout(done, 300));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`server did not start within the timeout:\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill9: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
