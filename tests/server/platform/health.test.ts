// /healthz and /readyz, as a load balancer sees them: no token, 200 when ready, 503 when the database is gone or
// the schema is behind the code.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { expectedMigrations } from '../../../server/health.ts';
import { createTestDatabase, databaseKinds, testCardKeys } from '../support.ts';

const refuseTokens = async () => {
  throw new Error('no tokens here');
};

describe.each(databaseKinds)('health probes on %s', (kind) => {
  it('answer 200 without a token while the database is up and migrated', async () => {
    const database = await createTestDatabase(kind);
    try {
      const app = createApp({ database, cardKeys: testCardKeys, verifyAccessToken: refuseTokens });
      const health = await app.request('/healthz');
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(await ready.json()).toEqual({ status: 'ready' });
    } finally {
      await database.close();
    }
  });

  it('/readyz answers 503 when a migration is missing', async () => {
    const database = await createTestDatabase(kind);
    try {
      const app = createApp({ database, cardKeys: testCardKeys, verifyAccessToken: refuseTokens });
      await database.query('DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)');
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', problems: [`${expectedMigrations - 1} of ${expectedMigrations} migrations applied`] });
      expect((await app.request('/healthz')).status).toBe(200);
    } finally {
      await database.close();
    }
  });

  it('/readyz answers 503 when the database is gone, /healthz still 200', async () => {
    const database = await createTestDatabase(kind);
    const app = createApp({ database, cardKeys: testCardKeys, verifyAccessToken: refuseTokens });
    await database.close();
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { status: string; problems: string[] };
    expect(body.status).toBe('unavailable');
    expect(body.problems[0]).toMatch(/^database: /);
    expect((await app.request('/healthz')).status).toBe(200);
  });
});
