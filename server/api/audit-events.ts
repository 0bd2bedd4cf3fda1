// POST /audit-events: the client records actions; the server checks the addressed business or merchant is reachable.
import { Hono } from 'hono';
import { auditEventBody } from '../../src/contract/audit-events.ts';
import { auditEvents } from '../db/schema.ts';
import { resolveContext } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody } from './env.ts';
import { badRequest, notFound } from './errors.ts';

const maxMetaDataBytes = 8 * 1024;

export function auditEventRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  routes.post('/audit-events', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, auditEventBody);
    if (JSON.stringify(body.metaData ?? {}).length > maxMetaDataBytes) throw badRequest(`metaData may have ${maxMetaDataBytes} characters maximum`);
    if (body.merchantId && !body.businessId) throw badRequest('Business ID is required.');
    if (body.businessId) {
      const resolved = await resolveContext(database, principal, body.businessId, body.merchantId ?? undefined);
      if (!resolved) throw notFound();
    }
    const [row] = await database.db.insert(auditEvents).values({
      userId: principal.userId,
      event: body.event,
      dateTimeUtc: new Date(body.dateTimeUtc),
      businessId: body.businessId ?? null,
      merchantId: body.merchantId ?? null,
      metaData: body.metaData ?? {},
    }).returning({ id: auditEvents.id });
    return c.json({ id: String(row?.id) }, 201);
  });
  return routes;
}
