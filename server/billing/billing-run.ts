// The monthly billing run: what each business owes for a month, read from the ledger, and the issuing of
// its invoices. The ledger is the one source, and an invoice charges exactly what the month put on the merchants'
// invoice accounts: the fees of gross-settled payments (fee posting invoice −F, costs +F) and the monthly
// minimum top-up (minimumFee posting invoice −S, costs +S: the plan's monthly minimum less the month's fees, every
// fee counted, never below zero; close-batches.ts postMonthlyMinimums). A net-settled payment's fee was deducted from
// the payout (trading −F) and is not invoiced a second time. Issuing a run first posts any top-up the settlement job
// has not posted yet (idempotent), so what an invoice says and what the ledger holds are equal to the cent
// (property-tested). Paying an invoice and crediting it clear the invoice accounts again (ledger/invoice-postings.ts).
//
// One invoice per business and currency; lines per merchant and payment method (transaction count, sales volume,
// fees) plus one top-up line per merchant account group that fell short of its minimum. No VAT: payment processing
// is an exempt financial service (README Decisions).
import { randomBytes } from 'node:crypto';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { invoiceNumberOf, invoiceSeries, paymentTermDays } from '../../src/contract/billing.ts';
import type { InvoiceLine } from '../../src/contract/billing-schemas.ts';
import { paymentMethodLabels, type PaymentMethod } from '../../src/contract/configurations.ts';
import { merchantAccountNumber } from '../../src/contract/ledger.ts';
import {
  billingRuns,
  businesses,
  invoiceCounters,
  invoices,
  ledgerAccounts,
  ledgerEntries,
  ledgerPostings,
  merchantAccountGroups,
  merchants,
  pricingPlans,
  transactions,
} from '../db/schema.ts';
import { postMonthlyMinimums, proratedMonthlyMinimum } from '../ledger/close-batches.ts';
import { businessTimeZones, defaultBusinessTimeZone, monthBoundsIn, monthEnvelope } from '../ledger/periods.ts';
import type { DbWriter } from '../db/client.ts';

export type DraftInvoice = {
  businessId: string;
  businessName: string;
  currency: string;
  lines: InvoiceLine[];
  feesMinor: number;
  minimumTopUpMinor: number;
  totalMinor: number;
};

const e = ledgerEntries;
export const newBillingId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;
/** The posting id close-batches.ts gives a month's top-up of an account group. */
export const minimumPostingId = (accountNumber: string, month: string) => `minimumFee:${accountNumber}:${month.replace('-', '')}`;

/** 'someNewMethod' → 'some new method': readable without the client's label table. */
/** A payment method by its proper name ('PayPal', 'Klarna Slice It', 'Google Pay'), as every screen names it. */
const methodWords = (method: string) => paymentMethodLabels[method as PaymentMethod] ?? method.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Money of a line: a fee line's amount is its fees; a top-up line's is its top-up. */
export function feeLine(
  merchantId: string,
  merchantName: string,
  paymentMethod: string,
  transactionCount: number,
  volumeMinor: number,
  feesMinor: number,
): InvoiceLine {
  return {
    merchantId,
    merchantName,
    paymentMethod,
    description: `Transaction fees, ${methodWords(paymentMethod)}`,
    transactionCount,
    volumeMinor,
    feesMinor,
    minimumTopUpMinor: 0,
    amountMinor: feesMinor,
  };
}
export function topUpLine(merchantId: string, merchantName: string, minimumMinor: number, topUpMinor: number): InvoiceLine {
  return {
    merchantId,
    merchantName,
    paymentMethod: null,
    description: `Monthly minimum top-up (minimum ${minimumMinor} minor units)`,
    transactionCount: 0,
    volumeMinor: 0,
    feesMinor: 0,
    minimumTopUpMinor: topUpMinor,
    amountMinor: topUpMinor,
  };
}

/**
 * The fee account a sale's fee was taken from: 'invoice' (gross settlement: invoiced), 'trading' (net settlement:
 * deducted from the payout) or null (no fee posted). Read per sale from its fee posting, so a merchant whose
 * settlement changed within the month is billed by what the ledger did with each payment.
 */
const feeTakenFrom = sql<string | null>`(SELECT fa.kind FROM ledger_postings fp
  JOIN ledger_entries fe ON fe.posting_id = fp.id AND fe.amount_minor < 0 AND fe.category = 'fee'
  JOIN ledger_accounts fa ON fa.id = fe.account_id
  WHERE fp.transaction_reference = ${ledgerPostings.transactionReference} AND fp.category = 'fee' LIMIT 1)`;

