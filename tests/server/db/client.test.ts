// The database handle on both drivers: raw queries read timestamps, dates and intervals as PostgreSQL's text (as
// the ORM reads them), the ORM maps them to its column types, and on PGlite the ORM's queries and transactions
// run without a per-query parser set (the instance has it), with the same results.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
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
      `SELECT timestamptz '2026-11-22 10:00:00+00' AS at, date '2026-11-22' AS day, interval '90 minutes' AS span, ARRAY[timestamptz '2026-01-01 00:00:00+00'] AS ats, 7::int AS n, true AS yes`);
    expect(typeof row?.at).toBe('string');
    expect(new Date(String(row?.at)).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(row?.day).toBe('2026-11-22');
    expect(row?.span).toBe('01:30:00');
    expect(row?.n).toBe(7);
    expect(row?.yes).toBe(true);
  });

  it('maps the same columns through the ORM, in and out of transactions', async () => {
    const created = new Date('2026-05-01T08:30:00.000Z');
    await database.db.insert(partners).values({ id: 'P-CLIENT', name: 'Client test partner' } as never).onConflictDoNothing();
    await database.db.insert(businesses).values({ id: 'B-CLIENT', name: 'Client test business', partnerId: 'P-CLIENT', createdAt: created } as never);
    const [outside] = await database.db.select().from(businesses).where(sql`${businesses.id} = 'B-CLIENT'`);
    const inside = await database.db.transaction(async (tx) => (await tx.select().from(businesses).where(sql`${businesses.id} = 'B-CLIENT'`))[0]);
    expect(outside?.createdAt).toEqual(created);
    expect(inside).toEqual(outside);
  });

  it.runIf(kind === 'pglite')('gives PGlite no parser set with the ORM\'s queries', async () => {
    const spy = vi.spyOn(PGlite.prototype, 'query');
    try {
      await database.db.select().from(businesses).limit(1);
      await database.db.transaction(async (tx) => tx.select().from(businesses).limit(1));
      const calls = spy.mock.calls.filter(([text]) => String(text).includes('"businesses"'));
      expect(calls.length).toBeGreaterThan(0);
      for (const [, , options] of calls) expect((options as { parsers?: unknown } | undefined)?.parsers).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });
});
