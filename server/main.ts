// Starts the portal: database (migrated, seeded on first start), identity provider, Portal API and the app.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.ts';
import { CardKeyError, loadCardKeys, type CardKeys } from './cards/card-keys.ts';
import { resealPreviousKeys } from './cards/reseal-previous-keys.ts';
import { sealLegacyCardNumbers } from './cards/seal-legacy.ts';
import { parseTrustedProxies, TrustedProxiesError, withClientAddress, type TrustedProxies } from './client-address.ts';
import { readConfig } from './config.ts';
import { openMailTransport } from './mail/transport.ts';
import { startMailWorker } from './mail/worker.ts';
import { openDatabase } from './db/client.ts';
import { DataDirInUse } from './db/data-dir-lock.ts';
import { isSeeded, seedDatabase } from './seed/seed.ts';
import { startPayloadPurge } from './identity/adapter.ts';
import { describeFileStore, openFileStore } from './files/open-file-store.ts';
import { createIdentity } from './sign-in/router.ts';
import { logger, logLine } from './log.ts';
import { moveLegacyReportFiles } from './reports/file-sweeper.ts';
import { startReportWorker } from './reports/worker.ts';
import { startBulkWorker } from './bulk/worker.ts';
import { startRefundProcessor } from './payments/refund-processor.ts';
import { startSettlementJob } from './ledger/settlement-job.ts';
import { startScheduleRunner } from './reports/schedules.ts';
import { startHousekeeping } from './jobs/housekeeping.ts';
import { withRequestLog } from './request-log.ts';

const config = readConfig();
const started = Date.now();
const log = logLine('portal');
const cannotStart = (message: string) => logger.fatal({ component: 'portal' }, `cannot start: ${message}`);

// Which proxies' X-Forwarded-For is believed: a wrong entry stops the start (a typo must not trust everyone or no one silently).
let trustedProxies: TrustedProxies;
try {
  trustedProxies = parseTrustedProxies(config.trustedProxies);
} catch (error) {
  if (!(error instanceof TrustedProxiesError)) throw error;
  cannotStart(error.message);
  process.exit(1);
}
log(`trusted proxies: ${trustedProxies.describe}`);

// The card data key first: a bad one stops the start before anything is opened or written.
let cardKeys: CardKeys;
try {
  const loaded = loadCardKeys({
    cardDataKey: config.cardDataKey,
    previousKeys: config.cardDataPreviousKeys,
    dataDir: config.dataDir,
    sharedDatabase: config.databaseUrl !== undefined,
    warn: logLine('portal', 'warn'),
  });
  cardKeys = loaded.keys;
  log(
    `card data key ${loaded.keys.current.id} (${loaded.source}${loaded.path ? ` ${loaded.path}` : ''}${loaded.keys.previous.length ? `; ${loaded.keys.previous.length} previous` : ''})`,
  );
} catch (error) {
  if (!(error instanceof CardKeyError)) throw error;
  cannotStart(error.message);
  process.exit(1);
}

// Migrations and the first seed run once however many nodes start together on one PostgreSQL (an advisory lock).
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
  log,
  afterMigrate: async (opened) => {
    if (await isSeeded(opened)) return;
    log(`first start: seeding demo data with ${config.seedTransactions.toLocaleString('en-GB')} transactions…`);
    await seedDatabase(opened, { transactions: config.seedTransactions, log, cardKeys });
  },
}).catch((error: unknown) => {
  if (!(error instanceof DataDirInUse)) throw error;
  cannotStart(error.message);
  process.exit(1);
});
log(`database ready (${database.kind}${database.kind === 'pglite' ? ` at ${config.dataDir}` : ''})`);
// Data from before the card vault: clear card numbers sealed and erased (nothing to do on later starts); then, after
// a key rotation, cards sealed with a previous key sealed again with the current one.
await sealLegacyCardNumbers(database, cardKeys, { log });
await resealPreviousKeys(database, cardKeys, { log });

