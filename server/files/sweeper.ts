// Removing files nothing refers to any more, for any area that keeps files in the FileStore. Safe on any node at any
// time, alongside others doing the same: deleting is idempotent, and a file is taken for an orphan only when it is
// older than a grace period and its owner (asked in pages) does not name it, so a file stored a moment ago by a node
// that has not yet committed the row naming it is left alone.
import { systemNow } from '../clock.ts';
import type { FileStore } from './file-store.ts';

export type OrphanSweep = {
  /** the area's keys: 'reports/' */
  prefix: string;
  /** files younger than this are never taken for orphans */
  graceMs: number;
  /** of these keys, the ones a record still names */
  referenced: (keys: readonly string[]) => Promise<ReadonlySet<string>>;
  /** keys the area does not own (someone else's naming) are left alone */
  owns?: (key: string) => boolean;
  pageSize?: number;
};

/** Deletes unreferenced files under the prefix older than the grace period (by the clock that stamped them); returns how many. */
export async function sweepOrphanFiles(files: FileStore, sweep: OrphanSweep, now: Date = systemNow()): Promise<number> {
  const cutOff = now.getTime() - sweep.graceMs;
  const pageSize = sweep.pageSize ?? 500;
  let removed = 0;
  let page: string[] = [];
  const settle = async () => {
    const referenced = await sweep.referenced(page);
    for (const key of page) {
      if (referenced.has(key)) continue;
      await files.delete(key);
      removed += 1;
    }
    page = [];
  };
  for await (const file of files.list(sweep.prefix)) {
    if (file.lastModified.getTime() > cutOff || (sweep.owns && !sweep.owns(file.key))) continue;
    page.push(file.key);
    if (page.length >= pageSize) await settle();
  }
  if (page.length > 0) await settle();
  return removed;
}
