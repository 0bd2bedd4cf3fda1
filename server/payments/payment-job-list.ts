// The payment jobs overview's list: the scope of an addressed context and the whitelist of filters and sorts
// (paymentJobResource). The routes (server/api/payment-jobs.ts), the bulk jobs (server/bulk/areas.ts) and the report
// worker's export of payment jobs (server/reports/area-exports.ts) read from here.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FilterClause } from '../../src/contract/list-query.ts';
import { paymentJobListSpec, paymentJobTabStatuses, type PaymentJobTab } from '../../src/contract/payment-jobs.ts';
import { sqlNow } from '../clock.ts';
import { jobAmountMilliOf, paymentJobs, transactions } from '../db/schema.ts';
import { assertResourceMatchesSpec, likeLiteral, scaledBound, type ListResource } from '../http/list-sql.ts';

const j = paymentJobs;

export type PaymentJobScope =
  | { level: 'partner'; partnerId: string }
  | { level: 'business'; businessId: string }
  | { level: 'merchant'; businessId: string; merchantId: string };

export function jobScopeWhere(scope: PaymentJobScope): SQL {
  switch (scope.level) {
    case 'partner':
      return eq(j.partnerId, scope.partnerId);
    case 'business':
      return eq(j.businessId, scope.businessId);
    case 'merchant':
      return eq(j.merchantId, scope.merchantId);
  }
}

/** The job's amount in thousandths of its major unit: one scale across currencies, as transactions.amount_milli. */
const amountMilli = jobAmountMilliOf(j.amountMinor, j.currency);

function amountCondition(clauses: FilterClause[]): SQL | undefined {
  const parts: SQL[] = [];
  for (const clause of clauses) {
    const bound = scaledBound(clause.value, 3, clause.operator);
    if (bound === null) return sql`false`;
    if (bound === 'all') continue;
    const value = Number(bound);
    parts.push(
      clause.operator === 'eq' ? sql`${amountMilli} = ${value}` : clause.operator === 'gte' ? sql`${amountMilli} >= ${value}` : sql`${amountMilli} <= ${value}`,
    );
  }
  return parts.length === 0 ? undefined : and(...parts);
}

/** Jobs with a payment matching a condition on transactions (indexed there: method, email prefix). */
const jobsWithPayment = (condition: SQL) =>
  inArray(j.reference, sql`(SELECT ${transactions.paymentJobReference} FROM ${transactions} WHERE ${transactions.kind} = 'payment' AND ${condition})`);

/**
 * The status tabs (src/contract/payment-jobs.ts): open is waiting or verified and not past its expiry (the app clock);
 * paid and refunded split the paid jobs by whether any refund of theirs completed (a refund transaction 'paid').
 */
const hasCompletedRefund = sql`EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.paymentJobReference} = ${j.reference} AND ${transactions.kind} = 'refund' AND ${transactions.status} = 'paid')`;
export function tabCondition(tab: PaymentJobTab): SQL {
  const statuses = inArray(j.status, [...paymentJobTabStatuses[tab]]);
  switch (tab) {
    case 'open':
      return and(statuses, sql`(${j.expirationDateTimeUtc} IS NULL OR ${j.expirationDateTimeUtc} > ${sqlNow()})`) as SQL;
    case 'paid':
      return and(statuses, sql`NOT ${hasCompletedRefund}`) as SQL;
    case 'refunded':
      return and(statuses, hasCompletedRefund) as SQL;
    default:
      return statuses;
  }
}

export const paymentJobResource: ListResource = {
  spec: paymentJobListSpec,
  filters: {
    reference: { type: 'equals', column: j.reference, normalise: (value) => value.toUpperCase() },
    ordernumber: { type: 'equals', column: j.orderNumber },
    status: { type: 'equals', column: j.status },
    email: {
      type: 'custom',
      condition: (clauses) => {
        const term = clauses
          .find((clause) => clause.operator === 'eq')
          ?.value.trim()
          .toLowerCase();
        return term ? jobsWithPayment(sql`lower(${transactions.customerEmail}) LIKE ${`${likeLiteral(term)}%`}`) : undefined;
      },
    },
    amount: { type: 'custom', condition: (clauses) => amountCondition(clauses) },
    createdatetimeutc: { type: 'date', column: j.createDateTimeUtc },
    configurationid: { type: 'equals', column: j.configurationId },
    paymentmethod: {
      type: 'custom',
      condition: (clauses) => {
        const values = clauses.filter((clause) => clause.operator === 'eq').map((clause) => clause.value);
        return values.length === 0 ? undefined : jobsWithPayment(inArray(transactions.paymentMethod, values));
      },
    },
    tab: {
      type: 'custom',
      condition: (clauses) => {
        const tabs = [...new Set(clauses.filter((clause) => clause.operator === 'eq').map((clause) => clause.value as PaymentJobTab))];
        return tabs.length === 0 ? undefined : or(...tabs.map(tabCondition));
      },
    },
  },
  sorts: {
    createDateTimeUtc: [
      { expression: j.createDateTimeUtc, descending: false },
      { expression: j.reference, descending: false },
    ],
    amount: [
      { expression: amountMilli, descending: false },
      { expression: j.reference, descending: false },
    ],
    status: [
      { expression: j.status, descending: false },
      { expression: j.createDateTimeUtc, descending: true },
      { expression: j.reference, descending: false },
    ],
    reference: [{ expression: j.reference, descending: false }],
    orderNumber: [
      { expression: j.orderNumber, descending: false },
      { expression: j.reference, descending: false },
    ],
  },
};
assertResourceMatchesSpec(paymentJobResource);
