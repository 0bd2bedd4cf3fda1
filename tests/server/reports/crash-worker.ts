// Run as a child process by crash.test.ts: a report worker on its own node that the test kills with SIGKILL
// mid-export. It reports progress on stdout and slows down after each batch so the kill lands mid-file.
import { openDatabase } from '../../../server/db/client.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { openFileStore } from '../../../server/files/open-file-store.ts';
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
  // The folder FILES_DIR, or the S3 bucket of S3_BUCKET (and the SDK's AWS_* variables) as a server would use it.
  files: process.env.S3_BUCKET ? openFileStore({ dataDir: '', s3Bucket: process.env.S3_BUCKET }) : createFolderStore(env('FILES_DIR')),
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
