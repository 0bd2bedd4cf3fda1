// Several nodes starting at once on an empty PostgreSQL: migrations and the first seed run once, under an advisory
// lock; the others wait for it and then find the work done.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/client.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('startup lock on PostgreSQL', () => {
  it('three nodes opening an empty database together migrate and seed it once', async () => {
    const name = `portal_lock_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl as string);
    url.pathname = `/${name}`;
    const opened: Database[] = [];
    const events: string[] = [];
    try {
      const node = (id: string) =>
        openDatabase({
          url: url.toString(),
          poolSize: 3,
          log: (line) => events.push(`${id}: ${line}`),
          afterMigrate: async (database) => {
            const [row] = await database.query<{ n: number | string }>('SELECT count(*) AS n FROM partners');
            if (Number(row?.n) > 0) return;
            events.push(`${id}: seeding`);
            // Slow enough that the other nodes arrive while the lock is held.
            await new Promise((done) => setTimeout(done, 300));
            await database.query("INSERT INTO partners (id, name) VALUES ('P-seed', 'Seeded once')");
          },
        }).then((database) => {
          opened.push(database);
          return database;
        });
      await Promise.all([node('a'), node('b'), node('c')]);
      expect(events.filter((event) => event.endsWith(': seeding'))).toHaveLength(1);
      expect(events.filter((event) => event.includes('waiting for it')).length).toBeGreaterThanOrEqual(1);
      const [partners] = await (opened[0] as Database).query<{ n: number | string }>('SELECT count(*) AS n FROM partners');
      expect(Number(partners?.n)).toBe(1);
      const [lock] = await (opened[0] as Database).query<{ n: number | string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted");
      expect(Number(lock?.n), 'the startup lock is released').toBe(0);
    } finally {
      await Promise.all(opened.map((database) => database.close()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
