// My report queue: the caller's own queued reports (exports), context-free. Another user's report answers 404.
//
// | method | path                   | answer                                                                      |
// |--------|------------------------|-----------------------------------------------------------------------------|
// | GET    | /reports               | { results, numberOfResults }: pagenumber, pagesize; newest first; deleted   |
// |        |                        | reports are left out                                                        |
// | GET    | /reports/{id}          | the report (state shows Expired when past its expiry)                       |
// | GET    | /reports/{id}/download | the file streamed from the FileStore, with Content-Type, Content-Length and |
// |        |                        | Content-Disposition; 403 when the caller no longer reads the report's       |
// |        |                        | context (access checked again at every download);                           |
// |        |                        | Content-Disposition; 410 when expired, deleted or the file is gone; 400     |
// |        |                        | while it is not generated                                                   |
// | DELETE | /reports/{id}          | 204; a queued report is cancelled, a generating one stops at its next batch, |
// |        |                        | the file is removed                                                         |
// | POST   | /reports/{id}/retry    | failed only: back to queued with fresh attempts                             |
// | POST   | /reports/{id}/cancel   | queued only: cancelled                                                      |
// Statuses: queued → generating (processedRows of totalRows) → generated | failed | cancelled; a generated report
// expires 14 days after generation. Exports are queued by the resource that owns the rows
// (POST {context}/transactions/full/reports).
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { reportState } from '../../src/contract/reports.ts';
import type { ReportContext } from '../../src/contract/report-schemas.ts';
import { queuedReports } from '../db/schema.ts';
import { contentDisposition } from '../files/content-disposition.ts';
import { InvalidFileKey } from '../files/file-store.ts';
import { downloadName, reportContentTypes, reportReadPermission, toQueuedReport, type ReportRow } from '../reports/queue.ts';
import { scopeOfReportContext } from '../transactions/scope.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors.ts';
import { fileBody } from '../http/file-body.ts';
import { parseListRequest, singleValuedQuery } from '../http/list-sql.ts';

const r = queuedReports;
const reportIdPattern = /^RPT[0-9A-F]{1,32}$/;

export function reportRoutes({ database, files }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function ownReport(userId: string, id: string): Promise<ReportRow> {
    if (!reportIdPattern.test(id)) throw notFound();
    const [row] = await db
      .select()
      .from(r)
      .where(and(eq(r.id, id), eq(r.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  routes.get('/reports', async (c) => {
    const query = parseListRequest(singleValuedQuery(c), { filters: {}, sortable: [], defaultSort: [] });
    const userId = c.get('principal').userId;
    const where = and(eq(r.userId, userId), isNull(r.deletedAt));
    const rows = await db
      .select()
      .from(r)
      .where(where)
      .orderBy(desc(r.queuedAt), desc(r.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    const [total] = await db.select({ value: count() }).from(r).where(where);
    const now = new Date();
    return c.json({ results: rows.map((row) => toQueuedReport(row, now)), numberOfResults: Number(total?.value ?? 0) });
  });

  routes.get('/reports/:id', async (c) => {
    const row = await ownReport(c.get('principal').userId, c.req.param('id'));
    return c.json(toQueuedReport(row, new Date()));
  });

  routes.get('/reports/:id/download', async (c) => {
    const principal = c.get('principal');
    const row = await ownReport(principal.userId, c.req.param('id'));
    // The file holds the rows of its context as they were: whoever lost access to that context since may no longer
    // take them away, even though the report is theirs.
    const scope = await scopeOfReportContext(database, principal, row.context as ReportContext, reportReadPermission(row.reportType));
    if (!scope) throw forbidden();
    const view = toQueuedReport(row, new Date());
    if (row.deletedAt) throw new ApiError(410, 'The report has been deleted.');
    if (view.state === 'expired') throw new ApiError(410, 'The report has expired.');
    if (row.status !== 'generated') throw badRequest('The report has not been generated yet.');
    if (!row.filePath) throw new ApiError(410, 'The report file is no longer available.');
    const file = await files.get(row.filePath).catch((error: unknown) => {
      if (error instanceof InvalidFileKey) return null;
      throw error;
    });
    if (!file) throw new ApiError(410, 'The report file is no longer available.');
    // Written from the store as it is read (http/file-body.ts): a 1,000,000-row file never sits in memory.
    return fileBody(c, file, {
      'Content-Type': reportContentTypes[row.fileType] ?? file.contentType,
      'Content-Disposition': contentDisposition(downloadName(row)),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  routes.delete('/reports/:id', async (c) => {
    const row = await ownReport(c.get('principal').userId, c.req.param('id'));
    if (!row.deletedAt) {
      // A generating job notices at its next heartbeat and discards its upload; a file left by a failed delete here is
      // an orphan the sweeper removes.
      await db
        .update(r)
        .set({
          deletedAt: new Date(),
          filePath: null,
          ...(row.status === 'queued' ? { status: 'cancelled' as const } : {}),
        })
        .where(and(eq(r.id, row.id), isNull(r.deletedAt)));
      if (row.filePath) await files.delete(row.filePath).catch(() => undefined);
    }
    return c.body(null, 204);
  });

  routes.post('/reports/:id/retry', async (c) => {
    const userId = c.get('principal').userId;
    const row = await ownReport(userId, c.req.param('id'));
    if (row.deletedAt) throw new ApiError(410, 'The report has been deleted.');
    const [updated] = await db
      .update(r)
      .set({
        status: 'queued',
        attempts: 0,
        processedRows: 0,
        error: null,
        lockedBy: null,
        lockedUntil: null,
      })
      .where(and(eq(r.id, row.id), eq(r.status, 'failed'), isNull(r.deletedAt)))
      .returning();
    if (!updated) throw badRequest(`Only a failed report can be retried; this one is ${reportState(toQueuedReport(row, new Date()), new Date())}.`);
    return c.json(toQueuedReport(updated, new Date()));
  });

  routes.post('/reports/:id/cancel', async (c) => {
    const userId = c.get('principal').userId;
    const row = await ownReport(userId, c.req.param('id'));
    const [updated] = await db
      .update(r)
      .set({ status: 'cancelled' })
      .where(and(eq(r.id, row.id), eq(r.status, 'queued'), isNull(r.deletedAt)))
      .returning();
    if (!updated) throw badRequest(`Only a queued report can be cancelled; this one is ${toQueuedReport(row, new Date()).state}.`);
    return c.json(toQueuedReport(updated, new Date()));
  });

  return routes;
}
