// The data set of the api and search sections: seeded once, with its settlement ledger as the portal runs (the seed
// takes about 3½ minutes at 2,000,000 transactions on PostgreSQL, 12 on PGlite), and kept between runs. What it holds
// goes in the section's heading, so a database kept from before the benchmarks ran with the ledger says so.
import { resolve } from 'node:path';
import { loadCardKeys } from '../../server/cards/card-keys.ts';
import type { Database } from '../../server/db/client.ts';
import { isSeeded, seedDatabase } from '../../server/seed/seed.ts';

type LoadedKeys = ReturnType<typeof loadCardKeys>;

/** keyPath: the file the card key came from (none when CARD_DATA_KEY gave it), for other processes to read. */
export type BenchData = { cardKeys: LoadedKeys['keys']; keyPath: LoadedKeys['path']; described: string };

export async function ensureBenchData(database: Database, options: { kind: string; transactions: number; dataDir?: string | undefined }): Promise<BenchData> {
  // The data set outlives a run, so its card key does too: the server's key for the PGlite folder, else .bench's.
  const { keys: cardKeys, path: keyPath } = loadCardKeys({
    cardDataKey: process.env.CARD_DATA_KEY,
    dataDir: options.dataDir ?? resolve(import.meta.dirname, '../../.bench'),
  });
  if (!(await isSeeded(database))) {
    console.log(`[bench] seeding ${options.kind} with ${options.transactions.toLocaleString('en-GB')} transactions and their ledger (once)…`);
    await seedDatabase(database, { transactions: options.transactions, ledger: true, log: (line) => console.log(`[seed] ${line}`), cardKeys });
  }
  const [counts] = await database.query<{ transactions: number; entries: number }>(
    'SELECT (SELECT count(*)::int FROM transactions) AS transactions, (SELECT count(*)::int FROM ledger_entries) AS entries',
  );
  const transactions = Number(counts?.transactions ?? 0);
  const entries = Number(counts?.entries ?? 0);
  const described =
    entries > 0
      ? `${transactions.toLocaleString('en-GB')} transactions, ${entries.toLocaleString('en-GB')} ledger entries`
      : `${transactions.toLocaleString('en-GB')} transactions, no ledger: seeded before the benchmarks ran with it; drop the database to measure with it`;
  return { cardKeys, keyPath, described };
}
