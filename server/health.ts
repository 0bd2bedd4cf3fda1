// Probes for load balancers and orchestrators, outside the Portal API (no token, no admission gate):
//
// | method | path     | answer                                                                                      |
// |--------|----------|---------------------------------------------------------------------------------------------|
// | GET    | /healthz | 200 { status: 'ok' }: the process is up and serving HTTP                                    |
// | GET    | /readyz  | 200 { status: 'ready' } when the database answers within 2 s and every migration is applied; |
// |        |          | 503 { status: 'unavailable', problems } otherwise (take the node out of the rotation)        |
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { Database } from './db/client.ts';

const journal = JSON.parse(readFileSync(fileURLToPath(new URL('./db/migrations/meta/_journal.json', import.meta.url)), 'utf8')) as { entries: unknown[] };
/** Migrations this code expects to find applied. */
export const expectedMigrations = journal.entries.length;

const readinessBudgetMs = 2000;

/** What keeps this node from serving, or nothing. */
export async function readinessProblems(database: Database): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${readinessBudgetMs} ms`)), readinessBudgetMs);
  });
  try {
    // drizzle records each applied migration in drizzle.__drizzle_migrations (created before the first one runs).
    const rows = await Promise.race([database.query<{ applied: number | string }>('SELECT count(*) AS applied FROM drizzle.__drizzle_migrations'), late]);
    const applied = Number(rows[0]?.applied ?? 0);
    return applied >= expectedMigrations ? [] : [`${applied} of ${expectedMigrations} migrations applied`];
  } catch (error) {
    return [`database: ${error instanceof Error ? error.message : String(error)}`];
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(database: Database) {
  const routes = new Hono();
  // Only the probes: mounted at '/', a '*' here would also mark every other answer (images, assets) no-store.
  routes.use('/healthz', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  routes.use('/readyz', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  routes.get('/healthz', (c) => c.json({ status: 'ok' }));
  routes.get('/readyz', async (c) => {
    const problems = await readinessProblems(database);
    return problems.length === 0 ? c.json({ status: 'ready' }) : c.json({ status: 'unavailable', problems }, 503);
  });
  return routes;
}
