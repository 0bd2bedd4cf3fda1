// The embedded database's thread: statements in flight when it stops, and every one after, fail with a
// connection failure (SQLSTATE 08006, which the API answers 503) instead of waiting for ever.
import { describe, expect, it } from 'vitest';
import { startPgliteThread } from '../../../server/db/pglite-remote.ts';

describe('PGlite on its own thread', () => {
  it('answers statements, then fails the ones in flight and after once the thread stops', async () => {
    const remote = await startPgliteThread({ dataDir: undefined });
    expect((await remote.query<{ n: number }>('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
    const inFlight = remote.query('SELECT pg_sleep(0.5)');
    await remote.thread.terminate();
    await expect(inFlight).rejects.toMatchObject({ code: '08006', message: expect.stringMatching(/embedded database stopped/) });
    await expect(remote.query('SELECT 1')).rejects.toMatchObject({ code: '08006' });
    await expect(remote.close()).resolves.toBeUndefined();
  });

  it('reports a data directory it cannot open instead of starting', async () => {
    await expect(startPgliteThread({ dataDir: '/proc/version/not-a-directory' })).rejects.toThrow();
  });
});
