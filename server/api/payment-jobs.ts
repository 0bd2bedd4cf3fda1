// Payment jobs: overview, detail, traces, the audit trail and the payment actions.
//
// Every path exists under three prefixes ({context}): /businesses/{businessId}, /businesses/{businessId}/merchants/
// {merchantId} and /partners/{partnerId}. An unreachable context answers 404, a reachable one without the permission
// 403, a job outside the addressed context (another tenant's) 404. An action's permission is checked where the job
// lives (its merchant, business and partner), so a role granted lower down does not act through a higher context.
//
// | method | path                                                                  | permission                  | answer |
// |--------|-----------------------------------------------------------------------|-----------------------------|--------|
// | GET    | {context}/payment-jobs                                                | Portal.PaymentJobs.Read     | { results, numberOfResults }; filters incl. configurationid and tab (open, authorised, paid, refunded, failed) |
// | GET    | {context}/payment-jobs/{ref}                                          | Portal.PaymentJobs.Read     | detail (payments, order, invoices, reversals, split outpayment, version, actions) |
// | GET    | {context}/traces/{traceReference}?advanced=true|false                 | Portal.Traces.Read          | { traceSequences } (raw messages masked, with advanced) |
// | GET    | {context}/audit-events                                                | Portal.PaymentJobs.Read     | { data, totalCount }, newest first; filters event, from, to, paymentJobReference |
// | POST   | {context}/payment-jobs/{ref}/payments/{paymentId}/actions/capture     | Portal.Payments.Capture     | 201 { message, version, captureId } |
// | POST   | {context}/payment-jobs/{ref}/payments/{paymentId}/actions/refund      | Portal.Payments.Refund      | 201 { message, version, refundId } |
// | POST   | {context}/payment-jobs/{ref}/payments/{paymentId}/refunds/{refundId}/actions/cancel | Portal.Payments.Refund | 200 { message, version } |
// | POST   | {context}/payment-jobs/{ref}/payments/{paymentId}/actions/void        | Portal.Payments.Void        | 200 { message, version } |
// | POST   | {context}/payment-jobs/{ref}/actions/cancel                           | Portal.PaymentJobs.Cancel   | 200 { message, version } |
// | POST   | {context}/payment-jobs/{ref}/payments/{paymentId}/actions/mail-payment-link | Portal.PaymentJobs.MailPaymentLink | 200 { message }; 429 with Retry-After past the mail limits (server/payments/payment-link-limits.ts) |
//
// Actions: an Idempotency-Key header (1–255 printable characters) returns the first answer to the same request and a
// 422 to another; a stale version is a 409 ('Someone updated this view'); a refused action is a 400 that says why and
// what is possible, audited as failed. All of it in server/payments/ (the one door for money).
import { and, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { type } from 'arktype';
import { filterInstant } from '../../src/contract/zoned-time.ts';
import {
  cancelJobBody,
  cancelRefundBody,
  expireLinkBody,
  captureBody,
  mailPaymentLinkBody,
  refundBody,
  voidBody,
} from '../../src/contract/payment-job-schemas.ts';
import { paymentIdOfTrace, paymentJobListSpec, paymentAuditEvents } from '../../src/contract/payment-jobs.ts';
import type { PaymentJobListItem } from '../../src/contract/payment-job-schemas.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { toMajorUnits } from '../../src/contract/transactions.ts';
import type { Database, Db } from '../db/client.ts';
import { auditEvents, businesses, merchants, paymentJobs, transactions, users } from '../db/schema.ts';
import {
  cancelJob,
  cancelRefund,
  capturePayment,
  expirePaymentLink,
  mailPaymentLink,
  PaymentActionError,
  refundPayment,
  runPaymentAction,
  voidPayment,
  type ActionOutcome,
  type JobAddress,
} from '../payments/payment-operations.ts';
import { PaymentLinkMailLimited } from '../payments/payment-link-limits.ts';
import { loadJobState } from '../payments/payment-state.ts';
import { customerOf, paymentJobDetailOf, traceOf } from '../payments/payment-views.ts';
import { permissionsIn, resolveContext, resolvePartner } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, notFound, validationMessages } from '../http/errors.ts';
import { idempotencyKeyOf } from '../http/idempotency-key.ts';
import { countBudgetMs, exactCountLimit, isStatementTimeout, plannerEstimate, withStatementBudget } from '../http/list-count.ts';
import { jobScopeWhere, paymentJobResource, type PaymentJobScope } from '../payments/payment-job-list.ts';
import { filterCondition, orderByOf, orderKeysOf, parseListRequest, singleValuedQuery } from '../http/list-sql.ts';

