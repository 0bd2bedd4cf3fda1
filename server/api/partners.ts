// Partners: the partners overview, one partner, its businesses, its commission plans with the commission
// earned per month from the ledger's fees, and its declines broken down by business.
//
// | method | path                                              | permission                                      | answer                                   |
// |--------|---------------------------------------------------|-------------------------------------------------|------------------------------------------|
// | GET    | /partners                                         | Mapi.Partners.Read at root, else own partners   | { results, numberOfResults }             |
// | GET    | /partners/{partnerId}                             | Mapi.Partner.Read in the partner                | detail with counts and commission plans  |
// | GET    | /partners/{partnerId}/businesses                  | Mapi.Partner.Read + Mapi.Business.Read          | { results, numberOfResults } (business)  |
// | GET    | /partners/{partnerId}/commission-plans            | Mapi.Partner.Read                               | { results, numberOfResults }             |
// | GET    | /partners/{partnerId}/commission-plans/{planId}   | Mapi.Partner.Read                               | plan, rules, commission earned per month |
// | GET    | /partners/{partnerId}/commission-plans/{planId}/transactions?month=YYYY-MM[&currency][&pagenumber&pagesize] | Mapi.Partner.Read | one month's commission per transaction (paged), with the month's totals per currency |
// | POST   | /partners/{partnerId}/commission-plans            | Mapi.Partner.Read + Mapi.CommissionPlans.Update | 201, the new plan as GET; 400 a field's problem; audited CommissionPlanCreated |
// | PUT    | /partners/{partnerId}/commission-plans/{planId}   | Mapi.Partner.Read + Mapi.CommissionPlans.Update | the plan as GET; 409 stale version; 400 an ended plan or a field's problem; audited CommissionPlanUpdated |
// | DELETE | /partners/{partnerId}/commission-plans/{planId}?version=N | Mapi.Partner.Read + Mapi.CommissionPlans.Update | 204; 409 stale version; 400 a plan that has started; audited CommissionPlanDeleted |
// | POST   | /partners/{partnerId}/declines                    | Mapi.Partner.Read + Mapi.MerchantDashboardReport.Read | the dashboard's declines + by business |
//
// Scoping: internal users (a root role) reach every partner; a partner-level role reaches its own partner; anyone
// else, and any partner that does not exist, answers 404. A plan of another partner is a 404 too. List parameters
// follow the list convention (pagenumber, pagesize, sort, filters of src/contract/partners.ts).
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { BusinessListItem } from '../../src/contract/configuration-schemas.ts';
import { addDays } from '../../src/contract/calendar-date.ts';
import { startOfLocalDate } from '../../src/contract/zoned-time.ts';
import { normalisePeriod } from '../../src/contract/dashboard-intervals.ts';
import { maxDeclineReasons } from '../../src/contract/dashboard.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type {
  CommissionPlanCreateBody,
  CommissionPlanDetail,
  CommissionPlanListItem,
  CommissionRule,
  PartnerDeclines,
  PartnerDetail,
  PartnerListItem,
} from '../../src/contract/partner-schemas.ts';
import { commissionPlanCreateBody, commissionPlanUpdateBody, partnerDeclinesRequest } from '../../src/contract/partner-schemas.ts';
import { paymentMethods } from '../../src/contract/enumerations.ts';
import {
  checkCommissionPlanEdit,
  commissionCardTypes,
  type CommissionPlanEdit,
  commissionChannels,
  commissionEditMessage,
  commissionPlanStatus,
  type CommissionCardType,
  type CommissionChannel,
  maxCommissionMonths,
  maxPartnerBusinessesBrokenDown,
  partnerBusinessListSpec,
  partnerListSpec,
} from '../../src/contract/partners.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Db } from '../db/client.ts';
import { businesses, commissionPlans, commissionRules, merchants, partners } from '../db/schema.ts';
import { commissionByMonth } from '../partners/commission-ledger.ts';
import { commissionTransactionsOfMonth } from '../partners/commission-transactions.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import type { CommissionTransactionList } from '../../src/contract/partner-schemas.ts';
import type { CommissionRuleTerms } from '../partners/commission.ts';
import { isInternal, permissionsIn, resolvePartner } from '../policy/principal.ts';
import { recordAudit } from '../audit/record.ts';
import { versionParam } from './configurations.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { declineReasons } from '../stats/read-stats.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
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

