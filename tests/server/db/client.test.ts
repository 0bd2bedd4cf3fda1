// The database handle on both drivers: raw queries read timestamps, dates and intervals as PostgreSQL's text (as
// the ORM reads them), the ORM maps them to its column types, transactions commit or roll back as a whole, and the
// database's errors keep their fields (PGlite's cross from its own thread).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { businesses, partners } from '../../../server/db/schema.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';

describe.each(databaseKinds)('database client on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('reads timestamps, dates and intervals as text in raw queries', async () => {
    const [row] = await database.query<Record<string, unknown>>(
      `SELECT timestamptz '2026-11-22 10:00:00+00' AS at, date '2026-11-22' AS day, interval '90 minutes' AS span, ARRAY[timestamptz '2026-01-01 00:00:00+00'] AS ats, 7::int AS n, true AS yes`,
    );
    expect(typeof row?.at).toBe('string');
    expect(new Date(String(row?.at)).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(row?.day).toBe('2026-11-22');
    expect(row?.span).toBe('01:30:00');
    expect(row?.n).toBe(7);
    expect(row?.yes).toBe(true);
  });

  it('maps the same columns through the ORM, in and out of transactions', async () => {
    const created = new Date('2026-05-01T08:30:00.000Z');
    await database.db
      .insert(partners)
      .values({ id: 'P-CLIENT', name: 'Client test partner' } as never)
      .onConflictDoNothing();
    await database.db.insert(businesses).values({ id: 'B-CLIENT', name: 'Client test business', partnerId: 'P-CLIENT', createdAt: created } as never);
    const [outside] = await database.db.select().from(businesses).where(sql`${businesses.id} = 'B-CLIENT'`);
    const inside = await database.db.transaction(async (tx) => (await tx.select().from(businesses).where(sql`${businesses.id} = 'B-CLIENT'`))[0]);
    expect(outside?.createdAt).toEqual(created);
    expect(inside).toEqual(outside);
  });

  it('rolls back a transaction whose callback throws, and keeps what a committed one wrote', async () => {
    await database.db
      .insert(partners)
      .values({ id: 'P-TX', name: 'Transaction test partner' } as never)
      .onConflictDoNothing();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(businesses).values({ id: 'B-ROLLED', name: 'Rolled back', partnerId: 'P-TX' } as never);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.db.transaction(async (tx) => {
      await tx.insert(businesses).values({ id: 'B-KEPT', name: 'Kept', partnerId: 'P-TX' } as never);
    });
    const rows = await database.query<{ id: string }>(`SELECT id FROM businesses WHERE id IN ('B-ROLLED', 'B-KEPT')`);
    expect(rows.map((row) => row.id)).toEqual(['B-KEPT']);
  });

  it("hands back the database's error with its SQLSTATE and constraint, reachable through the ORM's wrapping", async () => {
    await database.db
      .insert(partners)
      .values({ id: 'P-DUP', name: 'Duplicate test partner' } as never)
      .onConflictDoNothing();
    const error = await database.db
      .insert(partners)
      .values({ id: 'P-DUP', name: 'Again' } as never)
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    const cause = (error as { cause?: { code?: string; constraint?: string } } | null)?.cause;
    expect(cause?.code).toBe('23505');
    expect(cause?.constraint).toMatch(/pkey/);
  });

  it('runs statements sent while a transaction is open after it, not inside it', async () => {
    await database.db
      .insert(partners)
      .values({ id: 'P-ORDER', name: 'Before' } as never)
      .onConflictDoNothing();
    let outside: Promise<unknown[]> | undefined;
    await database.db.transaction(async (tx) => {
      await tx
        .update(partners)
        .set({ name: 'Inside' } as never)
        .where(sql`${partners.id} = 'P-ORDER'`);
      outside = database.query(`SELECT name FROM partners WHERE id = 'P-ORDER'`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx
        .update(partners)
        .set({ name: 'Committed' } as never)
        .where(sql`${partners.id} = 'P-ORDER'`);
    });
    // PostgreSQL reads the last committed row at once; PGlite runs the statement once the transaction is done.
    expect([[{ name: 'Before' }], [{ name: 'Committed' }]]).toContainEqual(await outside);
    expect(await database.query(`SELECT name FROM partners WHERE id = 'P-ORDER'`)).toEqual([{ name: 'Committed' }]);
  });
});