const j = paymentJobs;

/**
 * The overview's total, as the transactions overview counts: counting stops at exactCountLimit + 1 matching jobs (on
 * PostgreSQL within countBudgetMs); at or under the cap the total is exact, else null and the planner's estimate
 * stands in (estimatedJobCount), flagged numberOfResultsIsEstimate. The busiest business of the 2M seed has ~159,000
 * jobs: an exact count(*) of them took 57 ms of every page 1.
 */
async function jobCount(database: Database, where: SQL | undefined): Promise<{ numberOfResults: number; numberOfResultsIsEstimate: false } | null> {
  const countUpToCap = async (runner: Db) => {
    const capped = runner
      .select({ one: sql`1` })
      .from(j)
      .where(where)
      .limit(exactCountLimit + 1)
      .as('capped');
    const [row] = await runner.select({ value: count() }).from(capped);
    return Number(row?.value ?? 0);
  };
  try {
    const capped = database.kind === 'postgres' ? await withStatementBudget(database, countBudgetMs, countUpToCap) : await countUpToCap(database.db);
    return capped <= exactCountLimit ? { numberOfResults: capped, numberOfResultsIsEstimate: false } : null;
  } catch (error) {
    if (!isStatementTimeout(error)) throw error;
    return null;
  }
}

/** Past the cap (or the budget): the planner's estimate, never under the cap it passed. */
async function estimatedJobCount(database: Database, where: SQL | undefined): Promise<{ numberOfResults: number; numberOfResultsIsEstimate: true }> {
  const estimate = await plannerEstimate(database.db, database.db.select({ one: sql`1` }).from(j).where(where));
  return { numberOfResults: Math.max(estimate, exactCountLimit + 1), numberOfResultsIsEstimate: true };
}

type Resolved = { scope: PaymentJobScope };
type Resolver = (c: Context<AppEnv>, permission: PermissionName) => Promise<Resolved>;

function resolvers(database: Database): { prefix: string; resolve: Resolver }[] {
  const business: Resolver = async (c, permission) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '');
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { scope: { level: 'business', businessId: resolved.business.id } };
  };
  const merchant: Resolver = async (c, permission) => {
    const resolved = await resolveContext(database, c.get('principal'), c.req.param('businessId') ?? '', c.req.param('merchantId') ?? '');
    if (!resolved?.merchant) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { scope: { level: 'merchant', businessId: resolved.business.id, merchantId: resolved.merchant.id } };
  };
  const partner: Resolver = async (c, permission) => {
    const resolved = await resolvePartner(database, c.get('principal'), c.req.param('partnerId') ?? '');
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { scope: { level: 'partner', partnerId: resolved.partner.id } };
  };
  return [
    { prefix: '/businesses/:businessId', resolve: business },
    { prefix: '/businesses/:businessId/merchants/:merchantId', resolve: merchant },
    { prefix: '/partners/:partnerId', resolve: partner },
  ];
}

const referencePattern = /^[A-Za-z0-9_-]{1,64}$/;

export const auditQuery = type({
  '+': 'reject',
  'pagenumber?': /^\d{1,6}$/,
  'pagesize?': "'10' | '25' | '50' | '100'",
  'event?': type.enumerated(
    ...paymentAuditEvents,
    'CardNumberRevealed',
    'VirtualTerminalOrderSuccessful',
    'VirtualTerminalOrderFailed',
    'UserDeletionSuccessful',
    'UserDeletionFailed',
  ),
  'from?': 'string <= 40',
  'to?': 'string <= 40',
  'paymentJobReference?': referencePattern,
});

