// Periodic work any node may run at any time (each step is idempotent and safe on several nodes at once): the API
// key expiry warnings (owners are emailed 7 days before a key expires, each key once), the account watch
// list's daily signals (refreshed from the last refreshed day on, under its own advisory lock), and the
// files of records that are gone (server/files/record-files-sweeper.ts).
import { warnExpiringApiKeys } from '../api/api-keys.ts';
import type { Database } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { sweepRecordFiles } from '../files/record-files-sweeper.ts';
import { refreshWatchList } from '../risk/watch-signals.ts';

export type Housekeeping = { stop: () => Promise<void> /** one round now (tests, and at start) */; runOnce: () => Promise<void> };

export function startHousekeeping(
  database: Database,
  options: { publicUrl: string; files: FileStore; intervalMs?: number; log?: (line: string) => void },
): Housekeeping {
  const log = options.log ?? (() => {});
  let running: Promise<void> | null = null;
  const round = async () => {
    try {
      const warned = await warnExpiringApiKeys(database, options.publicUrl);
      if (warned > 0) log(`API key expiry warnings queued for ${warned} key(s)`);
    } catch (error) {
      log(`API key expiry warnings: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      await refreshWatchList(database.db, new Date());
    } catch (error) {
      log(`watch list refresh: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      const swept = await sweepRecordFiles({ database, files: options.files });
      if (swept.images + swept.attachments > 0) log(`removed ${swept.images} image and ${swept.attachments} attachment file(s) of records that are gone`);
    } catch (error) {
      log(`record files: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const runOnce = () =>
    (running ??= round().finally(() => {
      running = null;
    }));
  const first = setTimeout(() => void runOnce(), 30_000);
  const timer = setInterval(() => void runOnce(), options.intervalMs ?? 15 * 60_000);
  return {
    runOnce,
    stop: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
