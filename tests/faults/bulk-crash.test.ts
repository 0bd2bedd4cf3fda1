// A node dies in the middle of a bulk job on PostgreSQL: node A has committed a batch's progress and two
// more items, holding the job's lease, when its connections go (as a killed process's do: its presence lock with
// them). Node B takes the job over at once (A's presence is gone), goes on from A's cursor, skips the two items A
// did after it, and finishes: every item acted on exactly once, one result, attempt 2.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client.ts';
import * as schema from '../../server/db/schema.ts';
import { runNextBulkJob } from '../../server/bulk/worker.ts';
import { presenceLockClass } from '../../server/reports/presence.ts';
import { createTestApp, fixture, insertFixtureWorld } from '../server/support.ts';
import { insertBulkFixtures } from '../server/api/bulk-fixtures.ts';
import { openTestFileStore, type TestFileStore } from '../server/reports/report-support.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const urlOf = (name: string) => {
  const parsed = new URL(adminUrl ?? 'postgres://localhost/x');
  parsed.pathname = `/${name}`;
  return parsed.toString();
};
async function admin(text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)('a node dies mid bulk job (PostgreSQL)', () => {
  const name = `portal_bulk_crash_${randomBytes(4).toString('hex')}`;
  let nodeB: Database;
  let store: TestFileStore;
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    nodeB = await openDatabase({ url: urlOf(name), poolSize: 4 });
    await insertFixtureWorld(nodeB);
    await insertBulkFixtures(nodeB);
    store = await openTestFileStore('folder');
  });
  afterAll(async () => {
    await nodeB?.close();
    await store?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  });

  it('is finished by another node, every item exactly once', async () => {
    const { call } = createTestApp(nodeB, { files: store.files });
    const created = await call(fixture.users.owner, 'POST', '/bulk-jobs', {
      area: 'payment-jobs',
      action: 'cancel',
      context: { level: 'business', businessId: 'B3' },
      selection: { allMatching: true, filters: { status: '[eq]pending' }, includedIds: [], excludedIds: [] },
    });
    expect(created.status).toBe(202);
    const { job } = (await created.json()) as { job: { id: string; totalItems: number } };
    expect(job.totalItems).toBe(14);

    const nodeA = await openDatabase({ url: urlOf(name), poolSize: 2 });
    let items = 0;
    let died: () => void = () => undefined;
    const dead = new Promise<void>((resolve) => {
      died = resolve;
    });
    // Node A never returns from its seventh item: it is dead, not failing (no catch of its own runs, no lease is given back).
    void runNextBulkJob({
      database: nodeA,
      files: store.files,
      publicUrl: 'https://portal.test',
      nodeId: 'node-a',
      batchSize: 5,
      leaseMs: 600_000,
      log: () => undefined,
      afterItem: async () => {
        items += 1;
        // After the first batch's progress and two more items: every connection of node A goes, mid-job.
        if (items === 7) {
          // Its presence session is killed (a killed process's connections end the same way) and its work stops here.
          await nodeB.query(`SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = ${presenceLockClass}::oid
            AND l.objid = (SELECT hashtext('node-a'))::oid AND l.objsubid = 2 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
          died();
          await new Promise(() => undefined);
        }
      },
    }).catch(() => undefined);
    await dead;
    await Promise.race([nodeA.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);

    const [held] = await nodeB.db.select().from(schema.bulkJobs).where(eq(schema.bulkJobs.id, job.id));
    // Still leased to A for ten minutes, with the progress of its first batch; only its presence is gone.
    expect(held).toMatchObject({ status: 'running', lockedBy: 'node-a', processedItems: 5, attempts: 1 });
    expect(held?.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 60_000);
    const [doneByA] = await nodeB.db.select({ n: sql<number>`count(*)::int` }).from(schema.bulkJobItems).where(eq(schema.bulkJobItems.jobId, job.id));
    expect(Number(doneByA?.n)).toBe(7);

    expect(
      await runNextBulkJob({ database: nodeB, files: store.files, publicUrl: 'https://portal.test', nodeId: 'node-b', batchSize: 5, log: () => undefined }),
    ).toBe('completed');
    const [finished] = await nodeB.db.select().from(schema.bulkJobs).where(eq(schema.bulkJobs.id, job.id));
    expect(finished).toMatchObject({ status: 'completed', attempts: 2, processedItems: 14, succeededItems: 14, failedItems: 0, lockedBy: null });
    // Exactly once: one item row and one cancellation audit event per job, none twice.
    const audits = await nodeB.query<{ reference: string; n: number }>(
      `SELECT meta_data->>'paymentJobReference' AS reference, count(*)::int AS n FROM audit_events WHERE event = 'PaymentJobCancellationSuccessful' GROUP BY 1`,
    );
    expect(audits.every((row) => Number(row.n) === 1)).toBe(true);
    const cancelled = await nodeB.db.select().from(schema.paymentJobs).where(eq(schema.paymentJobs.status, 'cancelled'));
    expect(cancelled).toHaveLength(14);
  });
});