/**
 * The month's invoices as they would be issued now, read from the ledger (nothing written). An invoice charges what
 * the month put on the merchants' invoice accounts and nothing else: the fees of gross-settled payments (invoice −F)
 * and the monthly minimum top-ups. A net-settled payment's fee was deducted from the payout (trading −F) and is
 * never invoiced again; its sales are not listed either.
 */
export async function draftInvoices(reader: DbWriter, month: string): Promise<DraftInvoice[]> {
  // The month of each business is its own (its time zone, ledger/periods.ts): read within the widest month any zone
  // has, then cut exactly at the business's midnights.
  const { start, end } = monthEnvelope(month);
  const method = sql<string>`coalesce(${transactions.paymentMethod}, 'card')`;
  const inMonth = and(
    gte(ledgerPostings.valueAt, start),
    lt(ledgerPostings.valueAt, end),
    sql`to_char(${ledgerPostings.valueAt} AT TIME ZONE (SELECT z.time_zone FROM businesses z WHERE z.id = ${ledgerPostings.businessId}), 'YYYY-MM') = ${month}`,
  );
  // Fees: the costs side is every fee charged (the minimum's measure); the invoice side is what was invoiced.
  const feeSums = await reader
    .select({
      businessId: e.businessId,
      merchantId: sql<string>`${e.merchantId}`,
      currency: e.currency,
      paymentMethod: method,
      accountKind: ledgerAccounts.kind,
      total: sql<string>`sum(${e.amountMinor})`,
    })
    .from(ledgerPostings)
    .innerJoin(e, eq(e.postingId, ledgerPostings.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, e.accountId))
    .leftJoin(transactions, eq(transactions.reference, ledgerPostings.transactionReference))
    .where(and(eq(ledgerPostings.category, 'fee'), inMonth, eq(e.category, 'fee'), inArray(ledgerAccounts.kind, ['costs', 'invoice'])))
    .groupBy(e.businessId, e.merchantId, e.currency, method, ledgerAccounts.kind);
  const saleRows = reader
    .select({
      businessId: e.businessId,
      merchantId: sql<string>`${e.merchantId}`.as('sale_merchant_id'),
      currency: e.currency,
      paymentMethod: method.as('sale_payment_method'),
      amount: e.amountMinor,
      feeFrom: feeTakenFrom.as('fee_from'),
    })
    .from(ledgerPostings)
    .innerJoin(e, eq(e.postingId, ledgerPostings.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, e.accountId))
    .leftJoin(transactions, eq(transactions.reference, ledgerPostings.transactionReference))
    .where(and(eq(ledgerPostings.category, 'sale'), inMonth, eq(e.category, 'sale'), eq(ledgerAccounts.kind, 'trading')))
    .as('sale_rows');
  const saleSums = await reader
    .select({
      businessId: saleRows.businessId,
      merchantId: saleRows.merchantId,
      currency: saleRows.currency,
      paymentMethod: saleRows.paymentMethod,
      feeFrom: saleRows.feeFrom,
      count: sql<string>`count(*)`,
      total: sql<string>`sum(${saleRows.amount})`,
    })
    .from(saleRows)
    .groupBy(saleRows.businessId, saleRows.merchantId, saleRows.currency, saleRows.paymentMethod, saleRows.feeFrom);

  // Top-ups: plans with a minimum in force in the month, on account groups that exist (as close-batches.ts).
  const plans = await reader
    .select({
      merchantId: pricingPlans.merchantId,
      businessId: pricingPlans.businessId,
      currency: pricingPlans.currency,
      minimum: pricingPlans.monthlyMinimumMinor,
      validFrom: pricingPlans.validFrom,
    })
    .from(pricingPlans)
    .innerJoin(
      merchantAccountGroups,
      and(eq(merchantAccountGroups.merchantId, pricingPlans.merchantId), eq(merchantAccountGroups.currency, pricingPlans.currency)),
    )
    .where(and(sql`${pricingPlans.monthlyMinimumMinor} > 0`, lt(pricingPlans.validFrom, end)));
  const postingIds = plans.map((plan) => minimumPostingId(merchantAccountNumber(plan.merchantId, plan.currency), month));
  const posted =
    postingIds.length === 0
      ? []
      : await reader
          .select({ postingId: e.postingId, amount: e.amountMinor })
          .from(e)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, e.accountId))
          .where(and(inArray(e.postingId, postingIds), eq(ledgerAccounts.kind, 'costs')));
  const postedAmount = new Map(posted.map((row) => [row.postingId, Number(row.amount)]));
  const zones = await businessTimeZones(
    reader,
    plans.map((plan) => plan.businessId),
  );

  const allMerchantIds = [...new Set([...feeSums, ...saleSums, ...plans].map((row) => row.merchantId))];
  const merchantRows =
    allMerchantIds.length === 0
      ? []
      : await reader
          .select({ id: merchants.id, name: merchants.name, grossSettlement: merchants.grossSettlement })
          .from(merchants)
          .where(inArray(merchants.id, allMerchantIds));
  const merchantName = new Map(merchantRows.map((row) => [row.id, row.name]));
  const grossSettled = new Set(merchantRows.filter((row) => row.grossSettlement).map((row) => row.id));

  type Line = { merchantId: string; paymentMethod: string; count: number; volume: number; fees: number };
  const groups = new Map<
    string,
    { businessId: string; currency: string; lines: Map<string, Line>; topUps: { merchantId: string; minimum: number; topUp: number }[] }
  >();
  const groupOf = (businessId: string, currency: string) => {
    const key = `${businessId}\u0000${currency}`;
    let group = groups.get(key);
    if (!group) {
      group = { businessId, currency, lines: new Map(), topUps: [] };
      groups.set(key, group);
    }
    return group;
  };
  const lineOf = (row: { businessId: string; merchantId: string; currency: string; paymentMethod: string }) => {
    const group = groupOf(row.businessId, row.currency);
    const key = `${row.merchantId}\u0000${row.paymentMethod}`;
    const line = group.lines.get(key) ?? { merchantId: row.merchantId, paymentMethod: row.paymentMethod, count: 0, volume: 0, fees: 0 };
    group.lines.set(key, line);
    return line;
  };
  // A sale is listed when its fee was invoiced, or when it carried no fee and the merchant settles gross.
  for (const row of saleSums) {
    if (!(row.feeFrom === 'invoice' || (row.feeFrom === null && grossSettled.has(row.merchantId)))) continue;
    const line = lineOf(row);
    line.count += Number(row.count);
    line.volume += Number(row.total);
  }
  const allFees = new Map<string, number>();
  for (const row of feeSums) {
    if (row.accountKind === 'invoice') {
      lineOf(row).fees -= Number(row.total);
    } else {
      const key = `${row.merchantId}\u0000${row.currency}`;
      allFees.set(key, (allFees.get(key) ?? 0) + Number(row.total));
    }
  }
  plans.forEach((plan, index) => {
    const postingId = postingIds[index] as string;
    // The minimum in force for the month: a plan starting mid-month owes its share (as postMonthlyMinimums posts it).
    const zone = zones.get(plan.businessId) ?? defaultBusinessTimeZone;
    const minimum = proratedMonthlyMinimum(plan.minimum, plan.validFrom, monthBoundsIn(month, zone).start, zone);
    const topUp = postedAmount.get(postingId) ?? Math.max(0, minimum - (allFees.get(`${plan.merchantId}\u0000${plan.currency}`) ?? 0));
    if (topUp > 0) groupOf(plan.businessId, plan.currency).topUps.push({ merchantId: plan.merchantId, minimum, topUp });
  });
  if (groups.size === 0) return [];

  const businessIds = [...new Set([...groups.values()].map((group) => group.businessId))];
  const businessRows = await reader.select({ id: businesses.id, name: businesses.name }).from(businesses).where(inArray(businesses.id, businessIds));
  const businessName = new Map(businessRows.map((row) => [row.id, row.name]));

  const drafts: DraftInvoice[] = [];
  for (const group of groups.values()) {
    const lines = [...group.lines.values()]
      .filter((line) => line.count > 0 || line.fees !== 0)
      .map((line) => feeLine(line.merchantId, merchantName.get(line.merchantId) ?? line.merchantId, line.paymentMethod, line.count, line.volume, line.fees));
    lines.push(...group.topUps.map((topUp) => topUpLine(topUp.merchantId, merchantName.get(topUp.merchantId) ?? topUp.merchantId, topUp.minimum, topUp.topUp)));
    lines.sort(
      (a, b) =>
        a.merchantName.localeCompare(b.merchantName, 'en-GB') ||
        a.merchantId.localeCompare(b.merchantId) ||
        (a.paymentMethod === null ? 1 : 0) - (b.paymentMethod === null ? 1 : 0) ||
        (a.paymentMethod ?? '').localeCompare(b.paymentMethod ?? ''),
    );
    const feesMinor = lines.reduce((total, line) => total + line.feesMinor, 0);
    const minimumTopUpMinor = lines.reduce((total, line) => total + line.minimumTopUpMinor, 0);
    if (feesMinor + minimumTopUpMinor === 0) continue;
    drafts.push({
      businessId: group.businessId,
      businessName: businessName.get(group.businessId) ?? group.businessId,
      currency: group.currency,
      lines,
      feesMinor,
      minimumTopUpMinor,
      totalMinor: feesMinor + minimumTopUpMinor,
    });
  }
  return drafts.sort(
    (a, b) => a.businessName.localeCompare(b.businessName, 'en-GB') || a.businessId.localeCompare(b.businessId) || a.currency.localeCompare(b.currency),
  );
}

