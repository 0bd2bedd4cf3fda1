// Bulk actions: a selection of an overview (its filters, plus or minus explicit picks) and an action,
// run on the server as a job (server/bulk/). Jobs are their creator's alone: anyone else's answers 404.
//
// | method | path                          | answer |
// |--------|-------------------------------|--------|
// | POST   | /bulk-jobs                    | 202 { job } (a retry with the same Idempotency-Key or clientKey: 200 the first job; another request with it: 422) |
// | GET    | /bulk-jobs                    | { results } the caller's 50 newest jobs |
// | GET    | /bulk-jobs/{jobId}            | job |
// | POST   | /bulk-jobs/{jobId}/cancel     | job (a queued job is cancelled at once, a running one between two items) |
// | GET    | /bulk-jobs/{jobId}/result     | text/csv: every item that failed and why (once the job has ended) |
//
// The context (business, merchant or partner) is resolved as the overview's own calls resolve it: unreachable → 404,
// without the overview's read permission → 403. Each item is checked again when the job acts on it (its permission
// where the item lives, its state), so a selection never acts on what the user may not.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { createBulkJobBody } from '../../src/contract/bulk-job-schemas.ts';
import { bulkActionsOf, isBulkJobFinished, maxBulkFilters, maxClientKeyLength, type BulkJob, type BulkJobStatus } from '../../src/contract/bulk-jobs.ts';
import { parseListQuery } from '../../src/contract/list-query.ts';
import { paymentJobListSpec } from '../../src/contract/payment-jobs.ts';
import { transactionListSpec } from '../../src/contract/transactions.ts';
import { ticketListSpec } from '../../src/contract/tickets.ts';
import { userListSpec } from '../../src/contract/users.ts';
import { bulkJobs } from '../db/schema.ts';
import { contentDisposition } from '../files/content-disposition.ts';
import { actionPermission, areaRunner, readPermission } from '../bulk/areas.ts';
import { scopeOf, SelectionRefused, ticketScopeOf } from '../reports/selection.ts';
import { ticketExportCount, userExportCount } from '../reports/area-exports.ts';
import { grantedScope } from '../transactions/scope.ts';
import { bulkResultCsv } from '../bulk/worker.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { fileBody } from '../http/file-body.ts';
import { sqlNow } from '../clock.ts';

const b = bulkJobs;
type Row = typeof b.$inferSelect;
const keyPattern = new RegExp(`^[\\x21-\\x7e]{1,${maxClientKeyLength}}$`);
const jobIdPattern = /^BLK[0-9A-F]{16}$/;
const notPaging = ['pagenumber', 'pagesize', 'sort', 'orderingfield', 'orderingdirection'];

export function toBulkJob(row: Row): BulkJob {
  return {
    id: row.id,
    area: row.area as BulkJob['area'],
    action: row.action as BulkJob['action'],
    status: row.status as BulkJobStatus,
    cancelRequested: row.cancelRequested,
    totalItems: row.totalItems,
    processedItems: row.processedItems,
    succeededItems: row.succeededItems,
    failedItems: row.failedItems,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    reportId: row.reportId,
    resultFileName: row.resultPath ? `bulk-${row.action}-${row.id}.csv` : null,
    error: row.error,
  };
}

