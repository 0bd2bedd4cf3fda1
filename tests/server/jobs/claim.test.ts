// The one way workers claim work (server/jobs/claim.ts), on the mail outbox's table: the first claimable row in the
// caller's order, marked with the caller's status and lease and attempts + 1; a row whose attempts are spent ended
// instead; the caller's instants only (a fixed clock here, far from the real one); a claim undone with its transaction;
// rows another transaction holds passed over without waiting (PostgreSQL: PGlite has one connection). PGlite always,
// PostgreSQL when TEST_DATABASE_URL is set.
import { and, asc, eq, getTableColumns, lt, lte, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { outboundEmails } from '../../../server/db/schema.ts';
import { claimNext, lockClaimable } from '../../../server/jobs/claim.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';

const o = outboundEmails;
/** The instant a test claims at: years from the real clock, so nothing here can lean on it. */
const t0 = new Date('2031-05-05T10:00:00.000Z');
const plus = (ms: number) => new Date(t0.getTime() + ms);
const sqlAt = (at: Date) => sql<Date>`${at.toISOString()}::timestamptz`;

/** The mail worker's condition and order, at a given instant. */
const due = (at: Date) => or(and(eq(o.status, 'queued'), lte(o.nextAttemptAt, sqlAt(at))), and(eq(o.status, 'sending'), lt(o.lockedUntil, sqlAt(at))));
const order = [asc(o.nextAttemptAt), asc(o.id)];

type Message = Partial<typeof o.$inferInsert> & { id: string };
const message = (row: Message) => ({ recipient: 'a@example.test', subject: 'Subject', template: 'test', html: '<p>x</p>', text: 'x', ...row });

for (const kind of databaseKinds) {
  describe(`claiming work on ${kind}`, () => {
    let database: Database;
    const statements: string[] = [];
    beforeAll(async () => {
      database = await createTestDatabase(kind, { onQuery: (text) => statements.push(text) });
    });
    afterAll(async () => database?.close());
    beforeEach(async () => {
      await database.db.delete(o);
      statements.length = 0;
    });

    const insert = (...rows: Message[]) => database.db.insert(o).values(rows.map(message));
    const read = async (id: string) => (await database.db.select().from(o).where(eq(o.id, id)))[0];
    const claimAt = (at: Date, extra: { owner?: string; giveUp?: boolean; claimed?: (row: typeof o.$inferSelect) => Promise<unknown> } = {}) => {
      let leaseAsked = 0;
      const claiming = claimNext({
        db: database.db,
        table: o,
        columns: { id: o.id, status: o.status, attempts: o.attempts, lockedBy: o.lockedBy },
        where: due(at),
        order,
        giveUp: (candidate) => (extra.giveUp && candidate.attempts >= 8 ? { status: 'failed', lockedBy: null, lockedUntil: null, lastError: 'spent' } : null),
        status: 'sending',
        lease: {
          owner: extra.owner ?? 'node-a',
          until: () => {
            leaseAsked += 1;
            return sqlAt(plus(60_000));
          },
        },
        reset: { lastError: null },
        claimed: extra.claimed ? (_tx, row) => (extra.claimed as (row: typeof o.$inferSelect) => Promise<unknown>)(row) : undefined,
      });
      return claiming.then((outcome) => ({ outcome, leaseAsked }));
    };

    it('takes the first claimable row in the given order: status, attempts + 1, the lease; then the next; then none', async () => {
      await insert(
        { id: 'M2', nextAttemptAt: plus(-60_000), lastError: 'earlier failure', attempts: 1 },
        { id: 'M1', nextAttemptAt: plus(-120_000) },
        { id: 'M3', status: 'sending', attempts: 3, lockedBy: 'node-b', lockedUntil: plus(30_000) },
        { id: 'M4', nextAttemptAt: plus(300_000) },
      );
      const first = await claimAt(t0);
      expect(first.outcome.kind).toBe('claimed');
      if (first.outcome.kind !== 'claimed') return;
      expect(first.outcome.candidate).toEqual({ id: 'M1', status: 'queued', attempts: 0, lockedBy: null });
      expect(first.outcome.row).toMatchObject({ id: 'M1', status: 'sending', attempts: 1, lockedBy: 'node-a' });
      // The lease's end is the caller's instant exactly, asked for once: no clock is read inside.
      expect(first.outcome.row.lockedUntil?.getTime()).toBe(plus(60_000).getTime());
      expect(first.leaseAsked).toBe(1);
      const second = await claimAt(t0);
      expect(second.outcome.kind === 'claimed' && second.outcome.row).toMatchObject({ id: 'M2', attempts: 2, lastError: null });
      // M3's lease has not lapsed at t0, M4 is not due yet, M1 and M2 are taken.
      const third = await claimAt(t0);
      expect(third.outcome).toEqual({ kind: 'none' });
      expect(third.leaseAsked).toBe(0);
      expect((await read('M4'))?.status).toBe('queued');
      const statement = statements.find((text) => /for update skip locked/i.test(text));
      expect(statement).toMatch(/order by "outbound_emails"\."next_attempt_at" asc, "outbound_emails"\."id" asc limit \$\d+ for update skip locked$/i);
    });

    it('takes over a row whose lease lapsed by the caller’s clock, and tells what it was', async () => {
      await insert({ id: 'M3', status: 'sending', attempts: 3, lockedBy: 'node-b', lockedUntil: plus(30_000) });
      expect((await claimAt(t0)).outcome.kind).toBe('none');
      const later = plus(31_000);
      const { outcome } = await claimAt(later, { owner: 'node-c' });
      expect(outcome.kind === 'claimed' && outcome.candidate).toEqual({ id: 'M3', status: 'sending', attempts: 3, lockedBy: 'node-b' });
      expect(outcome.kind === 'claimed' && outcome.row).toMatchObject({ status: 'sending', attempts: 4, lockedBy: 'node-c' });
    });

    it('ends a row whose attempts are spent instead of claiming it, without counting an attempt or asking for a lease', async () => {
      await insert({ id: 'M8', status: 'sending', attempts: 8, lockedBy: 'node-b', lockedUntil: plus(-1) });
      const { outcome, leaseAsked } = await claimAt(t0, { giveUp: true });
      expect(outcome).toEqual({ kind: 'gaveUp', candidate: { id: 'M8', status: 'sending', attempts: 8, lockedBy: 'node-b' } });
      expect(leaseAsked).toBe(0);
      expect(await read('M8')).toMatchObject({ status: 'failed', attempts: 8, lockedBy: null, lockedUntil: null, lastError: 'spent' });
      expect((await claimAt(t0, { giveUp: true })).outcome.kind).toBe('none');
    });

    it('runs `claimed` in the claim’s transaction: when it fails, the claim is undone', async () => {
      await insert({ id: 'M1', nextAttemptAt: plus(-1) });
      await expect(
        claimAt(t0, {
          claimed: async (row) => {
            expect(row).toMatchObject({ id: 'M1', status: 'sending', attempts: 1 });
            throw new Error('event refused');
          },
        }),
      ).rejects.toThrow('event refused');
      expect(await read('M1')).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, lockedUntil: null });
      let seen: string | null = null;
      const { outcome } = await claimAt(t0, {
        claimed: async (row) => {
          seen = row.id;
        },
      });
      expect(outcome.kind).toBe('claimed');
      expect(seen).toBe('M1');
    });

    it('locks a batch of whole rows in order inside the caller’s transaction (the schedules’ use)', async () => {
      await insert({ id: 'M3', nextAttemptAt: plus(-1_000) }, { id: 'M1', nextAttemptAt: plus(-3_000) }, { id: 'M2', nextAttemptAt: plus(-2_000) });
      const rows = await database.db.transaction((tx) => lockClaimable(tx, { table: o, columns: getTableColumns(o), where: due(t0), order, limit: 2 }));
      expect(rows.map((row) => row.id)).toEqual(['M1', 'M2']);
      expect(rows[0]).toEqual(await read('M1'));
    });

    it.skipIf(kind === 'pglite')('passes over a row another transaction holds, without waiting for it', async () => {
      await insert({ id: 'M1', nextAttemptAt: plus(-2_000) }, { id: 'M2', nextAttemptAt: plus(-1_000) });
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => {};
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = database.db.transaction(async (tx) => {
        await tx.select({ id: o.id }).from(o).where(eq(o.id, 'M1')).for('update');
        locked();
        await held;
      });
      await lockTaken;
      try {
        const { outcome } = await claimAt(t0);
        expect(outcome.kind === 'claimed' && outcome.row.id).toBe('M2');
        expect((await claimAt(t0)).outcome.kind).toBe('none');
      } finally {
        release();
        await holder;
      }
      const after = await claimAt(t0);
      expect(after.outcome.kind === 'claimed' && after.outcome.row.id).toBe('M1');
    });
  });
}