/**
 * Takes `count` consecutive numbers of a series in the caller's transaction: the counter row stays locked until it
 * commits, so concurrent issuers queue and a rolled-back one gives its numbers back (no gaps, no repeats).
 */
export async function takeNumbers(writer: DbWriter, series: string, year: number, count: number): Promise<string[]> {
  if (count === 0) return [];
  await writer.insert(invoiceCounters).values({ series, year, last: 0 }).onConflictDoNothing();
  const [row] = await writer
    .update(invoiceCounters)
    .set({ last: sql`${invoiceCounters.last} + ${count}` })
    .where(and(eq(invoiceCounters.series, series), eq(invoiceCounters.year, year)))
    .returning({ last: invoiceCounters.last });
  if (!row) throw new Error('invoice counter row missing');
  return Array.from({ length: count }, (_, index) => invoiceNumberOf(series, year, row.last - count + 1 + index));
}

export type IssuedRun = { run: typeof billingRuns.$inferSelect; issued: (typeof invoices.$inferSelect)[] };

/**
 * Issues the month's invoices in the caller's transaction; null when the month has a run already (the unique month
 * refuses the second, also when two start together: the later insert waits for the first to commit).
 */
export async function issueBillingRun(
  writer: DbWriter,
  month: string,
  userId: string,
  now: Date,
  newId: (prefix: string) => string = newBillingId,
): Promise<IssuedRun | null> {
  const [run] = await writer
    .insert(billingRuns)
    .values({ id: newId('BR'), month, createdBy: userId, createdUtc: now, invoiceCount: 0 })
    .onConflictDoNothing()
    .returning();
  if (!run) return null;
  // The month has ended in every zone by its envelope's end; only this month's top-ups are posted.
  await postMonthlyMinimums(writer, monthEnvelope(month).end, { fromMonth: month, toMonth: month });
  const drafts = await draftInvoices(writer, month);
  const year = now.getUTCFullYear();
  const numbers = await takeNumbers(writer, invoiceSeries.invoice, year, drafts.length);
  const dueUtc = new Date(now.getTime() + paymentTermDays * 86_400_000);
  const rows = drafts.map((draft, index) => ({
    id: newId('INV'),
    number: numbers[index] as string,
    kind: 'invoice' as const,
    runId: run.id,
    month,
    businessId: draft.businessId,
    currency: draft.currency,
    status: 'issued' as const,
    issuedUtc: now,
    dueUtc,
    paidUtc: null,
    feesMinor: draft.feesMinor,
    minimumTopUpMinor: draft.minimumTopUpMinor,
    totalMinor: draft.totalMinor,
    lines: draft.lines,
    creditedInvoiceId: null,
    reason: null,
    createdBy: userId,
  }));
  const issued: (typeof invoices.$inferSelect)[] = [];
  for (let index = 0; index < rows.length; index += 200)
    issued.push(
      ...(await writer
        .insert(invoices)
        .values(rows.slice(index, index + 200))
        .returning()),
    );
  const [saved] = await writer.update(billingRuns).set({ invoiceCount: issued.length }).where(eq(billingRuns.id, run.id)).returning();
  return { run: saved ?? run, issued: issued.sort((a, b) => (a.number < b.number ? -1 : 1)) };
}
