// npm run seed -- [--transactions 2000000] [--reset] [--random-seed 20240601] [--no-ledger]
// Seeds the database the server uses (DATABASE_URL, else PGlite under DATA_DIR, default ./data) with the demo
// world. --reset first empties every application table (the migration journal stays), which also drops the
// identity provider's sessions and signing keys. Stop the server first: PGlite allows one process at a time.
import { CardKeyError, loadCardKeys, type CardKeys } from '../cards/card-keys.ts';
import { readConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { demoAccounts, demoPassword, isSeeded, resetDatabase, seedDatabase } from './seed.ts';

const usage = 'usage: npm run seed -- [--transactions N] [--reset] [--random-seed N] [--no-ledger]';

function parseArguments(args: readonly string[], defaultTransactions: number) {
  const options = { transactions: defaultTransactions, reset: false, randomSeed: undefined as number | undefined, ledger: true };
  const count = (name: string, text: string | undefined) => {
    const value = Number((text ?? '').replace(/[_,]/g, ''));
    if (!text || !Number.isSafeInteger(value) || value < 0) throw new Error(`${name} needs a non-negative whole number\n${usage}`);
    return value;
  };
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = (args[i] ?? '').split('=', 2) as [string, string | undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--transactions') options.transactions = count(flag, value());
    else if (flag === '--random-seed') options.randomSeed = count(flag, value());
    else if (flag === '--reset') options.reset = true;
    else if (flag === '--no-ledger') options.ledger = false;
    else if (flag === '--help' || flag === '-h') {
      console.log(usage);
      process.exit(0);
    } else throw new Error(`unknown argument ${args[i]}\n${usage}`);
  }
  return options;
}

const config = readConfig();
let options: ReturnType<typeof parseArguments>;
try {
  options = parseArguments(process.argv.slice(2), config.seedTransactions);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const log = (line: string) => console.log(`[seed] ${line}`);
// The server's own card data key (CARD_DATA_KEY, else the key file in DATA_DIR): the server opens what the seed seals.
let cardKeys: CardKeys;
try {
  cardKeys = loadCardKeys({
    cardDataKey: config.cardDataKey,
    previousKeys: config.cardDataPreviousKeys,
    dataDir: config.dataDir,
    sharedDatabase: config.databaseUrl !== undefined,
    warn: (line) => console.warn(`[seed] warning: ${line}`),
  }).keys;
} catch (error) {
  if (!(error instanceof CardKeyError)) throw error;
  console.error(`[seed] ${error.message}`);
  process.exit(2);
}
const started = performance.now();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
log(
  `database: ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${config.dataDir}`}, opened and migrated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

try {
  if (options.reset) {
    const resetStarted = performance.now();
    const tables = await resetDatabase(database);
    log(`reset: emptied ${tables.length} tables in ${((performance.now() - resetStarted) / 1000).toFixed(1)} s`);
  } else if (await isSeeded(database)) {
    console.error('[seed] the database already holds data; run with --reset to replace it');
    process.exitCode = 1;
  }
  if (process.exitCode !== 1) {
    log(`seeding ${options.transactions.toLocaleString('en-GB')} transactions…`);
    const summary = await seedDatabase(database, { transactions: options.transactions, randomSeed: options.randomSeed, ledger: options.ledger, log, cardKeys });
    const { timings, demo, ...counts } = summary;
    log(
      `counts: ${Object.entries(counts)
        .map(([name, value]) => `${name} ${typeof value === 'number' ? value.toLocaleString('en-GB') : value}`)
        .join(', ')}`,
    );
    log(
      `demo ids: ${Object.entries(demo)
        .map(([name, value]) => `${name} ${value}`)
        .join(', ')}`,
    );
    log(
      `timings (s): ${Object.entries(timings)
        .map(([name, ms]) => `${name.replace(/Ms$/, '')} ${(ms / 1000).toFixed(1)}`)
        .join(', ')}`,
    );
    log(`demo accounts (password '${demoPassword}'): ${demoAccounts.map((account) => account.email).join(', ')}`);
  }
} finally {
  await database.close();
}
if (process.exitCode !== 1) log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
