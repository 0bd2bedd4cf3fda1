// Dashboard statistics and declines for a merchant, a business or a partner (spec: shell document sections 3, 4
// and 9; context document section 7). Paths under /api/portal, {context} being /businesses/{b},
// /businesses/{b}/merchants/{m} or /partners/{p}:
//
//   POST {context}/dashboard            { dateRange: { startDate, endDate }, interval, currency?, dateBasis? }
//   GET  /partners/{p}/dashboard?startDate&endDate&interval&currency&dateBasis     (the partner form the spec names)
//       → { startDate, endDate, interval, timeZone, currency, currencies, dateBasis, bucket: { unit, step },
//           datapoints: [{ startDate, endDate, volume, revenue, unsuccessfulVolume, unsuccessfulRevenue, salesCount }] }
//   POST {context}/dashboard/declines   { currency, dateRange: { startDate, endDate } }
//       → { startDate, endDate, currency, totalCount, totalAmount, reasons: [{ reason, count, amount }] }
//   POST {context}/dashboard/breakdown  { dateRange: { startDate, endDate }, by: merchant|paymentMethod|status, currency? }
//       → { startDate, endDate, currency, by, rows: [{ key, label, volume, revenue, unsuccessfulVolume, unsuccessfulRevenue, salesCount, count }] }
//       (server/stats/breakdown.ts: the same definitions, so the rows add up to the dashboard's totals)
//
// dateBasis picks the view (server/stats/definition.ts): 'paymentDate' (the default: everything on its payment's day)
// or 'activityDate' (money on the day it moved); each has its own tables in the statistics store.
// Dates are calendar dates in the Time-Zone header's zone; buckets are that zone's hours, days or months. Access:
// the context must be reachable (else 404) and the caller must hold Mapi.MerchantDashboardReport.Read there (else
// 403). Bad input is a 400 naming the problem. Sums come from the statistics store (server/stats), never from a
// scan of the transactions.
import { type } from 'arktype';
import { eq, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { addDays } from '../../src/contract/calendar-date.ts';
import { formatInstant, startOfLocalDate } from '../../src/contract/zoned-time.ts';
import { defaultDateBasis, normalisePeriod, type DashboardPeriod } from '../../src/contract/dashboard-intervals.ts';
import { bucketPlan } from '../../src/contract/dashboard-buckets.ts';
import {
  breakdownRequestSchema,
  dashboardRequestSchema,
  declinesRequestSchema,
  type BreakdownResponse,
  maxDeclineReasons,
  type DashboardResponse,
  type DeclinesResponse,
} from '../../src/contract/dashboard.ts';
import type { Database, Db } from '../db/client.ts';
import { businesses, merchants } from '../db/schema.ts';
import { resolveContext, resolvePartner } from '../policy/principal.ts';
import { breakdownOf } from '../stats/breakdown.ts';
import { declineReasons, sumPerBucket, type StatsScope } from '../stats/read-stats.ts';
import { readBody, requirePermission, type AppEnv, type Deps } from '../http/env.ts';
import { badRequest, notFound, validationMessages } from '../http/errors.ts';

const permission = 'Mapi.MerchantDashboardReport.Read';
const maxIdLength = 64;
const defaultCurrency = 'GBP';

type ResolvedScope = { scope: StatsScope; currencies: string[] };

function idParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  if (value === '' || value.length > maxIdLength) throw notFound();
  return value;
}

const sortedUnique = (values: readonly string[]) => [...new Set(values)].sort();

/** The currencies a business's or a partner's merchants take: built once per database, prepared on each connection once. */
function currencyLookups(db: Db) {
  const currenciesWhere = (condition: SQL, name: string) =>
    db
      .selectDistinct({ currency: sql<string>`unnest(${merchants.currencies})` })
      .from(merchants)
      .innerJoin(businesses, eq(businesses.id, merchants.businessId))
      .where(condition)
      .prepare(name);
  return {
    business: currenciesWhere(eq(merchants.businessId, sql.placeholder('id')), 'business_currencies'),
    partner: currenciesWhere(eq(businesses.partnerId, sql.placeholder('id')), 'partner_currencies'),
  };
}

const preparedCurrencyLookups = new WeakMap<Db, ReturnType<typeof currencyLookups>>();

async function currenciesOf(database: Database, level: 'business' | 'partner', id: string): Promise<string[]> {
  let prepared = preparedCurrencyLookups.get(database.db);
  if (!prepared) {
    prepared = currencyLookups(database.db);
    preparedCurrencyLookups.set(database.db, prepared);
  }
  const rows = await prepared[level].execute({ id });
  return sortedUnique(rows.map((row) => row.currency));
}

/** The addressed context as a statistics scope, with the currencies its merchants take; 404 and 403 as the header says. */
async function resolveScope(c: Context<AppEnv>, database: Database): Promise<ResolvedScope> {
  const principal = c.get('principal');
  const partnerId = c.req.param('partnerId');
  if (partnerId !== undefined) {
    const resolved = await resolvePartner(database, principal, idParam(c, 'partnerId'));
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { scope: { partnerId: resolved.partner.id }, currencies: await currenciesOf(database, 'partner', resolved.partner.id) };
  }
  const businessId = idParam(c, 'businessId');
  const merchantId = c.req.param('merchantId') === undefined ? undefined : idParam(c, 'merchantId');
  const resolved = await resolveContext(database, principal, businessId, merchantId);
  if (!resolved) throw notFound();
  requirePermission(resolved.permissions, permission);
  if (resolved.merchant) return { scope: { merchantId: resolved.merchant.id }, currencies: sortedUnique(resolved.merchant.currencies) };
  return { scope: { businessId: resolved.business.id }, currencies: await currenciesOf(database, 'business', resolved.business.id) };
}

