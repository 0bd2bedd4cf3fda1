import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUse, lockDataDir } from '../../../server/db/data-dir-lock.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'portal-lock-'));

/** A live process that is not this one, and a way to end it. */
async function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)'], { stdio: 'ignore' });
  await new Promise((ready) => child.once('spawn', ready));
  const exited = new Promise((done) => child.once('exit', done));
  return {
    pid: child.pid as number,
    end: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('the embedded data directory lock', () => {
  it('holds this process’s pid while locked, and goes on release, leaving no draft behind', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    expect(readdirSync(dir)).toEqual(['portal.lock']);
    release();
    expect(existsSync(join(dir, 'portal.lock'))).toBe(false);
  });

  it('refuses a directory another live process holds, and takes it over once that process is gone', async () => {
    const dir = dataDir();
    const other = await otherProcess();
    writeFileSync(join(dir, 'portal.lock'), String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${other.pid}`));
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(other.pid));
    await other.end();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('takes over a lock left unreadable or by an earlier life of this pid', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'portal.lock'), '');
    lockDataDir(dir)();
    writeFileSync(join(dir, 'portal.lock'), String(process.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('leaves a lock it does not own in place on release', async () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    const other = await otherProcess();
    writeFileSync(join(dir, 'portal.lock'), String(other.pid));
    release();
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(other.pid));
    await other.end();
  });
});