export function bulkJobRoutes({ database, files, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  const ownJob = async (c: Context<AppEnv>): Promise<Row> => {
    const id = c.req.param('jobId') ?? '';
    if (!jobIdPattern.test(id)) throw notFound();
    const [row] = await db
      .select()
      .from(b)
      .where(and(eq(b.id, id), eq(b.userId, c.get('principal').userId)));
    if (!row) throw notFound();
    return row;
  };

  routes.post('/bulk-jobs', async (c) => {
    const principal = c.get('principal');
    const header = c.req.header('idempotency-key');
    if (header !== undefined && !keyPattern.test(header))
      throw badRequest(`The Idempotency-Key must be 1 to ${maxClientKeyLength} printable characters without spaces.`);
    const body = await readBody(c, createBulkJobBody);
    if (body.clientKey !== undefined && !keyPattern.test(body.clientKey))
      throw badRequest(`clientKey must be 1 to ${maxClientKeyLength} printable characters without spaces.`);
    if (!bulkActionsOf[body.area].includes(body.action)) throw badRequest(`The ${body.area} overview has no bulk action '${body.action}'.`);
    const { filters } = body.selection;
    if (Object.keys(filters).length > maxBulkFilters) throw badRequest(`filters may have ${maxBulkFilters} entries maximum`);
    for (const name of Object.keys(filters)) {
      if (notPaging.includes(name.toLowerCase()))
        throw badRequest(`'${name}' is not a filter: a selection holds every matching row, on every page and in any order.`);
    }
    if (!body.selection.allMatching && body.selection.includedIds.length === 0) throw badRequest('Select at least one row, or all matching.');
    const scoped = await scopeOf(database, principal, body.context, readPermission[body.area]);
    if (!scoped) throw notFound();
    if (!scoped.reachable) requirePermission(new Set(), readPermission[body.area]);
    const timeZone = c.get('timeZone');
    const spec =
      body.area === 'transactions'
        ? transactionListSpec
        : body.area === 'payment-jobs'
          ? paymentJobListSpec
          : body.area === 'tickets'
            ? ticketListSpec
            : userListSpec;
    if (!spec || !actionPermission[`${body.area}:${body.action}`]) throw badRequest(`Bulk ${body.action} of ${body.area} is not available yet.`);
    const parsed = parseListQuery(filters, spec);
    if (!parsed.ok) throw badRequest(parsed.errors);
    if (body.action === 'export') {
      // The report lands in My report queue: making reports is a permission of its own, in the context (the users
      // overview, which has none: somewhere the caller reads users).
      const here =
        body.context.level === 'all'
          ? grantedScope(principal, 'Portal.Reports.Create')
            ? { reachable: true }
            : null
          : await scopeOf(database, principal, body.context, 'Portal.Reports.Create');
      if (!here?.reachable) requirePermission(new Set(), 'Portal.Reports.Create');
    }
    const { clientKey: bodyKey, ...request } = body;
    const clientKey = header ?? bodyKey ?? `auto-${randomBytes(12).toString('hex')}`;
    const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    const existing = async () =>
      (
        await db
          .select()
          .from(b)
          .where(and(eq(b.userId, principal.userId), eq(b.clientKey, clientKey)))
      )[0];
    const answerExisting = (row: Row) => {
      if (row.requestFingerprint !== fingerprint)
        throw new ApiError(422, 'This Idempotency-Key was used for another request; use a new key for a new request.');
      return c.json({ job: toBulkJob(row) }, 200);
    };
    const before = await existing();
    if (before) return answerExisting(before);
    let totalItems = 0;
    try {
      if (body.action === 'export' && body.area === 'tickets') totalItems = await ticketExportCount(db, ticketScopeOf(scoped.scope), body.selection, timeZone);
      else if (body.action === 'export' && body.area === 'users')
        totalItems = await userExportCount(db, principal, scoped.scope.level === 'partner' ? scoped.scope.partnerId : undefined, body.selection);
      else if (body.action !== 'export' || body.area === 'payment-jobs') {
        const runner = areaRunner({
          area: body.area,
          action: body.action === 'export' ? 'cancel' : body.action,
          scope: scoped.scope,
          selection: body.selection,
          timeZone,
          principal,
          publicUrl,
          params: body.params,
        });
        totalItems = await runner.count(db);
      }
    } catch (error) {
      if (error instanceof SelectionRefused) throw badRequest(error.message);
      throw error;
    }
    const id = `BLK${randomBytes(8).toString('hex').toUpperCase()}`;
    const inserted = await db
      .insert(b)
      .values({
        id,
        userId: principal.userId,
        clientKey,
        requestFingerprint: fingerprint,
        area: body.area,
        action: body.action,
        scope: { ...body.context, timeZone },
        filters,
        allMatching: body.selection.allMatching,
        includedIds: body.selection.includedIds,
        excludedIds: body.selection.excludedIds,
        params: body.params ?? {},
        status: 'queued',
        totalItems,
      })
      .onConflictDoNothing()
      .returning();
    const row = inserted[0];
    if (!row) {
      // Two requests with one key at once: the first one's job is the answer to both.
      const first = await existing();
      if (!first) throw new ApiError(409, 'The job could not be created; try again.');
      return answerExisting(first);
    }
    return c.json({ job: toBulkJob(row) }, 202);
  });

  routes.get('/bulk-jobs', async (c) => {
    const rows = await db
      .select()
      .from(b)
      .where(eq(b.userId, c.get('principal').userId))
      .orderBy(desc(b.createdAt), desc(b.id))
      .limit(50);
    return c.json({ results: rows.map(toBulkJob) });
  });

  routes.get('/bulk-jobs/:jobId', async (c) => c.json(toBulkJob(await ownJob(c))));

  routes.post('/bulk-jobs/:jobId/cancel', async (c) => {
    const row = await ownJob(c);
    if (isBulkJobFinished(row.status as BulkJobStatus)) return c.json(toBulkJob(row));
    // A queued job ends now; a running one is stopped by its worker between two items (it writes the result file).
    const [updated] = await db
      .update(b)
      .set({
        cancelRequested: true,
        status: sql`CASE WHEN ${b.status} = 'queued' THEN 'cancelled' ELSE ${b.status} END`,
        finishedAt: sql`CASE WHEN ${b.status} = 'queued' THEN ${sqlNow()} ELSE ${b.finishedAt} END`,
      })
      .where(eq(b.id, row.id))
      .returning();
    return c.json(toBulkJob(updated ?? row));
  });

  routes.get('/bulk-jobs/:jobId/result', async (c) => {
    const row = await ownJob(c);
    if (!isBulkJobFinished(row.status as BulkJobStatus)) throw badRequest('The job has not ended yet: its result file is made when it does.');
    const file = row.resultPath ? await files.get(row.resultPath).catch(() => null) : null;
    const headers = { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': contentDisposition(`bulk-${row.action}-${row.id}.csv`) };
    // The stored file; should it be gone (a job cancelled before it started, a store restored), the same lines are
    // made again from the item rows, which are what the file was made from.
    if (!file) return c.body(await bulkResultCsv(db, row.id), 200, headers);
    return fileBody(c, file, headers);
  });

  return routes;
}
