// Billing: monthly runs that invoice each business the fees the ledger charged it (server/billing/), the
// invoices and credit notes, their PDFs, and the business's own read of them. Internal calls need
// Billing.Invoices.Create through a root role (finance admins); the business calls need
// Mapi.MerchantAccountPricingPlan.Read in the business (its owner and finance users, internal readers) and answer 404
// for a business the caller cannot reach or an invoice of another business.
//
// | method | path                                         | permission                              | answer |
// |--------|----------------------------------------------|-----------------------------------------|--------|
// | GET    | /billing/runs                                | Billing.Invoices.Create (root)          | { results, numberOfResults }, newest month first |
// | POST   | /billing/runs/preview  { month }             | Billing.Invoices.Create (root)          | the month's draft invoices from the ledger, nothing written |
// | POST   | /billing/runs  { month }                     | Billing.Invoices.Create (root)          | 201 the run and its invoice numbers; 409 when the month has a run; 422 month not ended; audited BillingRunCreated |
// | GET    | /billing/invoices                            | Billing.Invoices.Create (root)          | list convention; filters status, business, month, kind, number (part of it); sort issued, number, total |
// | GET    | /billing/invoices/{id}                       | Billing.Invoices.Create (root)          | the invoice with lines, credit notes and what is left to credit |
// | GET    | /billing/invoices/{id}/pdf                   | Billing.Invoices.Create (root)          | application/pdf |
// | PUT    | /billing/invoices/{id}/status {status,version}| Billing.Invoices.Create (root)         | marked paid; 409 stale version; 422 already paid or a credit note; audited InvoiceMarkedPaid; posts invoicePayment:{id} |
// | POST   | /billing/invoices/{id}/credit-notes {reason, amountMinor?} | Billing.Invoices.Create (root) | 201 the credit note (a negative invoice referencing it); 422 more than is left or a credit note; audited CreditNoteIssued; posts creditNote:{id} |
// | GET    | /businesses/{b}/invoices                     | Mapi.MerchantAccountPricingPlan.Read    | the business's invoices and credit notes (filters status, month; sort issued, number) |
// | GET    | /businesses/{b}/invoices/{id}/pdf            | Mapi.MerchantAccountPricingPlan.Read    | application/pdf; 404 for another business's invoice |
// Invoices are never edited once issued: only the payment status (and version) of an invoice changes. Paying and
// crediting post to the ledger in the same transaction (server/ledger/invoice-postings.ts), so the invoice accounts
// the invoice charged are cleared.
import { Readable } from 'node:stream';
import { and, count, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import {
  alreadyPaidMessage,
  businessInvoiceListSpec,
  creditExceedsMessage,
  creditNoteNotPayableMessage,
  creditOfCreditMessage,
  duplicateRunMessage,
  invoiceListSpec,
  invoiceSeries,
  monthNotEndedMessage,
  type InvoiceStatusName,
} from '../../src/contract/billing.ts';
import { billingMonthBody, creditNoteBody, invoiceStatusBody, type Invoice, type InvoiceListItem } from '../../src/contract/billing-schemas.ts';
import type { FilterClause, ListQuerySpec } from '../../src/contract/list-query.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { recordAudit } from '../audit/record.ts';
import { draftInvoices, issueBillingRun, newBillingId, takeNumbers } from '../billing/billing-run.ts';
import { ensureInvoicePdf, invoicePdfName, type InvoiceDocument } from '../billing/invoice-pdf.ts';
import { creditNotePostingId, invoicePaymentPostingId, postCreditNote, postInvoicePayment } from '../ledger/invoice-postings.ts';
import { monthEnvelope } from '../ledger/periods.ts';
import { billingRuns, businesses, invoices, users } from '../db/schema.ts';
import { contentDisposition } from '../files/content-disposition.ts';
import { resolveContext, type Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, conflict, forbidden, notFound } from '../http/errors.ts';
import {
  assertResourceMatchesSpec,
  filterCondition,
  likeLiteral,
  orderByOf,
  orderKeysOf,
  parseListRequest,
  singleValuedQuery,
  type ListResource,
} from '../http/list-sql.ts';
import type { DbWriter } from '../db/client.ts';

const i = invoices;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const billingPermission: PermissionName = 'Billing.Invoices.Create';
const businessReadPermission: PermissionName = 'Mapi.MerchantAccountPricingPlan.Read';
type InvoiceRow = typeof invoices.$inferSelect;

/** issued / overdue are one stored status split by the due date; credit notes are never overdue. */
function statusCondition(clauses: FilterClause[]): SQL | undefined {
  const now = new Date();
  const parts = clauses.map((clause) => {
    switch (clause.value as InvoiceStatusName) {
      case 'paid':
        return eq(i.status, 'paid');
      case 'overdue':
        return and(eq(i.status, 'issued'), eq(i.kind, 'invoice'), lt(i.dueUtc, now));
      default:
        return and(eq(i.status, 'issued'), sql`(${i.kind} = 'creditNote' OR ${i.dueUtc} >= ${now})`);
    }
  });
  return parts.length === 1
    ? parts[0]
    : sql`(${sql.join(
        parts.map((part) => sql`(${part})`),
        sql` OR `,
      )})`;
}

const sorts = {
  issued: [
    { expression: i.issuedUtc, descending: false },
    { expression: i.number, descending: false },
  ],
  number: [{ expression: i.number, descending: false }],
  total: [
    { expression: i.totalMinor, descending: false },
    { expression: i.number, descending: false },
  ],
};
export const invoiceResource: ListResource = {
  spec: invoiceListSpec,
  filters: {
    status: { type: 'custom', condition: statusCondition },
    business: { type: 'equals', column: i.businessId },
    month: { type: 'equals', column: i.month },
    kind: { type: 'equals', column: i.kind },
    number: { type: 'custom', condition: (clauses) => and(...clauses.map((clause) => sql`${i.number} ILIKE ${`%${likeLiteral(clause.value)}%`}`)) },
  },
  sorts,
};
assertResourceMatchesSpec(invoiceResource);
export const businessInvoiceResource: ListResource = {
  spec: businessInvoiceListSpec,
  filters: { status: { type: 'custom', condition: statusCondition }, month: { type: 'equals', column: i.month } },
  sorts: { issued: sorts.issued, number: sorts.number },
};
assertResourceMatchesSpec(businessInvoiceResource);
export const runListSpec: ListQuerySpec = { filters: {}, sortable: ['month'], defaultSort: [{ field: 'month', descending: true }] };

export function statusOf(row: Pick<InvoiceRow, 'status' | 'kind' | 'dueUtc'>, now: Date): InvoiceStatusName {
  if (row.status === 'issued' && row.kind === 'invoice' && row.dueUtc.getTime() < now.getTime()) return 'overdue';
  return row.status;
}

const toListItem = (row: InvoiceRow, businessName: string, now: Date): InvoiceListItem => ({
  invoiceId: row.id,
  number: row.number,
  kind: row.kind,
  month: row.month,
  businessId: row.businessId,
  businessName,
  currency: row.currency,
  status: statusOf(row, now),
  issuedUtc: row.issuedUtc.toISOString(),
  dueUtc: row.dueUtc.toISOString(),
  paidUtc: row.paidUtc?.toISOString() ?? null,
  totalMinor: row.totalMinor,
  creditedInvoiceId: row.creditedInvoiceId,
  version: row.version,
});

function requireRoot(principal: Principal, permission: PermissionName): void {
  const roots = principal.grants.filter((grant) => grant.level === 'root').map((grant) => grant.role);
  if (!permissionsOfRoles(roots).has(permission)) throw forbidden();
}

/** A month can be billed once it has ended in every business's time zone (the last, UTC−12, ends latest). */
function monthEnded(month: string, now: Date): void {
  if (monthEnvelope(month).end.getTime() > now.getTime()) throw new ApiError(422, monthNotEndedMessage);
}

export function billingRoutes({ database, files }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const selectInvoices = () => db.select({ invoice: i, businessName: businesses.name }).from(i).innerJoin(businesses, eq(businesses.id, i.businessId));

  async function invoiceOf(reader: DbWriter, id: string, businessId?: string, lock = false): Promise<{ invoice: InvoiceRow; businessName: string }> {
    if (!idPattern.test(id)) throw notFound();
    const query = reader
      .select({ invoice: i, businessName: businesses.name })
      .from(i)
      .innerJoin(businesses, eq(businesses.id, i.businessId))
      .where(and(eq(i.id, id), businessId ? eq(i.businessId, businessId) : undefined));
    const [row] = lock ? await query.for('update', { of: i }) : await query;
    if (!row) throw notFound();
    return row;
  }

  async function documentOf(row: { invoice: InvoiceRow; businessName: string }): Promise<InvoiceDocument> {
    const [credited] = row.invoice.creditedInvoiceId ? await db.select({ number: i.number }).from(i).where(eq(i.id, row.invoice.creditedInvoiceId)) : [];
    return { ...row.invoice, businessName: row.businessName, creditedInvoiceNumber: credited?.number ?? null };
  }

  async function creditedSoFar(reader: DbWriter, invoiceId: string): Promise<{ total: number; notes: InvoiceRow[] }> {
    const notes = await reader.select().from(i).where(eq(i.creditedInvoiceId, invoiceId)).orderBy(i.number);
    return { total: notes.reduce((sum, note) => sum - note.totalMinor, 0), notes };
  }

  async function detailOf(row: { invoice: InvoiceRow; businessName: string }): Promise<Invoice> {
    const now = new Date();
    const { total, notes } = await creditedSoFar(db, row.invoice.id);
    const document = await documentOf(row);
    return {
      ...toListItem(row.invoice, row.businessName, now),
      feesMinor: row.invoice.feesMinor,
      minimumTopUpMinor: row.invoice.minimumTopUpMinor,
      lines: row.invoice.lines,
      reason: row.invoice.reason,
      creditedInvoiceNumber: document.creditedInvoiceNumber,
      creditNotes: notes.map((note) => ({ invoiceId: note.id, number: note.number, totalMinor: note.totalMinor, issuedUtc: note.issuedUtc.toISOString() })),
      creditableMinor: row.invoice.kind === 'invoice' ? Math.max(0, row.invoice.totalMinor - total) : 0,
    };
  }

  async function servePdf(row: { invoice: InvoiceRow; businessName: string }) {
    const key = await ensureInvoicePdf(files, await documentOf(row));
    const stored = await files.get(key);
    if (!stored) throw notFound();
    return new Response(Readable.toWeb(stored.stream) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(stored.size),
        'Content-Disposition': contentDisposition(invoicePdfName(row.invoice.number), 'attachment'),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }

  /** Writes the PDFs of freshly issued documents; one that fails is written on its first download instead. */
  async function writePdfs(documents: InvoiceDocument[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < documents.length) {
        const document = documents[next++] as InvoiceDocument;
        await ensureInvoicePdf(files, document).catch(() => undefined);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  }

  const audit = (tx: DbWriter, c: Context<AppEnv>, event: string, businessId: string | null, metaData: Record<string, unknown>) =>
    recordAudit(tx, c.get('principal'), event, { businessId, merchantId: null }, metaData);

  // ── runs ──
  routes.get('/billing/runs', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const query = parseListRequest(singleValuedQuery(c), runListSpec);
    const order = query.sort[0]?.descending === false ? billingRuns.month : desc(billingRuns.month);
    const [rows, [total]] = await Promise.all([
      db
        .select({ run: billingRuns, givenName: users.givenName, familyName: users.familyName })
        .from(billingRuns)
        .leftJoin(users, eq(users.id, billingRuns.createdBy))
        .orderBy(order)
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(billingRuns),
    ]);
    return c.json({
      results: rows.map(({ run, givenName, familyName }) => ({
        runId: run.id,
        month: run.month,
        createdBy: givenName ? `${givenName} ${familyName ?? ''}`.trim() : run.createdBy,
        createdUtc: run.createdUtc.toISOString(),
        invoiceCount: run.invoiceCount,
      })),
      numberOfResults: Number(total?.value ?? 0),
    });
  });

  routes.post('/billing/runs/preview', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const { month } = await readBody(c, billingMonthBody);
    monthEnded(month, new Date());
    const [drafts, [existing]] = await Promise.all([
      draftInvoices(db, month),
      db.select({ id: billingRuns.id }).from(billingRuns).where(eq(billingRuns.month, month)),
    ]);
    const totals = new Map<string, { currency: string; feesMinor: number; minimumTopUpMinor: number; totalMinor: number; invoiceCount: number }>();
    for (const draft of drafts) {
      const total = totals.get(draft.currency) ?? { currency: draft.currency, feesMinor: 0, minimumTopUpMinor: 0, totalMinor: 0, invoiceCount: 0 };
      total.feesMinor += draft.feesMinor;
      total.minimumTopUpMinor += draft.minimumTopUpMinor;
      total.totalMinor += draft.totalMinor;
      total.invoiceCount += 1;
      totals.set(draft.currency, total);
    }
    return c.json({
      month,
      alreadyRun: existing !== undefined,
      invoices: drafts.map((draft) => ({ ...draft, status: 'draft' as const })),
      totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    });
  });

  routes.post('/billing/runs', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const { month } = await readBody(c, billingMonthBody);
    const now = new Date();
    monthEnded(month, now);
    const principal = c.get('principal');
    const result = await db.transaction(async (tx) => {
      const issued = await issueBillingRun(tx, month, principal.userId, now);
      if (!issued) return null;
      const numbers = issued.issued.map((invoice) => invoice.number);
      await audit(tx, c, 'BillingRunCreated', null, {
        runId: issued.run.id,
        month,
        invoiceCount: numbers.length,
        firstNumber: numbers[0] ?? null,
        lastNumber: numbers.at(-1) ?? null,
      });
      return issued;
    });
    if (!result) throw new ApiError(409, duplicateRunMessage(month));
    const names = new Map(
      (result.issued.length === 0
        ? []
        : await db
            .select({ id: businesses.id, name: businesses.name })
            .from(businesses)
            .where(inArray(businesses.id, [...new Set(result.issued.map((invoice) => invoice.businessId))]))
      ).map((row) => [row.id, row.name]),
    );
    await writePdfs(
      result.issued.map((invoice) => ({ ...invoice, businessName: names.get(invoice.businessId) ?? invoice.businessId, creditedInvoiceNumber: null })),
    );
    return c.json(
      {
        runId: result.run.id,
        month,
        createdBy: `${principal.givenName} ${principal.familyName}`.trim(),
        createdUtc: result.run.createdUtc.toISOString(),
        invoiceCount: result.issued.length,
        invoiceNumbers: result.issued.map((invoice) => invoice.number),
      },
      201,
    );
  });

  // ── invoices (internal) ──
  routes.get('/billing/invoices', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const query = parseListRequest(singleValuedQuery(c), invoiceListSpec);
    const sort = query.sort[0] ?? { field: 'number', descending: true };
    const where = filterCondition(invoiceResource, query.filters, c.get('timeZone'));
    const now = new Date();
    const [rows, [total]] = await Promise.all([
      selectInvoices()
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(invoiceResource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(i).where(where),
    ]);
    return c.json({ results: rows.map((row) => toListItem(row.invoice, row.businessName, now)), numberOfResults: Number(total?.value ?? 0) });
  });

  routes.get('/billing/invoices/:invoiceId', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    return c.json(await detailOf(await invoiceOf(db, c.req.param('invoiceId'))));
  });

  routes.get('/billing/invoices/:invoiceId/pdf', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    return servePdf(await invoiceOf(db, c.req.param('invoiceId')));
  });

  routes.put('/billing/invoices/:invoiceId/status', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const found = await invoiceOf(db, c.req.param('invoiceId'));
    const body = await readBody(c, invoiceStatusBody);
    const updated = await db.transaction(async (tx) => {
      const { invoice } = await invoiceOf(tx, found.invoice.id, undefined, true);
      if (invoice.version !== body.version) throw conflict();
      if (invoice.kind === 'creditNote') throw new ApiError(422, creditNoteNotPayableMessage);
      if (invoice.status === 'paid') throw new ApiError(422, alreadyPaidMessage);
      const now = new Date();
      const [saved] = await tx
        .update(i)
        .set({ status: 'paid', paidUtc: now, version: sql`${i.version} + 1` })
        .where(and(eq(i.id, invoice.id), eq(i.version, body.version)))
        .returning();
      if (!saved) throw conflict();
      // The payment clears what the invoice charged on the merchants' invoice accounts (credit notes deducted).
      const postedMinor = await postInvoicePayment(tx, saved, now);
      await audit(tx, c, 'InvoiceMarkedPaid', invoice.businessId, {
        invoiceId: invoice.id,
        number: invoice.number,
        wasOverdue: statusOf(invoice, now) === 'overdue',
        postingId: invoicePaymentPostingId(invoice.id),
        postedMinor,
        currency: invoice.currency,
      });
      return saved;
    });
    return c.json(await detailOf({ invoice: updated, businessName: found.businessName }));
  });

  routes.post('/billing/invoices/:invoiceId/credit-notes', async (c) => {
    requireRoot(c.get('principal'), billingPermission);
    const found = await invoiceOf(db, c.req.param('invoiceId'));
    const body = await readBody(c, creditNoteBody);
    const principal = c.get('principal');
    const note = await db.transaction(async (tx) => {
      const { invoice } = await invoiceOf(tx, found.invoice.id, undefined, true);
      if (invoice.kind === 'creditNote') throw new ApiError(422, creditOfCreditMessage);
      const { total } = await creditedSoFar(tx, invoice.id);
      const left = invoice.totalMinor - total;
      const amount = body.amountMinor ?? left;
      if (amount <= 0 || amount > left) throw new ApiError(422, creditExceedsMessage);
      const now = new Date();
      const [number] = await takeNumbers(tx, invoiceSeries.creditNote, now.getUTCFullYear(), 1);
      const reason = body.reason.trim();
      const [saved] = await tx
        .insert(i)
        .values({
          id: newBillingId('CN'),
          number: number as string,
          kind: 'creditNote',
          runId: null,
          month: invoice.month,
          businessId: invoice.businessId,
          currency: invoice.currency,
          status: 'issued',
          issuedUtc: now,
          dueUtc: now,
          paidUtc: null,
          feesMinor: 0,
          minimumTopUpMinor: 0,
          totalMinor: -amount,
          lines: [
            {
              merchantId: '',
              merchantName: '',
              paymentMethod: null,
              description: `Credit for invoice ${invoice.number}: ${reason}`,
              transactionCount: 0,
              volumeMinor: 0,
              feesMinor: 0,
              minimumTopUpMinor: 0,
              amountMinor: -amount,
            },
          ],
          creditedInvoiceId: invoice.id,
          reason,
          createdBy: principal.userId,
        })
        .returning();
      if (!saved) throw new Error('credit note insert returned nothing');
      // The credit takes the amount off the merchants' invoice accounts and back from their costs accounts.
      await postCreditNote(tx, saved, invoice);
      await audit(tx, c, 'CreditNoteIssued', invoice.businessId, {
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        creditNoteId: saved.id,
        number: saved.number,
        amountMinor: amount,
        currency: invoice.currency,
        reason,
        postingId: creditNotePostingId(saved.id),
      });
      return saved;
    });
    const row = { invoice: note, businessName: found.businessName };
    await writePdfs([await documentOf(row)]);
    return c.json(await detailOf(row), 201);
  });

  // ── the business's own invoices ──
  async function businessOf(c: Context<AppEnv>): Promise<string> {
    const businessId = c.req.param('businessId') ?? '';
    if (!idPattern.test(businessId)) throw notFound();
    const resolved = await resolveContext(database, c.get('principal'), businessId);
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, businessReadPermission);
    return resolved.business.id;
  }

  routes.get('/businesses/:businessId/invoices', async (c) => {
    const businessId = await businessOf(c);
    const query = parseListRequest(singleValuedQuery(c), businessInvoiceListSpec);
    const sort = query.sort[0] ?? { field: 'number', descending: true };
    const where = and(eq(i.businessId, businessId), filterCondition(businessInvoiceResource, query.filters, c.get('timeZone')));
    const now = new Date();
    const [rows, [total]] = await Promise.all([
      selectInvoices()
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(businessInvoiceResource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(i).where(where),
    ]);
    return c.json({ results: rows.map((row) => toListItem(row.invoice, row.businessName, now)), numberOfResults: Number(total?.value ?? 0) });
  });

  routes.get('/businesses/:businessId/invoices/:invoiceId/pdf', async (c) => {
    const businessId = await businessOf(c);
    return servePdf(await invoiceOf(db, c.req.param('invoiceId'), businessId));
  });

  return routes;
}
