// Property: for generated ledgers, a billing run's invoices hold exactly the month's fee entries
// on the invoice accounts (the gross-settled payments' fees; a net-settled payment's fee was deducted from the payout
// and is never invoiced again), plus the minimum top-up the rule gives (the plan's monthly minimum, prorated by the
// days in force when the plan starts mid-month, less the month's fees of the merchant account group, every fee
// counted, never below zero), which the run also leaves posted in the
// ledger. Each generated ledger is written
// and billed in one transaction that is rolled back, so the cases share one database.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBillingRun } from '../../../server/billing/billing-run.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { calendarDate } from '../../../src/contract/calendar-date.ts';
import { createTestDatabase, insertFixtureWorld } from '../support.ts';
import { insertLedgerSales, type LedgerSale } from '../api/billing-fixtures.ts';

const merchantsOf = [
  { businessId: 'B1', merchantId: 'M1a', currency: 'GBP' },
  { businessId: 'B1', merchantId: 'M1a', currency: 'EUR' },
  { businessId: 'B1', merchantId: 'M1b', currency: 'GBP' },
  { businessId: 'B2', merchantId: 'M2a', currency: 'EUR' },
  { businessId: 'B3', merchantId: 'M3a', currency: 'GBP' },
  { businessId: 'B3', merchantId: 'M3b', currency: 'JPY' },
] as const;
const month = '2026-10';
// The fixture's businesses keep the default zone, Europe/London: their October runs from midnight on 1 October in
// summer time (23:00 UTC on 30 September) to midnight on 1 November in winter time, 745 hours (25 October has 25).
const zone = 'Europe/London';
const start = new Date('2026-09-30T23:00:00Z');
const end = new Date('2026-11-01T00:00:00Z');
const monthMinutes = (end.getTime() - start.getTime()) / 60_000;

const saleArbitrary = fc.record({
  group: fc.integer({ min: 0, max: merchantsOf.length - 1 }),
  paymentMethod: fc.constantFrom('card', 'applePay', 'ideal', 'payPal'),
  amountMinor: fc.integer({ min: 1, max: 500_000 }),
  feeMinor: fc.integer({ min: 0, max: 5_000 }),
  // From mid-September to mid-November, edges included.
  offsetMinutes: fc.oneof(fc.integer({ min: -20 * 1440, max: 45 * 1440 }), fc.constantFrom(-1, 0, monthMinutes - 1, monthMinutes)),
  gross: fc.boolean(),
});
const planArbitrary = fc.record({
  group: fc.integer({ min: 0, max: merchantsOf.length - 1 }),
  minimumMinor: fc.integer({ min: 0, max: 20_000 }),
  validFromDays: fc.integer({ min: -90, max: 40 }),
});

class Rollback extends Error {}

