// The account watch list: merchants whose risk signals cross the thresholds (src/contract/watch-list.ts),
// with their score, signals and trend, and what risk analysts do about them. Context-free and internal: the
// permissions are only ever held through root roles, and are required at root here.
//
// | method | path                                           | permission                   | answer                                  |
// |--------|------------------------------------------------|------------------------------|-----------------------------------------|
// | GET    | /account-watch-list                            | Mapi.AccountWatchList.Read   | { results, numberOfResults, signalsRefreshedUtc } (list convention; filters status, score; sort score, merchant, flagged) |
// | GET    | /account-watch-list/{merchantId}               | Mapi.AccountWatchList.Read   | the entry with its notes; 404 when not on the list |
// | PUT    | /account-watch-list/{merchantId}/status        | Mapi.AccountWatchList.Update | { status: open, acknowledged or monitoring, version }; 409 stale; audited WatchListStatusChanged |
// | POST   | /account-watch-list/{merchantId}/notes         | Mapi.AccountWatchList.Update | 201 the note; audited WatchListNoteAdded |
// | POST   | /account-watch-list/{merchantId}/ticket        | Mapi.AccountWatchList.Update | { version, priority? }: 201 { ticketId, entry }: an informationRequest ticket in the merchant's business and merchant, subject and description with the score and signals, linked on the entry; 409 stale or already escalated; audited TicketCreated + WatchListEscalated |
// The list refreshes the daily signals first when the last refresh is older than staleAfterMs (server/risk/watch-signals.ts).
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { watchEscalateBody, watchNoteBody, watchStatusBody } from '../../src/contract/watch-list-schemas.ts';
import { watchEntryStatusLabels, watchListSpec, watchSignalText, type WatchSignal } from '../../src/contract/watch-list.ts';
import type { WatchListEntry } from '../../src/contract/watch-list-schemas.ts';
import type { TicketType } from '../../src/contract/tickets.ts';
import { recordAudit } from '../audit/record.ts';
import { businesses, merchants, tickets, users, watchListEntries, watchListNotes } from '../db/schema.ts';
import { recordEvent } from '../events/event-bus.ts';
import type { Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { lastRefresh, refreshWatchList, staleAfterMs } from '../risk/watch-signals.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, conflict, forbidden, notFound } from '../http/errors.ts';
import {
  assertResourceMatchesSpec,
  filterCondition,
  orderByOf,
  orderKeysOf,
  parseListRequest,
  singleValuedQuery,
  type ListResource,
} from '../http/list-sql.ts';
import { nextTicketId } from '../tickets/replies.ts';
import type { Db, DbWriter } from '../db/client.ts';

const w = watchListEntries;

export const watchListResource: ListResource = {
  spec: watchListSpec,
  filters: { status: { type: 'equals', column: w.status }, score: { type: 'number', column: w.score } },
  sorts: {
    score: [
      { expression: w.score, descending: false },
      { expression: w.merchantId, descending: false },
    ],
    merchant: [
      { expression: merchants.name, descending: false },
      { expression: w.merchantId, descending: false },
    ],
    flagged: [
      { expression: w.firstFlaggedUtc, descending: false },
      { expression: w.merchantId, descending: false },
    ],
  },
};
assertResourceMatchesSpec(watchListResource);

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

function requireRoot(principal: Principal, permission: PermissionName): void {
  const roots = principal.grants.filter((grant) => grant.level === 'root').map((grant) => grant.role);
  if (!permissionsOfRoles(roots).has(permission)) throw forbidden();
}

type EntryRow = { entry: typeof w.$inferSelect; merchantName: string; businessName: string };
const toEntry = ({ entry, merchantName, businessName }: EntryRow): WatchListEntry => ({
  merchantId: entry.merchantId,
  businessId: entry.businessId,
  merchantName,
  businessName,
  score: entry.score,
  status: entry.status,
  signals: entry.signals.map(({ signal, value, threshold }) => ({ signal: signal as WatchListEntry['signals'][number]['signal'], value, threshold })),
  trend: entry.trend,
  firstFlaggedUtc: entry.firstFlaggedUtc.toISOString(),
  lastComputedUtc: entry.lastComputedUtc.toISOString(),
  version: entry.version,
  ticketId: entry.ticketId ?? null,
});

/** The spec's ticket type for an escalation: the merchant is asked to explain the activity. */
export const escalationTicketType: TicketType = 'informationRequest';

/** The escalation ticket's subject and description: the score and every signal behind it, in words and figures. */
export function escalationText({ entry, merchantName }: EntryRow): { subject: string; description: string } {
  const signals = entry.signals.map(({ signal, value, threshold }) => `- ${watchSignalText(signal as WatchSignal, value, threshold)}`);
  return {
    subject: `Risk review: ${merchantName} (${entry.merchantId}), watch list score ${entry.score}`,
    description: [
      `Merchant ${merchantName} (${entry.merchantId}) is on the account watch list with a risk score of ${entry.score} out of 100 (status: ${watchEntryStatusLabels[entry.status]}).`,
      '',
      signals.length > 0 ? 'Signals crossing their thresholds:' : 'No signal crosses its threshold at the moment of escalation.',
      ...signals,
      '',
      `First flagged ${entry.firstFlaggedUtc.toISOString()}; signals computed ${entry.lastComputedUtc.toISOString()}.`,
      'Please explain the activity behind these signals and the measures taken.',
    ].join('\n'),
  };
}

export function watchListRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const selectEntries = () =>
    db
      .select({ entry: w, merchantName: merchants.name, businessName: businesses.name })
      .from(w)
      .innerJoin(merchants, eq(merchants.id, w.merchantId))
      .innerJoin(businesses, eq(businesses.id, w.businessId));

  async function entryOf(merchantId: string): Promise<EntryRow> {
    if (!idPattern.test(merchantId)) throw notFound();
    const [row] = await selectEntries().where(eq(w.merchantId, merchantId));
    if (!row) throw notFound();
    return row;
  }

  const audit = (tx: DbWriter, c: Context<AppEnv>, event: string, row: EntryRow, metaData: Record<string, unknown>) =>
    recordAudit(tx, c.get('principal'), event, { businessId: row.entry.businessId, merchantId: row.entry.merchantId }, metaData);

  routes.get('/account-watch-list', async (c) => {
    requireRoot(c.get('principal'), 'Mapi.AccountWatchList.Read');
    const query = parseListRequest(singleValuedQuery(c), watchListSpec);
    const refreshed = await lastRefresh(db);
    const now = new Date();
    let signalsRefreshedUtc = refreshed;
    if (!refreshed || now.getTime() - refreshed.getTime() > staleAfterMs) {
      if (await refreshWatchList(db, now)) signalsRefreshedUtc = now;
    }
    const sort = query.sort[0] ?? { field: 'score', descending: true };
    const where = filterCondition(watchListResource, query.filters, c.get('timeZone'));
    const [rows, [total]] = await Promise.all([
      selectEntries()
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(watchListResource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(w).where(where),
    ]);
    return c.json({ results: rows.map(toEntry), numberOfResults: Number(total?.value ?? 0), signalsRefreshedUtc: signalsRefreshedUtc?.toISOString() ?? null });
  });

  routes.get('/account-watch-list/:merchantId', async (c) => {
    requireRoot(c.get('principal'), 'Mapi.AccountWatchList.Read');
    const row = await entryOf(c.req.param('merchantId'));
    const notes = await db
      .select({ note: watchListNotes, givenName: users.givenName, familyName: users.familyName })
      .from(watchListNotes)
      .leftJoin(users, eq(users.id, watchListNotes.authorId))
      .where(eq(watchListNotes.merchantId, row.entry.merchantId))
      .orderBy(desc(watchListNotes.createdUtc), asc(watchListNotes.id))
      .limit(200);
    const [changer] = row.entry.statusChangedBy ? await db.select().from(users).where(eq(users.id, row.entry.statusChangedBy)) : [];
    return c.json({
      ...toEntry(row),
      notes: notes.map(({ note, givenName, familyName }) => ({
        noteId: note.id,
        author: givenName ? `${givenName} ${familyName ?? ''}`.trim() : note.authorId,
        text: note.text,
        createdUtc: note.createdUtc.toISOString(),
      })),
      statusChangedBy: changer ? `${changer.givenName} ${changer.familyName}` : row.entry.statusChangedBy,
      statusChangedUtc: row.entry.statusChangedUtc?.toISOString() ?? null,
    });
  });

  routes.put('/account-watch-list/:merchantId/status', async (c) => {
    requireRoot(c.get('principal'), 'Mapi.AccountWatchList.Update');
    const row = await entryOf(c.req.param('merchantId'));
    const body = await readBody(c, watchStatusBody);
    const updated = await db.transaction(async (tx) => {
      const [saved] = await tx
        .update(w)
        .set({ status: body.status, statusChangedBy: c.get('principal').userId, statusChangedUtc: new Date(), version: sql`${w.version} + 1` })
        .where(and(eq(w.merchantId, row.entry.merchantId), eq(w.version, body.version)))
        .returning();
      if (!saved) throw conflict();
      await audit(tx, c, 'WatchListStatusChanged', row, { from: row.entry.status, to: body.status, score: row.entry.score });
      return saved;
    });
    return c.json(toEntry({ ...row, entry: updated }));
  });

  routes.post('/account-watch-list/:merchantId/notes', async (c) => {
    requireRoot(c.get('principal'), 'Mapi.AccountWatchList.Update');
    const row = await entryOf(c.req.param('merchantId'));
    const body = await readBody(c, watchNoteBody);
    const principal = c.get('principal');
    const note = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(watchListNotes)
        .values({
          id: `WN${randomBytes(8).toString('hex').toUpperCase()}`,
          merchantId: row.entry.merchantId,
          authorId: principal.userId,
          text: body.text.trim(),
        })
        .returning();
      if (!inserted) throw new Error('note insert returned nothing');
      await audit(tx, c, 'WatchListNoteAdded', row, { noteId: inserted.id });
      return inserted;
    });
    return c.json(
      { noteId: note.id, author: `${principal.givenName} ${principal.familyName}`, text: note.text, createdUtc: note.createdUtc.toISOString() },
      201,
    );
  });

  routes.post('/account-watch-list/:merchantId/ticket', async (c) => {
    requireRoot(c.get('principal'), 'Mapi.AccountWatchList.Update');
    const row = await entryOf(c.req.param('merchantId'));
    const body = await readBody(c, watchEscalateBody);
    if (row.entry.ticketId) throw new ApiError(409, `This entry is already escalated to ticket ${row.entry.ticketId}.`);
    const principal = c.get('principal');
    const { subject, description } = escalationText(row);
    const now = new Date();
    let ticketId = '';
    const updated = await db.transaction(async (tx) => {
      // the support desk's readable numbering (TCK00041), unique under concurrency
      ticketId = await nextTicketId(tx as unknown as Db);
      // The version and the still-empty link are checked together: a concurrent escalation finds no row and answers 409.
      const [saved] = await tx
        .update(w)
        .set({ ticketId, version: sql`${w.version} + 1` })
        .where(and(eq(w.merchantId, row.entry.merchantId), eq(w.version, body.version), isNull(w.ticketId)))
        .returning();
      if (!saved) throw conflict();
      const ticket = {
        id: ticketId,
        businessId: row.entry.businessId,
        merchantId: row.entry.merchantId,
        createdBy: principal.userId,
        type: escalationTicketType,
        status: 'Open',
        priority: body.priority ?? 'High',
        subject,
        description,
        createdUtc: now,
        lastUpdatedUtc: now,
        version: 1,
        assigneeId: null,
      };
      await tx.insert(tickets).values(ticket);
      await recordAudit(
        tx,
        principal,
        'TicketCreated',
        { businessId: ticket.businessId, merchantId: ticket.merchantId },
        { ticketId, type: ticket.type, watchList: true },
        { at: now },
      );
      await recordEvent(tx, 'record', { resource: 'ticket', resourceId: ticketId, businessId: ticket.businessId, merchantId: ticket.merchantId });
      await audit(tx, c, 'WatchListEscalated', row, { ticketId, score: row.entry.score });
      return saved;
    });
    return c.json({ ticketId, entry: toEntry({ ...row, entry: updated }) }, 201);
  });

  return routes;
}