const maxIdLength = 64;

// Static SQL: the ORM renders a column inside a subquery unqualified ("id"), which would read the subquery's own.
const businessCount = sql<number>`(SELECT count(*)::int FROM businesses b WHERE b.partner_id = "partners"."id")`;
const liveBusinessCount = sql<number>`(SELECT count(*)::int FROM businesses b WHERE b.partner_id = "partners"."id" AND b.live)`;
const planCount = sql<number>`(SELECT count(*)::int FROM commission_plans p WHERE p.partner_id = "partners"."id")`;

const nameContains = (column: typeof partners.name | typeof businesses.name) => (clauses: FilterClause[]) => {
  const term = clauses[0]?.value.trim();
  return term ? sql`lower(${column}) LIKE ${`%${likeLiteral(term.toLowerCase())}%`}` : undefined;
};

export const partnerResource: ListResource = {
  spec: partnerListSpec,
  filters: { name: { type: 'custom', condition: nameContains(partners.name) }, id: { type: 'equals', column: partners.id } },
  sorts: {
    name: [
      { expression: partners.name, descending: false },
      { expression: partners.id, descending: false },
    ],
    id: [{ expression: partners.id, descending: false }],
    businesses: [
      { expression: businessCount, descending: false },
      { expression: partners.id, descending: false },
    ],
  },
};
assertResourceMatchesSpec(partnerResource);

export const partnerBusinessResource: ListResource = {
  spec: partnerBusinessListSpec,
  filters: {
    name: { type: 'custom', condition: nameContains(businesses.name) },
    id: { type: 'equals', column: businesses.id },
    live: {
      type: 'custom',
      condition: (clauses) => {
        const values = [...new Set(clauses.map((clause) => clause.value === 'true'))];
        return values.length === 1 ? eq(businesses.live, values[0] as boolean) : undefined;
      },
    },
  },
  sorts: {
    name: [
      { expression: businesses.name, descending: false },
      { expression: businesses.id, descending: false },
    ],
    id: [{ expression: businesses.id, descending: false }],
  },
};
assertResourceMatchesSpec(partnerBusinessResource);

function idParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  if (value === '' || value.length > maxIdLength) throw notFound();
  return value;
}

type PlanRow = typeof commissionPlans.$inferSelect;
type RuleRow = typeof commissionRules.$inferSelect;
const today = () => new Date().toISOString().slice(0, 10);

function toPlanItem(plan: PlanRow, ruleCount: number): CommissionPlanListItem {
  return {
    commissionPlanId: plan.id,
    partnerId: plan.partnerId,
    name: plan.name,
    validFrom: plan.validFrom,
    validTo: plan.validTo,
    status: commissionPlanStatus(plan.validFrom, plan.validTo, today()),
    ruleCount,
  };
}

export const toRuleTerms = (rule: RuleRow): CommissionRuleTerms => ({
  ruleId: rule.id,
  priority: rule.priority,
  volumeFromMinor: rule.volumeFromMinor,
  volumeToMinor: rule.volumeToMinor,
  percentageBasisPoints: rule.percentageBasisPoints,
  fixedMinor: rule.fixedMinor,
  channel: rule.channel,
  currency: rule.currency,
  paymentMethod: rule.paymentMethod,
  cardType: rule.cardType,
});

function toRuleDetail(rule: RuleRow): CommissionRule {
  return {
    ...toRuleTerms(rule),
    description: rule.description,
    channel: (commissionChannels as readonly string[]).includes(rule.channel ?? '') ? (rule.channel as CommissionChannel) : null,
    cardType: (commissionCardTypes as readonly string[]).includes(rule.cardType ?? '') ? (rule.cardType as CommissionCardType) : null,
  };
}

