// The mail outbox (Technical admins): every message the portal sent or will send, newest first.
//
// | method | path         | permission         | answer                                                        |
// |--------|--------------|--------------------|---------------------------------------------------------------|
// | GET    | /outbox      | Portal.Outbox.Read | { results: OutboxMessageSummary[], numberOfResults } (list convention; filters status, template, recipient, searchterm: recipient or subject contains, any case) |
// | GET    | /outbox/{id} | Portal.Outbox.Read | OutboxMessage: the summary with both bodies, provider id, last error |
// The outbox is the provider's own (it holds mail to every tenant), so it is a root-level permission only.
import { count, desc, eq, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { outboxListSpec, type OutboxMessage, type OutboxMessageSummary } from '../../src/contract/outbox.ts';
import { outboundEmails } from '../db/schema.ts';
import { fromNameOf } from '../mail/compose.ts';
import { permissionsIn } from '../policy/principal.ts';
import { requirePermission, type AppEnv, type Deps } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { assertResourceMatchesSpec, filterCondition, likeLiteral, parseListRequest, singleValuedQuery, type ListResource } from '../http/list-sql.ts';

const o = outboundEmails;

const outboxResource: ListResource = {
  spec: outboxListSpec,
  filters: {
    status: { type: 'equals', column: o.status },
    template: { type: 'equals', column: o.template },
    recipient: {
      type: 'custom',
      condition: (clauses) => {
        const wanted = clauses.filter((clause) => clause.operator === 'eq').map((clause) => clause.value.toLowerCase());
        return wanted.length === 0
          ? undefined
          : sql`lower(${o.recipient}) IN (${sql.join(
              wanted.map((value) => sql`${value}`),
              sql`, `,
            )})`;
      },
    },
    searchterm: {
      type: 'custom',
      condition: (clauses) => {
        const term = clauses.find((clause) => clause.operator === 'eq')?.value.trim();
        if (!term) return undefined;
        // % and _ typed by the user are literal characters, not wildcards.
        const pattern = `%${likeLiteral(term.toLowerCase())}%`;
        return or(sql`lower(${o.recipient}) LIKE ${pattern}`, sql`lower(${o.subject}) LIKE ${pattern}`);
      },
    },
  },
  sorts: {
    createdAt: [
      { expression: o.createdAt, descending: false },
      { expression: o.id, descending: false },
    ],
  },
};
assertResourceMatchesSpec(outboxResource);

const iso = (value: Date | null) => (value ? value.toISOString() : null);

const summaryColumns = {
  id: o.id,
  recipient: o.recipient,
  subject: o.subject,
  template: o.template,
  status: o.status,
  attempts: o.attempts,
  createdAt: o.createdAt,
  sentAt: o.sentAt,
};

export function outboxRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  routes.get('/outbox', async (c) => {
    requirePermission(permissionsIn(c.get('principal'), {}), 'Portal.Outbox.Read');
    const query = parseListRequest(singleValuedQuery(c), outboxListSpec);
    const where = filterCondition(outboxResource, query.filters, c.get('timeZone'));
    const descending = query.sort[0]?.descending ?? true;
    const rows = await db
      .select(summaryColumns)
      .from(o)
      .where(where)
      .orderBy(...(descending ? [desc(o.createdAt), desc(o.id)] : [o.createdAt, o.id]))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    const [counted] = await db.select({ total: count() }).from(o).where(where);
    const results: OutboxMessageSummary[] = rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), sentAt: iso(row.sentAt) }));
    return c.json({ results, numberOfResults: Number(counted?.total ?? 0) });
  });

  routes.get('/outbox/:id', async (c) => {
    requirePermission(permissionsIn(c.get('principal'), {}), 'Portal.Outbox.Read');
    const id = c.req.param('id');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw notFound();
    const [row] = await db.select().from(o).where(eq(o.id, id));
    if (!row) throw notFound();
    const message: OutboxMessage = {
      id: row.id,
      recipient: row.recipient,
      subject: row.subject,
      template: row.template,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      sentAt: iso(row.sentAt),
      html: row.html,
      text: row.text,
      providerMessageId: row.providerMessageId,
      lastError: row.lastError,
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      fromName: row.senderName === null ? null : fromNameOf(row.senderName),
      replyTo: row.replyTo,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(message);
  });

  return routes;
}
