// POST /audit-events: the browser reports what only it sees (a record printed, a card number copied, a report file
// downloaded). The server sets the time (the client's own is kept in metaData.clientDateTimeUtc), needs the event's
// permission in the addressed business or merchant (404 when that is not reachable at all, 403 without the
// permission), and marks the row client-reported. Events the server writes itself (money movements, card reveals,
// user changes, sign-ins) are not accepted here. Audit rows are append-only: the database refuses UPDATE and DELETE.
import { Hono } from 'hono';
import { auditEventBody, clientAuditEvents } from '../../src/contract/audit-events.ts';
import { recordAudit } from '../audit/record.ts';
import { permissionsIn, resolveContext } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, notFound } from '../http/errors.ts';

const maxMetaDataBytes = 8 * 1024;

export function auditEventRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  routes.post('/audit-events', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, auditEventBody);
    if (Buffer.byteLength(JSON.stringify(body.metaData ?? {})) > maxMetaDataBytes) throw badRequest(`metaData may have ${maxMetaDataBytes} bytes maximum`);
    if (body.merchantId && !body.businessId) throw badRequest('Business ID is required.');
    // Without a business the event is about the caller's own work outside any tenant: root roles only.
    let granted = permissionsIn(principal, {});
    if (body.businessId) {
      const resolved = await resolveContext(database, principal, body.businessId, body.merchantId ?? undefined);
      if (!resolved) throw notFound();
      granted = resolved.permissions;
    }
    requirePermission(granted, clientAuditEvents[body.event]);
    const id = await recordAudit(
      database.db,
      principal,
      body.event,
      { businessId: body.businessId ?? null, merchantId: body.merchantId ?? null },
      { ...(body.metaData ?? {}), clientDateTimeUtc: body.dateTimeUtc },
      { source: 'client' },
    );
    return c.json({ id: String(id) }, 201);
  });
  return routes;
}