async function plansOf(db: Db, partnerId: string): Promise<CommissionPlanListItem[]> {
  const rows = await db
    .select({ plan: commissionPlans, rules: sql<number>`(SELECT count(*)::int FROM commission_rules r WHERE r.plan_id = "commission_plans"."id")` })
    .from(commissionPlans)
    .where(eq(commissionPlans.partnerId, partnerId))
    .orderBy(sql`${commissionPlans.validFrom} DESC`, asc(commissionPlans.id));
  return rows.map((row) => toPlanItem(row.plan, Number(row.rules)));
}

/** A plan and its rules as the audit trail records them (before and after an edit, a created or deleted plan). */
function planSummary(plan: { name: string; validFrom: string; validTo: string | null }, rules: readonly Omit<RuleRow, 'id' | 'planId'>[]) {
  return {
    name: plan.name,
    validFrom: plan.validFrom,
    validTo: plan.validTo,
    rules: rules.map(
      ({ priority, description, volumeFromMinor, volumeToMinor, percentageBasisPoints, fixedMinor, channel, currency, paymentMethod, cardType }) => ({
        priority,
        description,
        volumeFromMinor,
        volumeToMinor,
        percentageBasisPoints,
        fixedMinor,
        channel,
        currency,
        paymentMethod,
        cardType,
      }),
    ),
  };
}

/** The body's plan, trimmed, after the shared checks (400 naming each field's problem, as the form shows them). */
function checkedPlanEdit(body: CommissionPlanCreateBody): CommissionPlanEdit {
  const edit = {
    name: body.name.trim(),
    validFrom: body.validFrom,
    validTo: body.validTo,
    rules: body.rules.map((rule) => ({ ...rule, description: rule.description.trim() })),
  };
  const problems = checkCommissionPlanEdit(edit, paymentMethods);
  if (Object.keys(problems).length > 0) throw badRequest(Object.entries(problems).map(([field, message]) => commissionEditMessage(field, message)));
  return edit;
}

/**
 * The months a plan's commission is computed for: its validity up to now, at most maxCommissionMonths, as [from, to).
 * The bounds are dates (UTC midnight standing for each business's own midnight, commission-ledger.ts): the plan's
 * days, and for a plan still running the end of this month (nothing is posted after now).
 */
export function commissionWindow(validFrom: string, validTo: string | null, now: Date): { from: Date; to: Date } | null {
  const startOfMonth = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const end = validTo === null ? now : new Date(Math.min(now.getTime(), Date.parse(`${validTo}T00:00:00Z`) + 86_400_000));
  const earliest = startOfMonth(new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - (maxCommissionMonths - 1), 1)));
  const from = new Date(Math.max(Date.parse(`${validFrom}T00:00:00Z`), earliest.getTime()));
  const monthAfterNow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const to = new Date(validTo === null ? monthAfterNow : Math.min(monthAfterNow, Date.parse(`${validTo}T00:00:00Z`) + 86_400_000));
  return from < end ? { from, to } : null;
}