export function paymentJobRoutes({ database, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  // The detail's names, prepared once (only the id changes), as the payments' reads (server/payments/payment-state.ts).
  const namesOfMerchant = db
    .select({ merchantName: merchants.name, businessName: businesses.name })
    .from(merchants)
    .innerJoin(businesses, eq(businesses.id, merchants.businessId))
    .where(eq(merchants.id, sql.placeholder('merchantId')))
    .prepare('merchant_and_business_names');

  for (const { prefix, resolve } of resolvers(database)) {
    routes.get(`${prefix}/payment-jobs`, async (c) => {
      const { scope } = await resolve(c, 'Portal.PaymentJobs.Read');
      const query = parseListRequest(singleValuedQuery(c), paymentJobListSpec);
      const sort = query.sort[0] ?? { field: 'createDateTimeUtc', descending: true };
      const where = and(jobScopeWhere(scope), filterCondition(paymentJobResource, query.filters, c.get('timeZone')));
      const offset = (query.pageNumber - 1) * query.pageSize;
      if (offset > 100_000) throw badRequest('Pages beyond row 100,000 are not listed; narrow the filters.');
      // The count (capped, see jobCount) and the page need nothing from each other: sent together.
      const [total, rows] = await Promise.all([
        jobCount(database, where),
        db
          .select({
            job: j,
            merchantName: merchants.name,
            paymentMethod: sql<
              string | null
            >`(SELECT t.payment_method FROM transactions t WHERE t.payment_job_reference = ${j.reference} AND t.kind = 'payment' ORDER BY t.created_at DESC LIMIT 1)`,
          })
          .from(j)
          .innerJoin(merchants, eq(merchants.id, j.merchantId))
          .where(where)
          .orderBy(...orderByOf(orderKeysOf(paymentJobResource, sort)))
          .limit(query.pageSize)
          .offset(offset),
      ]);
      const results: PaymentJobListItem[] = rows.map(({ job, merchantName, paymentMethod }) => {
        const order = (job.order ?? {}) as Parameters<typeof customerOf>[0];
        return {
          reference: job.reference,
          orderNumber: job.orderNumber,
          createDateTimeUtc: job.createDateTimeUtc.toISOString(),
          expirationDateTimeUtc: job.expirationDateTimeUtc?.toISOString() ?? null,
          paidDateTimeUtc: job.paidDateTimeUtc?.toISOString() ?? null,
          status: job.status,
          amount: toMajorUnits(job.amountMinor, job.currency),
          currency: job.currency,
          configurationId: job.configurationId,
          businessId: job.businessId,
          merchantId: job.merchantId,
          merchantName,
          customer: customerOf(order),
          emailAddress: order.billingIdentity?.emailAddress ?? null,
          paymentMethod,
        };
      });
      return c.json({ results, ...(total ?? (await estimatedJobCount(database, where))) });
    });

    routes.get(`${prefix}/payment-jobs/:paymentJobReference`, async (c) => {
      const { scope } = await resolve(c, 'Portal.PaymentJobs.Read');
      const reference = c.req.param('paymentJobReference');
      if (!referencePattern.test(reference)) throw notFound();
      const state = await loadJobState(db, reference, { lock: false, where: jobScopeWhere(scope) });
      if (!state) throw notFound();
      const [names] = await namesOfMerchant.execute({ merchantId: state.job.merchantId });
      return c.json(paymentJobDetailOf(state, names ?? { merchantName: state.job.merchantId, businessName: state.job.businessId }));
    });

    routes.get(`${prefix}/traces/:traceReference`, async (c) => {
      const { scope } = await resolve(c, 'Portal.Traces.Read');
      const advancedParam = c.req.query('advanced');
      if (advancedParam !== undefined && advancedParam !== 'true' && advancedParam !== 'false') throw badRequest("advanced must be 'true' or 'false'");
      const traceReference = c.req.param('traceReference');
      const paymentId = referencePattern.test(traceReference) ? paymentIdOfTrace(traceReference) : null;
      if (!paymentId) throw notFound();
      const [payment] = await db
        .select({ job: transactions.paymentJobReference })
        .from(transactions)
        .where(and(eq(transactions.reference, paymentId), eq(transactions.kind, 'payment')));
      if (!payment) throw notFound();
      const state = await loadJobState(db, payment.job, { lock: false, where: jobScopeWhere(scope) });
      const found = state?.payments.find((candidate) => candidate.transaction.reference === paymentId);
      if (!state || !found) throw notFound();
      return c.json(traceOf(state, found, advancedParam === 'true'));
    });

    routes.get(`${prefix}/audit-events`, async (c) => {
      const { scope } = await resolve(c, 'Portal.PaymentJobs.Read');
      const parsed = auditQuery(
        Object.fromEntries(
          Object.entries(singleValuedQuery(c)).map(([name, value]) => [name === 'pageNumber' ? 'pagenumber' : name === 'pageSize' ? 'pagesize' : name, value]),
        ),
      );
      if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
      const timeZone = c.get('timeZone');
      const instant = (value: string, bound: 'start' | 'end') => {
        try {
          return filterInstant(value, bound, timeZone);
        } catch {
          throw badRequest(`'${value.slice(0, 40)}' is not an ISO date`);
        }
      };
      const a = auditEvents;
      const scopeCondition =
        scope.level === 'merchant'
          ? eq(a.merchantId, scope.merchantId)
          : scope.level === 'business'
            ? eq(a.businessId, scope.businessId)
            : inArray(a.businessId, db.select({ id: businesses.id }).from(businesses).where(eq(businesses.partnerId, scope.partnerId)));
      const where = and(
        scopeCondition,
        parsed.event ? eq(a.event, parsed.event) : undefined,
        parsed.from ? gte(a.dateTimeUtc, instant(parsed.from, 'start')) : undefined,
        parsed.to ? lte(a.dateTimeUtc, instant(parsed.to, 'end')) : undefined,
        parsed.paymentJobReference ? sql`${a.metaData}->>'paymentJobReference' = ${parsed.paymentJobReference}` : undefined,
      );
      const pageSize = Number(parsed.pagesize ?? 25);
      const pageNumber = Math.max(1, Number(parsed.pagenumber ?? 1));
      const [total] = await db.select({ value: count() }).from(a).where(where);
      const rows = await db
        .select({ event: a, email: users.email })
        .from(a)
        .leftJoin(users, eq(users.id, a.userId))
        .where(where)
        .orderBy(desc(a.dateTimeUtc), desc(a.id))
        .limit(pageSize)
        .offset((pageNumber - 1) * pageSize);
      return c.json({
        data: rows.map(({ event, email }) => ({
          id: String(event.id),
          event: event.event,
          dateTimeUtc: event.dateTimeUtc.toISOString(),
          userId: event.userId,
          userEmail: email ?? null,
          businessId: event.businessId,
          merchantId: event.merchantId,
          metaData: (event.metaData ?? {}) as Record<string, unknown>,
        })),
        totalCount: Number(total?.value ?? 0),
      });
    });

    // ---- actions

    /** Resolves the context, checks the job is in it and the permission holds where the job lives, then acts. */
    async function act(c: Context<AppEnv>, permission: PermissionName, body: unknown, run: (address: JobAddress) => Parameters<typeof runPaymentAction>[2]) {
      const { scope } = await resolve(c, 'Portal.PaymentJobs.Read');
      const reference = c.req.param('paymentJobReference') ?? '';
      if (!referencePattern.test(reference)) throw notFound();
      const [job] = await db
        .select({ partnerId: j.partnerId, businessId: j.businessId, merchantId: j.merchantId })
        .from(j)
        .where(and(eq(j.reference, reference), jobScopeWhere(scope)));
      if (!job) throw notFound();
      const principal = c.get('principal');
      requirePermission(permissionsIn(principal, job), permission);
      const idempotencyKey = idempotencyKeyOf(c);
      let outcome: ActionOutcome;
      try {
        outcome = await runPaymentAction(
          database,
          { actor: { userId: principal.userId }, idempotencyKey, fingerprint: { path: c.req.path, body } },
          run({ reference, where: jobScopeWhere(scope) }),
        );
      } catch (error) {
        if (error instanceof PaymentActionError) throw new ApiError(error.status, error.message);
        if (error instanceof PaymentLinkMailLimited) {
          c.header('Retry-After', String(error.retryAfterSeconds));
          throw new ApiError(429, error.message);
        }
        throw error;
      }
      return c.json(outcome.body, outcome.status);
    }
    const paymentPath = `${prefix}/payment-jobs/:paymentJobReference/payments/:paymentId`;
    const paymentIdOf = (c: Context<AppEnv>) => {
      const paymentId = c.req.param('paymentId') ?? '';
      if (!referencePattern.test(paymentId)) throw notFound();
      return paymentId;
    };

    routes.post(`${paymentPath}/actions/capture`, async (c) => {
      const body = await readBody(c, captureBody);
      const paymentId = paymentIdOf(c);
      return act(
        c,
        'Portal.Payments.Capture',
        body,
        (address) => (tx, at) =>
          capturePayment(tx, { userId: c.get('principal').userId }, address, { paymentId, amount: body.amount, version: body.version }, at),
      );
    });
    routes.post(`${paymentPath}/actions/refund`, async (c) => {
      const body = await readBody(c, refundBody);
      const paymentId = paymentIdOf(c);
      return act(
        c,
        'Portal.Payments.Refund',
        body,
        (address) => (tx, at) => refundPayment(tx, { userId: c.get('principal').userId }, address, { paymentId, ...body }, at),
      );
    });
    routes.post(`${paymentPath}/refunds/:refundId/actions/cancel`, async (c) => {
      const body = await readBody(c, cancelRefundBody);
      const paymentId = paymentIdOf(c);
      const refundId = c.req.param('refundId') ?? '';
      if (!referencePattern.test(refundId)) throw notFound();
      return act(
        c,
        'Portal.Payments.Refund',
        body,
        (address) => (tx, at) => cancelRefund(tx, { userId: c.get('principal').userId }, address, { paymentId, refundId, version: body.version }, at),
      );
    });
    routes.post(`${paymentPath}/actions/void`, async (c) => {
      const body = await readBody(c, voidBody);
      const paymentId = paymentIdOf(c);
      return act(
        c,
        'Portal.Payments.Void',
        body,
        (address) => (tx, at) => voidPayment(tx, { userId: c.get('principal').userId }, address, { paymentId, reason: body.reason, version: body.version }, at),
      );
    });
    routes.post(`${prefix}/payment-jobs/:paymentJobReference/actions/cancel`, async (c) => {
      const body = await readBody(c, cancelJobBody);
      return act(c, 'Portal.PaymentJobs.Cancel', body, (address) => (tx, at) => cancelJob(tx, { userId: c.get('principal').userId }, address, body, at));
    });
    routes.post(`${prefix}/payment-jobs/:paymentJobReference/actions/expire`, async (c) => {
      const body = await readBody(c, expireLinkBody);
      return act(
        c,
        'Portal.PaymentJobs.Cancel',
        body,
        (address) => (tx, at) => expirePaymentLink(tx, { userId: c.get('principal').userId }, address, body, at),
      );
    });
    routes.post(`${paymentPath}/actions/mail-payment-link`, async (c) => {
      const body = await readBody(c, mailPaymentLinkBody);
      const paymentId = paymentIdOf(c);
      return act(
        c,
        'Portal.PaymentJobs.MailPaymentLink',
        body,
        (address) => (tx, at) =>
          mailPaymentLink(tx, { userId: c.get('principal').userId }, address, { paymentId, emailAddress: body.emailAddress }, at, publicUrl),
      );
    });
  }
  return routes;
}