describe('billing reconciles to the ledger', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
  });
  afterAll(async () => database?.close());

  it("invoice fees equal the month's invoiced fee entries and never a deducted fee; top-ups follow the minimum rule, per business and currency", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(saleArbitrary, { maxLength: 25 }),
        fc.uniqueArray(planArbitrary, { maxLength: 4, selector: (plan) => plan.group }),
        async (saleDrafts, plans) => {
          const sales: LedgerSale[] = saleDrafts.map((draft, index) => {
            const group = merchantsOf[draft.group] as (typeof merchantsOf)[number];
            return {
              reference: `RP${index}`,
              ...group,
              paymentMethod: draft.paymentMethod,
              amountMinor: draft.amountMinor,
              feeMinor: draft.feeMinor,
              at: new Date(start.getTime() + draft.offsetMinutes * 60_000),
              grossSettlement: draft.gross,
            };
          });
          await database.db
            .transaction(async (tx) => {
              await insertLedgerSales(tx, sales);
              for (const plan of plans) {
                const group = merchantsOf[plan.group] as (typeof merchantsOf)[number];
                await tx.insert(schema.pricingPlans).values({
                  merchantId: group.merchantId,
                  businessId: group.businessId,
                  currency: group.currency,
                  name: 'Plan',
                  monthlyMinimumMinor: plan.minimumMinor,
                  validFrom: new Date(start.getTime() + plan.validFromDays * 86_400_000),
                });
              }
              const issued = await issueBillingRun(tx, month, 'u-admin', new Date('2026-11-20T00:00:00Z'));
              if (!issued) throw new Error('the run was refused');

              // The ledger's side, read independently: fee entries on invoice accounts valued in the month.
              const ledgerFees = await tx
                .select({
                  businessId: schema.ledgerEntries.businessId,
                  currency: schema.ledgerEntries.currency,
                  total: sql<string>`-sum(${schema.ledgerEntries.amountMinor})`,
                })
                .from(schema.ledgerEntries)
                .innerJoin(schema.ledgerAccounts, eq(schema.ledgerAccounts.id, schema.ledgerEntries.accountId))
                .where(
                  and(
                    eq(schema.ledgerEntries.category, 'fee'),
                    eq(schema.ledgerAccounts.kind, 'invoice'),
                    gte(schema.ledgerEntries.valueAt, start),
                    lt(schema.ledgerEntries.valueAt, end),
                  ),
                )
                .groupBy(schema.ledgerEntries.businessId, schema.ledgerEntries.currency);
              const postedTopUps = await tx
                .select({
                  businessId: schema.ledgerEntries.businessId,
                  currency: schema.ledgerEntries.currency,
                  total: sql<string>`sum(${schema.ledgerEntries.amountMinor})`,
                })
                .from(schema.ledgerEntries)
                .innerJoin(schema.ledgerAccounts, eq(schema.ledgerAccounts.id, schema.ledgerEntries.accountId))
                .where(
                  and(
                    eq(schema.ledgerEntries.category, 'minimumFee'),
                    eq(schema.ledgerAccounts.kind, 'costs'),
                    sql`${schema.ledgerEntries.postingId} LIKE 'minimumFee:%:202610'`,
                  ),
                )
                .groupBy(schema.ledgerEntries.businessId, schema.ledgerEntries.currency);

              // The rule's side, from the generated data alone.
              const inMonth = sales.filter((sale) => sale.at >= start && sale.at < end);
              const expectedTopUp = new Map<string, number>();
              for (const plan of plans) {
                const group = merchantsOf[plan.group] as (typeof merchantsOf)[number];
                const validFrom = new Date(start.getTime() + plan.validFromDays * 86_400_000);
                const hasGroup = sales.some((sale) => sale.merchantId === group.merchantId && sale.currency === group.currency);
                if (validFrom >= end || !hasGroup) continue;
                const fees = inMonth
                  .filter((sale) => sale.merchantId === group.merchantId && sale.currency === group.currency)
                  .reduce((sum, sale) => sum + sale.feeMinor, 0);
                // A plan starting in October owes the share of October's 31 days from its start day, rounded half up.
                const daysInForce = validFrom <= start ? 31 : 31 - (Number(calendarDate(validFrom, zone).slice(8, 10)) - 1);
                const minimum = Math.floor((plan.minimumMinor * daysInForce * 2 + 31) / 62);
                const key = `${group.businessId}/${group.currency}`;
                expectedTopUp.set(key, (expectedTopUp.get(key) ?? 0) + Math.max(0, minimum - fees));
              }

              // Invoiced fees: the month's gross-settled sales' fees, nothing of a net-settled one.
              const expectedFees = new Map<string, number>();
              for (const sale of inMonth.filter((candidate) => candidate.grossSettlement)) {
                const key = `${sale.businessId}/${sale.currency}`;
                expectedFees.set(key, (expectedFees.get(key) ?? 0) + sale.feeMinor);
              }

              const keyed = <T extends { businessId: string; currency: string }>(rows: T[], value: (row: T) => number) =>
                Object.fromEntries(rows.map((row) => [`${row.businessId}/${row.currency}`, value(row)]).filter(([, amount]) => amount !== 0));
              expect(keyed(issued.issued, (row) => row.feesMinor)).toEqual(keyed(ledgerFees, (row) => Number(row.total)));
              expect(keyed(issued.issued, (row) => row.feesMinor)).toEqual(Object.fromEntries([...expectedFees].filter(([, amount]) => amount !== 0)));
              // Listed volumes are the gross-settled sales' (a zero-fee sale is listed when its merchant settles gross).
              // (Only where an invoice was issued: a month of zero-fee sales alone charges nothing.)
              const grossMerchants = new Set(['M1b']);
              const invoiced = new Set(issued.issued.map((invoice) => `${invoice.businessId}/${invoice.currency}`));
              const expectedVolume = inMonth
                .filter(
                  (sale) =>
                    invoiced.has(`${sale.businessId}/${sale.currency}`) && (sale.feeMinor !== 0 ? sale.grossSettlement : grossMerchants.has(sale.merchantId)),
                )
                .reduce((sum, sale) => sum + sale.amountMinor, 0);
              expect(issued.issued.flatMap((invoice) => invoice.lines).reduce((sum, line) => sum + line.volumeMinor, 0)).toBe(expectedVolume);
              expect(keyed(issued.issued, (row) => row.minimumTopUpMinor)).toEqual(Object.fromEntries([...expectedTopUp].filter(([, amount]) => amount !== 0)));
              expect(keyed(issued.issued, (row) => row.minimumTopUpMinor)).toEqual(keyed(postedTopUps, (row) => Number(row.total)));
              for (const invoice of issued.issued) {
                expect(invoice.totalMinor).toBe(invoice.feesMinor + invoice.minimumTopUpMinor);
                expect(invoice.lines.reduce((sum, line) => sum + line.amountMinor, 0)).toBe(invoice.totalMinor);
              }
              expect(issued.issued.map((invoice) => Number(invoice.number.slice(-6)))).toEqual(issued.issued.map((_, index) => index + 1));
              throw new Rollback();
            })
            .catch((error: unknown) => {
              if (!(error instanceof Rollback)) throw error;
            });
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
