// The embedded database belongs to one process: PGlite has no server to arbitrate between writers, and two processes
// on one data directory (a second npm start in the same folder) write over each other's files until PostgreSQL
// inside aborts on open. The data directory is locked by a file holding the owner's pid, made complete under a
// temporary name and linked into place (link fails if the lock exists: no reader ever sees it half written). A lock
// whose process has gone (killed, crashed) is taken over.
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUse extends Error {}

const lockName = 'portal.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Locks `dataDir` for this process; throws DataDirInUse when another live process holds it. Returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, lockName);
  const draft = join(dataDir, `${lockName}.${process.pid}`);
  writeFileSync(draft, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        linkSync(draft, path);
        return () => {
          if (ownerOf(path) === process.pid) unlinkSync(path);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = ownerOf(path);
        // A pid of this very process is an earlier life of it (a restarted container reuses pids): stale too.
        if (owner !== null && owner !== process.pid && alive(owner)) {
          throw new DataDirInUse(
            `the embedded database at ${dataDir} is in use by process ${owner} (another npm start?): stop that one, or give this one its own DATA_DIR`,
          );
        }
        unlinkSync(path);
      }
    }
    throw new Error(`could not lock ${dataDir}: its lock kept coming back`);
  } finally {
    unlinkSync(draft);
  }
}