function periodOrBadRequest(interval: DashboardPeriod['interval'], startDate: string, endDate: string): DashboardPeriod {
  const normalised = normalisePeriod(interval, startDate, endDate);
  if ('problems' in normalised) throw badRequest(normalised.problems);
  return normalised.period;
}

/** The GET form's query string as the POST body: names are case-insensitive, each given once, nothing else. */
function bodyFromQuery(c: Context<AppEnv>): unknown {
  const known: Record<string, string> = { startdate: 'startDate', enddate: 'endDate', interval: 'interval', currency: 'currency', datebasis: 'dateBasis' };
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, list] of Object.entries(c.req.queries())) {
    const key = known[name.toLowerCase()];
    if (!key) problems.push(`'${name.slice(0, 40)}' is not a parameter of the dashboard`);
    else if (list.length > 1 || key in values) problems.push(`'${key}' may be given once`);
    else values[key] = list[0] ?? '';
  }
  if (problems.length > 0) throw badRequest(problems);
  const { startDate, endDate, ...rest } = values;
  return { ...rest, dateRange: { startDate, endDate } };
}

function parseQuery(c: Context<AppEnv>) {
  const parsed = dashboardRequestSchema(bodyFromQuery(c));
  if (parsed instanceof type.errors) throw badRequest(validationMessages(parsed));
  return parsed;
}

export function dashboardRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();

  /** Resolves the context first (404, 403), then reads the request from the body or the query string (400). */
  const statistics = async (c: Context<AppEnv>, from: 'body' | 'query') => {
    const { scope, currencies } = await resolveScope(c, database);
    const request = from === 'body' ? await readBody(c, dashboardRequestSchema) : parseQuery(c);
    const period = periodOrBadRequest(request.interval, request.dateRange.startDate, request.dateRange.endDate);
    const timeZone = c.get('timeZone');
    const currency = request.currency ?? (currencies.includes(defaultCurrency) ? defaultCurrency : (currencies[0] ?? defaultCurrency));
    const plan = bucketPlan(period, timeZone);
    const dateBasis = request.dateBasis ?? defaultDateBasis;
    const sums = await sumPerBucket(database, scope, currency, plan.buckets, dateBasis);
    const body: DashboardResponse = {
      startDate: period.startDate,
      endDate: period.endDate,
      interval: period.interval,
      timeZone,
      currency,
      currencies,
      dateBasis,
      bucket: { unit: plan.unit, step: plan.step },
      datapoints: plan.buckets.map((bucket, index) => ({
        startDate: formatInstant(bucket.start, timeZone),
        endDate: formatInstant(bucket.end, timeZone),
        ...(sums[index] ?? { volume: 0, revenue: 0, unsuccessfulVolume: 0, unsuccessfulRevenue: 0, salesCount: 0 }),
      })),
    };
    return c.json(body);
  };

  const declines = async (c: Context<AppEnv>) => {
    const { scope } = await resolveScope(c, database);
    const request = await readBody(c, declinesRequestSchema);
    const period = periodOrBadRequest('custom', request.dateRange.startDate, request.dateRange.endDate);
    const timeZone = c.get('timeZone');
    const start = startOfLocalDate(period.startDate, timeZone);
    const end = startOfLocalDate(addDays(period.endDate, 1), timeZone);
    const reasons = await declineReasons(database.db, scope, request.currency, start, end);
    const body: DeclinesResponse = {
      startDate: period.startDate,
      endDate: period.endDate,
      currency: request.currency,
      totalCount: reasons.reduce((sum, entry) => sum + entry.count, 0),
      totalAmount: reasons.reduce((sum, entry) => sum + entry.amount, 0),
      reasons: reasons.slice(0, maxDeclineReasons),
    };
    return c.json(body);
  };

  const breakdown = async (c: Context<AppEnv>) => {
    const { scope, currencies } = await resolveScope(c, database);
    const request = await readBody(c, breakdownRequestSchema);
    const period = periodOrBadRequest('custom', request.dateRange.startDate, request.dateRange.endDate);
    const timeZone = c.get('timeZone');
    const currency = request.currency ?? (currencies.includes(defaultCurrency) ? defaultCurrency : (currencies[0] ?? defaultCurrency));
    const start = startOfLocalDate(period.startDate, timeZone);
    const end = startOfLocalDate(addDays(period.endDate, 1), timeZone);
    const body: BreakdownResponse = {
      startDate: period.startDate,
      endDate: period.endDate,
      currency,
      by: request.by,
      rows: await breakdownOf(database.db, scope, currency, start, end, request.by),
    };
    return c.json(body);
  };

  for (const prefix of ['/businesses/:businessId', '/businesses/:businessId/merchants/:merchantId', '/partners/:partnerId']) {
    routes.post(`${prefix}/dashboard`, (c) => statistics(c, 'body'));
    routes.post(`${prefix}/dashboard/declines`, declines);
    routes.post(`${prefix}/dashboard/breakdown`, breakdown);
  }
  routes.get('/partners/:partnerId/dashboard', (c) => statistics(c, 'query'));
  return routes;
}