export function partnerRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  const { db } = database;

  /** The addressed partner (404 when out of reach or missing) and the permission asked (403). */
  async function reachPartner(c: Context<AppEnv>, ...needed: PermissionName[]) {
    const resolved = await resolvePartner(database, c.get('principal'), idParam(c, 'partnerId'));
    if (!resolved) throw notFound();
    for (const permission of needed) requirePermission(resolved.permissions, permission);
    return resolved;
  }

  routes.get('/partners', async (c) => {
    const principal = c.get('principal');
    let scope: SQL | undefined;
    if (!isInternal(principal) || !permissionsOfRoles(principal.rootRoles).has('Mapi.Partners.Read')) {
      const own = principal.partnerIds.filter((partnerId) => permissionsIn(principal, { partnerId }).has('Mapi.Partner.Read'));
      if (own.length === 0) throw forbidden();
      scope = inArray(partners.id, own);
    }
    const query = parseListRequest(singleValuedQuery(c), partnerListSpec);
    const where = and(scope, filterCondition(partnerResource, query.filters, c.get('timeZone')));
    const order = query.sort.flatMap((key) => orderByOf(orderKeysOf(partnerResource, key)));
    const [total] = await db.select({ value: count() }).from(partners).where(where);
    const rows = await db
      .select({ partner: partners, businessCount, liveBusinessCount, planCount })
      .from(partners)
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    const results: PartnerListItem[] = rows.map((row) => ({
      partnerId: row.partner.id,
      partnerName: row.partner.name,
      businessCount: Number(row.businessCount),
      liveBusinessCount: Number(row.liveBusinessCount),
      commissionPlanCount: Number(row.planCount),
      createDateTimeUtc: row.partner.createdAt.toISOString(),
    }));
    return c.json({ results, numberOfResults: total?.value ?? 0 });
  });

  routes.get('/partners/:partnerId', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read');
    const [counts] = await db
      .select({
        businesses: sql<number>`count(DISTINCT ${businesses.id})::int`,
        live: sql<number>`count(DISTINCT ${businesses.id}) FILTER (WHERE ${businesses.live})::int`,
        merchants: sql<number>`count(${merchants.id})::int`,
      })
      .from(businesses)
      .leftJoin(merchants, eq(merchants.businessId, businesses.id))
      .where(eq(businesses.partnerId, partner.id));
    const currencies = await db
      .selectDistinct({ currency: sql<string>`unnest(${merchants.currencies})` })
      .from(merchants)
      .innerJoin(businesses, eq(businesses.id, merchants.businessId))
      .where(eq(businesses.partnerId, partner.id));
    const body: PartnerDetail = {
      partnerId: partner.id,
      partnerName: partner.name,
      createDateTimeUtc: partner.createdAt.toISOString(),
      businessCount: Number(counts?.businesses ?? 0),
      liveBusinessCount: Number(counts?.live ?? 0),
      merchantCount: Number(counts?.merchants ?? 0),
      currencies: currencies.map((row) => row.currency).sort(),
      commissionPlans: await plansOf(db, partner.id),
    };
    return c.json(body);
  });

  routes.get('/partners/:partnerId/businesses', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read', 'Mapi.Business.Read');
    const query = parseListRequest(singleValuedQuery(c), partnerBusinessListSpec);
    const where = and(eq(businesses.partnerId, partner.id), filterCondition(partnerBusinessResource, query.filters, c.get('timeZone')));
    const order = query.sort.flatMap((key) => orderByOf(orderKeysOf(partnerBusinessResource, key)));
    const [total] = await db.select({ value: count() }).from(businesses).where(where);
    const rows = await db
      .select()
      .from(businesses)
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize);
    const results: BusinessListItem[] = rows.map((row) => ({
      businessId: row.id,
      businessName: row.name,
      businessUrl: row.businessUrl,
      camAutoRemittance: row.camAutoRemittance,
      live: row.live,
      partnerId: partner.id,
      partnerName: partner.name,
    }));
    return c.json({ results, numberOfResults: total?.value ?? 0 });
  });

  routes.get('/partners/:partnerId/commission-plans', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read');
    const results = await plansOf(db, partner.id);
    return c.json({ results, numberOfResults: results.length });
  });

  /** A plan with its rules and the commission earned per month, as GET and PUT answer it. */
  async function planDetail(partner: { id: string; name: string }, plan: PlanRow, permissions: ReadonlySet<PermissionName>): Promise<CommissionPlanDetail> {
    const rules = await db
      .select()
      .from(commissionRules)
      .where(eq(commissionRules.planId, plan.id))
      .orderBy(asc(commissionRules.priority), asc(commissionRules.id));
    const terms = rules.map(toRuleTerms);
    const window = commissionWindow(plan.validFrom, plan.validTo, new Date());
    const months = window ? await commissionByMonth(db, partner.id, terms, window.from, window.to) : [];
    const totals = new Map<string, { currency: string; feesMinor: number; commissionMinor: number }>();
    for (const month of months) {
      const total = totals.get(month.currency) ?? { currency: month.currency, feesMinor: 0, commissionMinor: 0 };
      total.feesMinor += month.feesMinor;
      total.commissionMinor += month.commissionMinor;
      totals.set(month.currency, total);
    }
    const item = toPlanItem(plan, rules.length);
    return {
      ...item,
      partnerName: partner.name,
      version: plan.version,
      editable: permissions.has('Mapi.CommissionPlans.Update') && item.status !== 'Ended',
      rules: rules.map(toRuleDetail),
      months: months.map(({ month, currency, volumeMinor, feesMinor, transactionCount, unmatchedCount, commissionMinor }) => ({
        month,
        currency,
        volumeMinor,
        feesMinor,
        transactionCount,
        unmatchedCount,
        commissionMinor,
      })),
      totals: [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    };
  }

  async function findPlan(partnerId: string, planId: string): Promise<PlanRow> {
    const [plan] = await db
      .select()
      .from(commissionPlans)
      .where(and(eq(commissionPlans.id, planId), eq(commissionPlans.partnerId, partnerId)));
    if (!plan) throw notFound();
    return plan;
  }

  routes.get('/partners/:partnerId/commission-plans/:planId', async (c) => {
    const { partner, permissions } = await reachPartner(c, 'Mapi.Partner.Read');
    const plan = await findPlan(partner.id, idParam(c, 'planId'));
    return c.json(await planDetail(partner, plan, permissions));
  });

  // One month's commission transaction by transaction, each its share of the plan's monthly row (the shares of a
  // month and currency sum to it): the month cut to the plan's window as the monthly rows are. Parameters: month
  // (YYYY-MM, default this UTC month), currency (three capitals, default every currency), pagenumber, pagesize.
  routes.get('/partners/:partnerId/commission-plans/:planId/transactions', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read');
    const plan = await findPlan(partner.id, idParam(c, 'planId'));
    const params = Object.fromEntries(Object.entries(singleValuedQuery(c)).map(([name, value]) => [name.toLowerCase(), value]));
    const problems: string[] = [];
    const unknown = Object.keys(params).filter((name) => !['month', 'currency', 'pagenumber', 'pagesize'].includes(name));
    if (unknown.length > 0) problems.push(...unknown.map((name) => `'${name.slice(0, 40)}' is not a parameter of this list`));
    const clock = new Date();
    const month = params.month ?? clock.toISOString().slice(0, 7);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) problems.push('month must be a month as YYYY-MM');
    const currency = params.currency ?? null;
    if (currency !== null && !/^[A-Z]{3}$/.test(currency)) problems.push('currency must be a currency code of three capital letters');
    const pageNumber = params.pagenumber === undefined ? 1 : Number(params.pagenumber);
    if (!/^\d{1,7}$/.test(params.pagenumber ?? '1') || pageNumber < 1) problems.push('pagenumber must be a whole number from 1');
    const pageSize = params.pagesize === undefined ? defaultPageSize : Number(params.pagesize);
    if (!(pageSizes as readonly number[]).includes(pageSize)) problems.push(`pagesize must be one of ${pageSizes.join(', ')}`);
    if (problems.length > 0) throw badRequest(problems);
    const rules = await db.select().from(commissionRules).where(eq(commissionRules.planId, plan.id));
    const descriptions = new Map(rules.map((rule) => [rule.id, rule.description]));
    // The same window (and clock) as the plan's monthly rows.
    const window = commissionWindow(plan.validFrom, plan.validTo, clock);
    const { rows, totals } = window
      ? await commissionTransactionsOfMonth(db, partner.id, rules.map(toRuleTerms), month, window, currency)
      : { rows: [], totals: [] };
    const page = rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
    const body: CommissionTransactionList = {
      commissionPlanId: plan.id,
      month,
      totals,
      results: page.map((row) => ({
        reference: row.reference,
        businessId: row.businessId,
        businessName: row.businessName,
        merchantId: row.merchantId,
        dateTimeUtc: row.valueAt.toISOString(),
        currency: row.currency,
        channel: row.channel,
        paymentMethod: row.paymentMethod,
        cardType: row.cardType,
        feeMinor: row.feeMinor,
        ruleId: row.ruleId,
        ruleDescription: row.ruleId ? (descriptions.get(row.ruleId) ?? null) : null,
        commissionMinor: row.commissionMinor,
      })),
      numberOfResults: rows.length,
    };
    return c.json(body);
  });

  // A new plan under the same checks as an edit. Its id follows the seed's ('CP-{partnerId}-{n}'): the next n after
  // both the partner's plans and the highest n ever issued, so a deleted plan's id (named in its audit events) is never
  // another plan's. The partner's row is locked first so two creations at once do not pick the same n.
  routes.post('/partners/:partnerId/commission-plans', async (c) => {
    const { partner, permissions } = await reachPartner(c, 'Mapi.Partner.Read', 'Mapi.CommissionPlans.Update');
    const edit = checkedPlanEdit(await readBody(c, commissionPlanCreateBody));
    const created = await db.transaction(async (tx) => {
      const [issued] = await tx.select({ last: partners.lastCommissionPlanNumber }).from(partners).where(eq(partners.id, partner.id)).for('update');
      const prefix = `CP-${partner.id}-`;
      const ids = await tx.select({ id: commissionPlans.id }).from(commissionPlans).where(eq(commissionPlans.partnerId, partner.id));
      const taken = ids.map(({ id }) => (id.startsWith(prefix) && /^\d{1,9}$/.test(id.slice(prefix.length)) ? Number(id.slice(prefix.length)) : 0));
      const number = Math.max(issued?.last ?? 0, ...taken) + 1;
      const id = `${prefix}${number}`;
      await tx.update(partners).set({ lastCommissionPlanNumber: number }).where(eq(partners.id, partner.id));
      const [row] = await tx
        .insert(commissionPlans)
        .values({ id, partnerId: partner.id, name: edit.name, validFrom: edit.validFrom, validTo: edit.validTo })
        .returning();
      if (!row) throw new Error('The commission plan was not written.');
      await tx.insert(commissionRules).values(edit.rules.map((rule) => ({ ...rule, id: `${id}-R${rule.priority}`, planId: id })));
      await recordAudit(
        tx,
        c.get('principal'),
        'CommissionPlanCreated',
        { businessId: null, merchantId: null },
        {
          partnerId: partner.id,
          commissionPlanId: id,
          version: row.version,
          plan: planSummary(row, edit.rules),
        },
      );
      return row;
    });
    return c.json(await planDetail(partner, created, permissions), 201);
  });

  // The plan and its rules are replaced as one edit under the plan's version. An ended plan is history (its months
  // may have been paid out) and is not changed; a changed plan's earlier months are recomputed with the new rules.
  routes.put('/partners/:partnerId/commission-plans/:planId', async (c) => {
    const { partner, permissions } = await reachPartner(c, 'Mapi.Partner.Read', 'Mapi.CommissionPlans.Update');
    const current = await findPlan(partner.id, idParam(c, 'planId'));
    const body = await readBody(c, commissionPlanUpdateBody);
    const edit = checkedPlanEdit(body);
    const saved = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(commissionPlans).where(eq(commissionPlans.id, current.id)).for('update');
      if (!locked || locked.version !== body.version) throw conflict();
      if (commissionPlanStatus(locked.validFrom, locked.validTo, today()) === 'Ended')
        throw badRequest('This commission plan has ended and cannot be changed.');
      const before = await tx.select().from(commissionRules).where(eq(commissionRules.planId, locked.id)).orderBy(asc(commissionRules.priority));
      const [row] = await tx
        .update(commissionPlans)
        .set({ name: edit.name, validFrom: edit.validFrom, validTo: edit.validTo, version: sql`${commissionPlans.version} + 1` })
        .where(and(eq(commissionPlans.id, locked.id), eq(commissionPlans.version, body.version)))
        .returning();
      if (!row) throw conflict();
      await tx.delete(commissionRules).where(eq(commissionRules.planId, locked.id));
      await tx.insert(commissionRules).values(edit.rules.map((rule) => ({ ...rule, id: `${locked.id}-R${rule.priority}`, planId: locked.id })));
      await recordAudit(
        tx,
        c.get('principal'),
        'CommissionPlanUpdated',
        { businessId: null, merchantId: null },
        {
          partnerId: partner.id,
          commissionPlanId: locked.id,
          version: row.version,
          before: planSummary(locked, before),
          after: planSummary(row, edit.rules),
        },
      );
      return row;
    });
    return c.json(await planDetail(partner, saved, permissions));
  });

  // Only a plan that has not started goes: once it has, months have been earned under it (and may have been paid
  // out), so it is ended by setting its last day instead. The version is the configurations' query parameter.
  routes.delete('/partners/:partnerId/commission-plans/:planId', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read', 'Mapi.CommissionPlans.Update');
    const current = await findPlan(partner.id, idParam(c, 'planId'));
    const version = versionParam(c);
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(commissionPlans).where(eq(commissionPlans.id, current.id)).for('update');
      if (!locked) throw notFound();
      if (locked.version !== version) throw conflict();
      if (commissionPlanStatus(locked.validFrom, locked.validTo, today()) !== 'Scheduled') {
        throw badRequest('This commission plan has started and cannot be deleted; end it by setting its last day instead.');
      }
      const rules = await tx.select().from(commissionRules).where(eq(commissionRules.planId, locked.id)).orderBy(asc(commissionRules.priority));
      // The rules go with the plan (ON DELETE CASCADE).
      await tx.delete(commissionPlans).where(eq(commissionPlans.id, locked.id));
      await recordAudit(
        tx,
        c.get('principal'),
        'CommissionPlanDeleted',
        { businessId: null, merchantId: null },
        {
          partnerId: partner.id,
          commissionPlanId: locked.id,
          version,
          plan: planSummary(locked, rules),
        },
      );
    });
    return c.body(null, 204);
  });

  routes.post('/partners/:partnerId/declines', async (c) => {
    const { partner } = await reachPartner(c, 'Mapi.Partner.Read', 'Mapi.MerchantDashboardReport.Read');
    const request = await readBody(c, partnerDeclinesRequest);
    const normalised = normalisePeriod('custom', request.dateRange.startDate, request.dateRange.endDate);
    if ('problems' in normalised) throw badRequest(normalised.problems);
    const { period } = normalised;
    const timeZone = c.get('timeZone');
    const start = startOfLocalDate(period.startDate, timeZone);
    const end = startOfLocalDate(addDays(period.endDate, 1), timeZone);
    const reasons = await declineReasons(db, { partnerId: partner.id }, request.currency, start, end);
    const partnerBusinesses = await db
      .select({ id: businesses.id, name: businesses.name })
      .from(businesses)
      .where(eq(businesses.partnerId, partner.id))
      .orderBy(asc(businesses.name), asc(businesses.id))
      .limit(maxPartnerBusinessesBrokenDown);
    const byBusiness = await Promise.all(
      partnerBusinesses.map(async (business) => {
        const own = await declineReasons(db, { businessId: business.id }, request.currency, start, end);
        return {
          businessId: business.id,
          businessName: business.name,
          totalCount: own.reduce((sum, entry) => sum + entry.count, 0),
          totalAmount: own.reduce((sum, entry) => sum + entry.amount, 0),
          topReason: own[0]?.reason ?? null,
        };
      }),
    );
    const body: PartnerDeclines = {
      startDate: period.startDate,
      endDate: period.endDate,
      currency: request.currency,
      totalCount: reasons.reduce((sum, entry) => sum + entry.count, 0),
      totalAmount: reasons.reduce((sum, entry) => sum + entry.amount, 0),
      reasons: reasons.slice(0, maxDeclineReasons),
      businesses: byBusiness
        .filter((entry) => entry.totalCount > 0)
        .sort((a, b) => b.totalCount - a.totalCount || b.totalAmount - a.totalAmount || (a.businessName < b.businessName ? -1 : 1)),
    };
    return c.json(body);
  });

  return routes;
}