// Every file the portal keeps: a folder under DATA_DIR, or the S3 bucket every node shares (S3_BUCKET).
const files = openFileStore(config);
log(`files in ${describeFileStore(config)}`);
// Report files of a data directory from before the file store move in before anyone asks for them.
await moveLegacyReportFiles({ database, files, legacyDir: join(config.dataDir, 'reports'), log });

const identity = await createIdentity({
  database,
  publicUrl: config.publicUrl,
  clientId: config.clientId,
  issuer: config.issuer,
  apiAudience: config.apiAudience,
  cardKeys,
});

// Expired sessions, interactions, codes and refresh tokens: purged at start and every hour.
const payloadPurge = startPayloadPurge(database, { intervalMs: 3_600_000, log: logLine('identity') });

const app = createApp({
  database,
  cardKeys,
  verifyAccessToken: identity.verifyAccessToken,
  staticDir: fileURLToPath(new URL('../dist', import.meta.url)),
  publicUrl: config.publicUrl,
  files,
});
const apiListener = getRequestListener(app.fetch);
// Any node's worker may take any queued export: jobs are claimed with row locks and leases, and a job whose node
// died (this one before a restart, or another) is taken again at once. REPORT_BATCH_SIZE tunes the rows per
// statement (and per heartbeat); the fault suite makes it small so an export lasts long enough to be killed.
const reportBatchSize = Number(process.env.REPORT_BATCH_SIZE ?? '') || undefined;
// The outbox: any node's mail worker sends any queued message (SMTP_URL), or delivers it locally (the default).
const mailTransport = openMailTransport({ smtpUrl: config.smtpUrl, log: logLine('mail') });
log(`mail through ${mailTransport.describe}`);
const mailWorker = startMailWorker({ database, transport: mailTransport, from: config.mailFrom, pollMs: 1000, log: logLine('mail', 'warn') });
const reportWorker = startReportWorker({ database, files, pollMs: 1000, batchSize: reportBatchSize, log: logLine('reports') });
// Bulk actions over a selection (server/bulk/): leased like the report queue; BULK_BATCH_SIZE tunes items per heartbeat.
const bulkWorker = startBulkWorker({
  database,
  files,
  publicUrl: config.publicUrl,
  pollMs: 1000,
  batchSize: Number(process.env.BULK_BATCH_SIZE ?? '') || undefined,
  log: logLine('bulk'),
});
// Refunds move on through the (simulated) acquirer's answers: requested → processing → completed (server/payments/).
const refundProcessor = startRefundProcessor(database, { pollMs: 5000, log: logLine('payments') });
const settlementJob = startSettlementJob(database, { log: logLine('ledger') });
// Scheduled statements: due runs queue their reports, finished runs email their owners (server/reports/schedules.ts).
const scheduleRunner = startScheduleRunner(database, { publicUrl: config.publicUrl, log: logLine('reports') });
// API key expiry warnings and the watch list's signals, every 15 minutes (the first round 30 s after start).
const housekeeping = startHousekeeping(database, { publicUrl: config.publicUrl, files, log: logLine('housekeeping', 'warn') });

// The client's address (sign-in throttles, audit events, logs): X-Forwarded-For only from TRUSTED_PROXIES.
const server = createServer(
  withClientAddress(
    withRequestLog((request, response) => {
      const url = request.url ?? '/';
      if (url.startsWith('/connect') || url.startsWith('/.well-known/')) identity.handle(request, response);
      else void apiListener(request, response);
    }),
    trustedProxies,
  ),
);

// A port already taken ends the start with a clear message, the database closed (and its data directory unlocked).
server.once('error', (error: NodeJS.ErrnoException) => {
  cannotStart(error.code === 'EADDRINUSE' ? `port ${config.port} is in use (another npm start?); stop that one, or set PORT` : error.message);
  void database.close().finally(() => process.exit(1));
});
server.listen(config.port, () => {
  log(`ready on ${config.publicUrl} (port ${config.port}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  server.close();
  server.closeAllConnections();
  payloadPurge.stop();
  await reportWorker.stop();
  await bulkWorker.stop();
  await mailWorker.stop();
  mailTransport.close();
  await refundProcessor.stop();
  await settlementJob.stop();
  await scheduleRunner.stop();
  await housekeeping.stop();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
