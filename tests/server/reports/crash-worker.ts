// Run as a child process by crash.test.ts: a report worker on its own node that the test kills with SIGKILL
// mid-export. It reports progress on stdout and slows down after each batch so the kill lands mid-file.
import { openDatabase } from '../../../server/db/client.ts';
import { startReportWorker } from '../../../server/reports/worker.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const database = await openDatabase({ url: env('DATABASE_URL'), poolSize: 2 });
const batchDelayMs = Number(env('BATCH_DELAY_MS'));
startReportWorker({
  database,
  filesDir: env('FILES_DIR'),
  nodeId: 'doomed-node',
  pollMs: 20,
  leaseMs: Number(env('LEASE_MS')),
  batchSize: Number(env('BATCH_SIZE')),
  log: (line) => console.log(line),
  afterBatch: async ({ processedRows }) => {
    console.log(`progress ${processedRows}`);
    await new Promise((done) => setTimeout(done, batchDelayMs));
  },
});
console.log('ready');
