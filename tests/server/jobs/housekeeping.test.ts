// The periodic housekeeping on the demo world: a round queues one expiry warning per owner for the seeded key that
// expires within 7 days, marks it warned (a second round queues nothing more), and refreshes the watch list; rounds
// asked for at once share one run.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import type { Database } from '../../../server/db/client.ts';
import { seedDatabase } from '../../../server/seed/seed.ts';
import { startHousekeeping } from '../../../server/jobs/housekeeping.ts';
import { createTestDatabase, testCardKeys } from '../support.ts';

describe('housekeeping on the demo world (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedDatabase(database, { transactions: 2000, cardKeys: testCardKeys });
  }, 300_000);
  afterAll(async () => database?.close());

  const warnings = async () =>
    (await database.query<{ n: number }>("SELECT count(*)::int AS n FROM outbound_emails WHERE template = 'apiKeyExpiring'"))[0]?.n ?? 0;

  it('warns the owners of a key expiring within 7 days once, and refreshes the watch list', async () => {
    const [due] = await database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM api_keys WHERE revoked_at IS NULL AND expiry_warned_at IS NULL AND expires_at > $1::timestamptz AND expires_at <= $1::timestamptz + interval '7 days'",
      [new Date().toISOString()],
    );
    expect(due?.n).toBeGreaterThan(0);
    // The watch list's latest day of signals is recomputed by a round: take it away first.
    const [latest] = await database.query<{ day: string | null; n: number }>(
      'SELECT max(day)::text AS day, count(*) FILTER (WHERE day = (SELECT max(day) FROM merchant_risk_signals_daily))::int AS n FROM merchant_risk_signals_daily',
    );
    expect(latest?.n).toBeGreaterThan(0);
    await database.query('DELETE FROM merchant_risk_signals_daily WHERE day = $1::date', [latest?.day]);
    const lines: string[] = [];
    const housekeeping = startHousekeeping(database, {
      publicUrl: 'https://portal.test',
      files: createFolderStore(await mkdtemp(join(tmpdir(), 'housekeeping-'))),
      intervalMs: 3_600_000,
      log: (line) => lines.push(line),
    });
    try {
      expect(await warnings()).toBe(0);
      // Two rounds asked for at once are one round.
      await Promise.all([housekeeping.runOnce(), housekeeping.runOnce()]);
      const sent = await warnings();
      expect(sent).toBeGreaterThan(0);
      expect(lines.some((line) => /^API key expiry warnings queued for \d+ key/.test(line))).toBe(true);
      const [link] = await database.query<{ text: string }>("SELECT text FROM outbound_emails WHERE template = 'apiKeyExpiring' LIMIT 1");
      expect(link?.text).toContain('https://portal.test/configurations/');
      await housekeeping.runOnce();
      expect(await warnings()).toBe(sent);
      const [refreshed] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant_risk_signals_daily WHERE day = $1::date', [latest?.day]);
      expect(refreshed?.n).toBe(latest?.n);
    } finally {
      await housekeeping.stop();
    }
  });
});
