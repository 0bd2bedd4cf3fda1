// Properties of the settlement ledger. Pure: every posting a change implies balances, and the fee is the plan's.
// Against a database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), after random payment operations: payments
// posted through the write path (some of them twice), authorisations captured in parts, voided, refunded and charged
// back through the one door (server/payments/), then the cut-off: for every payment the ledger credited what was
// captured less refunded and charged back, with the plan's fee on each capture; every posting sums to zero;
// a statement's closing balance is its opening plus its movements for any period; the batches' sales less refunds and
// reversals equal the settled transactions; every closed batch leaves the trading account at zero; every day checkpoint
// is the sum of its entries, and a statement read from them is the one the entries alone give; posting a change again
// changes nothing.
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { closeDueBatches } from '../../../server/ledger/close-batches.ts';
import { groupAccountId, postingsOfChange, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { advanceRefund, capturePayment, recordChargeback, refundPayment, voidPayment } from '../../../server/payments/payment-operations.ts';
import { loadJobState } from '../../../server/payments/payment-state.ts';
import { capturableMinor, refundableMinor } from '../../../src/contract/payment-jobs.ts';
import { currencyExponent } from '../../../src/contract/transactions.ts';
import { dailyBalanceDiscrepancies } from '../../../server/ledger/daily-balances.ts';
import { readStatement, readStatementFromEntries, type StatementRequest } from '../../../server/ledger/statement.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions, updateTransaction } from '../transaction-writers.ts';
import type { StatsTransaction } from '../../../server/stats/definition.ts';
import { defaultRate, feeOf, merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';

const statuses = ['paid', 'pending', 'declined', 'cancelled', 'failed'] as const;
const side = fc.record({
  reference: fc.constantFrom('T1', 'T2'),
  kind: fc.constantFrom('payment', 'refund', 'capture') as fc.Arbitrary<StatsTransaction['kind']>,
  parentReference: fc.constant('T0'),
  status: fc.constantFrom(...statuses) as fc.Arbitrary<string>,
  amountMinor: fc.integer({ min: 1, max: 50_000_000 }),
  currency: fc.constantFrom('GBP', 'EUR', 'JPY'),
  createdAt: fc.date({ min: new Date('2025-01-01'), max: new Date('2026-12-31'), noInvalidDate: true }),
  merchantId: fc.constant('M1a'),
  businessId: fc.constant('B1'),
  partnerId: fc.constant(null),
  declineReason: fc.constant(null),
});

describe('postings of one change', () => {
  it("always balance, and a sale's fee is the plan's percentage plus fixed part", () => {
    fc.assert(
      fc.property(
        fc.option(side, { nil: null }),
        side,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 100 }),
        (before, after, gross, capturedInParts, parentSalePosted, points, fixed) => {
          const rate = { percentageBasisPoints: points, fixedMinor: fixed };
          const postings = postingsOfChange(
            { before: before ? { ...before, kind: after.kind, reference: after.reference } : null, after },
            { now: new Date('2026-10-14T08:00:00Z'), grossSettlement: gross, paymentMethod: 'card', capturedInParts, parentSalePosted, rate },
          );
          for (const posting of postings) expect(posting.entries.reduce((sum, entry) => sum + entry.amountMinor, 0)).toBe(0);
          expect(new Set(postings.map((posting) => posting.id)).size).toBe(postings.length);
          const fee = postings.find((posting) => posting.category === 'fee');
          if (fee) expect(fee.batchDelta.feesMinor).toBe(feeOf(after.amountMinor, rate));
          if ((before?.status === 'paid') === (after.status === 'paid')) expect(postings).toEqual([]);
          // A payment captured in parts is credited by its captures; a capture credits what it captured, once.
          if (after.kind === 'payment' && capturedInParts) expect(postings).toEqual([]);
          if (after.kind === 'capture' && parentSalePosted) expect(postings).toEqual([]);
          const sale = postings.find((posting) => posting.category === 'sale');
          if (sale) expect(sale).toMatchObject({ id: `sale:${after.reference}`, batchDelta: { salesMinor: after.amountMinor } });
        },
      ),
    );
  });
});

type Operation =
  | { op: 'pay'; merchant: 0 | 1 | 2; amountMinor: number; day: number; hour: number; method: 'card' | 'ideal'; pending: boolean }
  | { op: 'authorise'; merchant: 0 | 1 | 2; amountMinor: number; day: number; hour: number }
  | { op: 'capture'; of: number; share: number; day: number }
  | { op: 'void'; of: number }
  | { op: 'refund'; of: number; share: number; day: number }
  | { op: 'chargeback'; of: number; share: number; day: number }
  | { op: 'settle'; of: number }
  | { op: 'reverse'; of: number }
  | { op: 'replay'; of: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    op: fc.constant('pay' as const),
    merchant: fc.constantFrom(0 as const, 1 as const, 2 as const),
    amountMinor: fc.integer({ min: 1, max: 2_000_000 }),
    day: fc.integer({ min: 1, max: 12 }),
    hour: fc.integer({ min: 0, max: 23 }),
    method: fc.constantFrom('card' as const, 'ideal' as const),
    pending: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('authorise' as const),
    merchant: fc.constantFrom(0 as const, 1 as const, 2 as const),
    amountMinor: fc.integer({ min: 1, max: 2_000_000 }),
    day: fc.integer({ min: 1, max: 12 }),
    hour: fc.integer({ min: 0, max: 23 }),
  }),
  // Captures of 1 % to all of what is left, the smallest being one minor unit.
  fc.record({
    op: fc.constant('capture' as const),
    of: fc.nat(40),
    share: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(0)),
    day: fc.integer({ min: 1, max: 14 }),
  }),
  fc.record({ op: fc.constant('void' as const), of: fc.nat(40) }),
  fc.record({ op: fc.constant('refund' as const), of: fc.nat(40), share: fc.integer({ min: 1, max: 100 }), day: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ op: fc.constant('chargeback' as const), of: fc.nat(40), share: fc.integer({ min: 1, max: 100 }), day: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ op: fc.constant('settle' as const), of: fc.nat(40) }),
  fc.record({ op: fc.constant('reverse' as const), of: fc.nat(40) }),
  fc.record({ op: fc.constant('replay' as const), of: fc.nat(40) }),
);
const merchantsOf = [
  { merchantId: 'M1a', businessId: 'B1', currency: 'GBP' },
  { merchantId: 'M1b', businessId: 'B1', currency: 'GBP' },
  { merchantId: 'M2a', businessId: 'B2', currency: 'EUR' },
] as const;
/** The pricing plan's rates of the merchants above (M1b and M2a's iDEAL pay the default rate). */
const planRates = [
  { merchantId: 'M1a', currency: 'GBP', paymentMethod: 'card', percentageBasisPoints: 140, fixedMinor: 20 },
  { merchantId: 'M1a', currency: 'GBP', paymentMethod: 'ideal', percentageBasisPoints: 0, fixedMinor: 29 },
  { merchantId: 'M2a', currency: 'EUR', paymentMethod: 'card', percentageBasisPoints: 175, fixedMinor: 0 },
];
const rateOf = (merchantId: string, currency: string, paymentMethod: string) =>
  planRates.find((rate) => rate.merchantId === merchantId && rate.currency === currency && rate.paymentMethod === paymentMethod) ?? defaultRate;
const actor = { userId: 'u-admin' };

describe.each(databaseKinds)('the ledger after random payment operations (%s)', (kind) => {
  it('balances, reconciles, credits what was captured (fees on it) and is idempotent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 5, maxLength: 30 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), { minLength: 3, maxLength: 3 }),
        async (operations, periods) => {
          const database = await createTestDatabase(kind);
          try {
            await insertFixtureWorld(database);
            const { db } = database;
            await db.insert(schema.pricingPlanRates).values(planRates);
            const payments: NewTransactionRow[] = [];
            /** Payments without captures that were paid at some point: their own sale (and its fee) was posted. */
            const paidWhole = new Set<string>();
            let counter = 0;
            const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 9, day, hour));
            const notBefore = (payment: NewTransactionRow, when: Date) => new Date(Math.max(when.getTime(), (payment.createdAt as Date).getTime() + 60_000));
            for (const step of operations) {
              await db.transaction(async (tx) => {
                const now = at(14, 8);
                if (step.op === 'pay' || step.op === 'authorise') {
                  const { merchantId, businessId, currency } = merchantsOf[step.merchant];
                  const reference = `P${++counter}`;
                  const status = step.op === 'authorise' ? 'reserved' : step.pending ? 'pending' : 'paid';
                  const row: NewTransactionRow = {
                    reference,
                    kind: 'payment',
                    parentReference: null,
                    partnerId: null,
                    businessId,
                    merchantId,
                    configurationId: `C-${merchantId}`,
                    paymentJobReference: `QJ${counter}`,
                    createdAt: at(step.day, step.hour),
                    amountMinor: step.amountMinor,
                    currency,
                    status,
                    paymentMethod: step.op === 'authorise' ? 'card' : step.method,
                    channel: 'Gateway',
                  };
                  await tx.insert(schema.paymentJobs).values({
                    reference: `QJ${counter}`,
                    businessId,
                    partnerId: null,
                    merchantId,
                    configurationId: `C-${merchantId}`,
                    createDateTimeUtc: row.createdAt as Date,
                    expirationDateTimeUtc: null,
                    orderNumber: `ORD-${counter}`,
                    amountMinor: step.amountMinor,
                    currency,
                    status,
                    order: {},
                  });
                  payments.push(row);
                  if (status === 'paid') paidWhole.add(reference);
                  await insertTransactions(tx, [row]);
                  await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction(row) }], { now });
                  return;
                }
                const payment = payments.length > 0 ? payments[step.of % payments.length] : undefined;
                if (!payment) return;
                const [current] = await tx.select().from(schema.transactions).where(eq(schema.transactions.reference, payment.reference));
                if (!current) return;
                const state = await loadJobState(tx, payment.paymentJobReference, { lock: true });
                const found = state?.payments.find((candidate) => candidate.transaction.reference === payment.reference);
                if (!found) return;
                const { money } = found;
                const address = { reference: payment.paymentJobReference };
                const major = (minor: number) => minor / 10 ** currencyExponent(current.currency);
                if (step.op === 'capture') {
                  const capturable = capturableMinor(money);
                  if (capturable === 0) return;
                  const amountMinor = step.share === 0 ? 1 : Math.max(1, Math.floor((capturable * step.share) / 100));
                  const outcome = await capturePayment(
                    tx,
                    actor,
                    address,
                    { paymentId: payment.reference, amount: major(amountMinor), version: null },
                    notBefore(payment, at(step.day, 15)),
                  );
                  expect(outcome.status, JSON.stringify(outcome.body)).toBe(201);
                } else if (step.op === 'void') {
                  const outcome = await voidPayment(tx, actor, address, { paymentId: payment.reference, version: null }, notBefore(payment, now));
                  expect(outcome.status, JSON.stringify(outcome.body)).toBe(capturableMinor(money) > 0 ? 200 : 400);
                } else if (step.op === 'refund') {
                  const refundable = refundableMinor(money);
                  if (refundable === 0 || money.refundCount >= 10) return;
                  const amountMinor = Math.max(1, Math.floor((refundable * step.share) / 100));
                  const when = notBefore(payment, at(step.day, 13));
                  const outcome = await refundPayment(
                    tx,
                    actor,
                    address,
                    { paymentId: payment.reference, amount: major(amountMinor), reason: 'goodwill', version: null },
                    when,
                  );
                  expect(outcome.status, JSON.stringify(outcome.body)).toBe(201);
                  const refundId = String(outcome.body.refundId);
                  expect(await advanceRefund(tx, refundId, 'processing', when)).toBe(true);
                  expect(await advanceRefund(tx, refundId, 'completed', when)).toBe(true);
                } else if (step.op === 'chargeback') {
                  const held = refundableMinor(money);
                  if (held === 0) return;
                  expect(
                    await recordChargeback(
                      tx,
                      payment.reference,
                      { amountMinor: Math.max(1, Math.floor((held * step.share) / 100)), reason: 'Fraud' },
                      notBefore(payment, at(step.day, 16)),
                    ),
                  ).not.toBeNull();
                } else if (
                  (step.op === 'settle' && current.status === 'pending') ||
                  (step.op === 'reverse' && current.status === 'paid' && found.captures.length === 0)
                ) {
                  const after = await updateTransaction(tx, payment.reference, { status: step.op === 'settle' ? 'paid' : 'cancelled' });
                  if (step.op === 'settle') paidWhole.add(payment.reference);
                  if (after) await postTransactionChanges(tx, [{ before: toStatsTransaction(current), after: toStatsTransaction(after) }], { now });
                } else if (step.op === 'replay') {
                  // The same insert posted again (a retried request): nothing new.
                  const before = (await tx.execute(sql`SELECT count(*) AS n FROM ledger_entries`)) as unknown as { rows: { n: string | number }[] };
                  await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction({ ...current, status: current.status }) }], { now });
                  const afterCount = (await tx.execute(sql`SELECT count(*) AS n FROM ledger_entries`)) as unknown as { rows: { n: string | number }[] };
                  if (
                    current.status !== 'paid' ||
                    (
                      await tx
                        .select()
                        .from(schema.ledgerPostings)
                        .where(eq(schema.ledgerPostings.id, `sale:${current.reference}`))
                    ).length > 0
                  ) {
                    expect(Number(afterCount.rows[0]?.n)).toBe(Number(before.rows[0]?.n));
                  }
                }
              });
            }

            // Ledger = payments: for every payment, what its trading account was credited (sales less refunds and
            // reversals of it and its children) is what was captured less refunded and charged back; the fees charged are
            // the plan's on each capture (or on the whole payment, captured with its authorisation).
            const ledger = new Map(
              (
                await database.query<{ reference: string; net: string | number | null; fee: string | number | null }>(
                  `SELECT coalesce(t.parent_reference, t.reference) AS reference,
              sum(e.amount_minor) FILTER (WHERE e.account_id LIKE '%:trading' AND e.category IN ('sale', 'refund', 'reversal')) AS net,
              sum(e.amount_minor) FILTER (WHERE e.account_id LIKE '%:costs' AND e.category = 'fee') AS fee
            FROM ledger_entries e JOIN transactions t ON t.reference = e.transaction_reference WHERE t.payment_job_reference LIKE 'QJ%' GROUP BY 1`,
                )
              ).map((row) => [row.reference, { net: Number(row.net ?? 0), fee: Number(row.fee ?? 0) }]),
            );
            for (const payment of payments) {
              const state = await loadJobState(db, payment.paymentJobReference, { lock: false });
              const found = state?.payments.find((candidate) => candidate.transaction.reference === payment.reference);
              if (!found) throw new Error(`payment ${payment.reference} vanished`);
              const { money, captures } = found;
              const rate = rateOf(payment.merchantId, payment.currency, payment.paymentMethod);
              const fees =
                captures.length > 0
                  ? captures.filter((capture) => capture.status === 'paid').reduce((sum, capture) => sum + feeOf(capture.amountMinor, rate), 0)
                  : paidWhole.has(payment.reference)
                    ? feeOf(payment.amountMinor, rate)
                    : 0;
              expect(ledger.get(payment.reference) ?? { net: 0, fee: 0 }, payment.reference).toEqual({
                net: money.capturedMinor - money.refundedMinor - money.chargedBackMinor,
                fee: fees,
              });
              // Never more captured than authorised, nor an open rest once voided.
              expect(money.capturedMinor + money.releasedMinor).toBeLessThanOrEqual(payment.amountMinor);
            }
            await db.transaction((tx) => closeDueBatches(tx, at(20)));

            // Every posting sums to zero.
            expect(await database.query('SELECT posting_id FROM ledger_entries GROUP BY posting_id HAVING sum(amount_minor) <> 0')).toEqual([]);
            // Every day checkpoint is the sum of its entries.
            expect(await dailyBalanceDiscrepancies(db)).toEqual([]);
            // A closed batch's totals (kept as the cut-off posts its moves) are its entries' sums: the payout that left the
            // trading account, the holds and releases on the reserve account.
            expect(
              await database.query(`SELECT b.id FROM settlement_batches b LEFT JOIN ledger_entries e ON e.batch_id = b.id
          WHERE b.status = 'Closed' GROUP BY b.id, b.net_minor, b.reserve_minor
          HAVING b.net_minor <> coalesce(-sum(e.amount_minor) FILTER (WHERE e.category = 'payout' AND e.account_id = b.account_number || ':trading'), 0)
            OR b.reserve_minor <> coalesce(sum(e.amount_minor) FILTER (WHERE e.category IN ('reserveHold', 'reserveRelease') AND e.account_id = b.account_number || ':reserve'), 0)`),
            ).toEqual([]);
            for (const { merchantId, currency } of merchantsOf) {
              const accountNumber = merchantAccountNumber(merchantId, currency);
              // Batches reconcile with the transactions they settle (those made here; the fixture's own predate the ledger).
              const [batches] = await database.query<{ settled: string | number | null }>(
                'SELECT sum(sales_minor - refunds_minor - reversals_minor) AS settled FROM settlement_batches WHERE account_number = $1',
                [accountNumber],
              );
              // A payment captured in parts settles its captures.
              const [settled] = await database.query<{ total: string | number | null }>(
                `SELECT sum(CASE WHEN t.kind IN ('payment', 'capture') THEN t.amount_minor ELSE -t.amount_minor END) AS total FROM transactions t
              WHERE t.merchant_id = $1 AND t.currency = $2 AND t.status = 'paid' AND t.payment_job_reference LIKE 'QJ%'
                AND NOT (t.kind = 'payment' AND EXISTS (SELECT 1 FROM transactions c WHERE c.parent_reference = t.reference AND c.kind = 'capture'))`,
                [merchantId, currency],
              );
              expect(Number(batches?.settled ?? 0)).toBe(Number(settled?.total ?? 0));
              // A closed batch leaves the trading account at zero.
              expect(
                await database.query(
                  `SELECT b.id FROM settlement_batches b JOIN ledger_entries e ON e.batch_id = b.id AND e.account_id = b.account_number || ':trading'
            WHERE b.status = 'Closed' AND b.account_number = $1 GROUP BY b.id HAVING sum(e.amount_minor) <> 0`,
                  [accountNumber],
                ),
              ).toEqual([]);
              // Statements: closing = opening + movements; the next period opens where this one closed.
              for (const kind of ['trading', 'costs', 'remittance', 'reserve'] as const) {
                for (const [from, length] of periods) {
                  const start = at(1 + from, 0);
                  const end = new Date(at(1 + from + length, 0).getTime() - 1);
                  const statement = await readStatement(db, {
                    accountId: groupAccountId(accountNumber, kind),
                    period: { start, end },
                    sort: { field: 'date', descending: false },
                    limit: 1000,
                    offset: 0,
                  });
                  const movements = statement.totals.reduce((sum, row) => sum + row.amountMinor, 0);
                  expect(statement.closingBalanceMinor).toBe(statement.openingBalanceMinor + movements);
                  expect(statement.movements.at(-1)?.runningBalanceMinor ?? statement.openingBalanceMinor).toBe(statement.closingBalanceMinor);
                  const next = await readStatement(db, {
                    accountId: groupAccountId(accountNumber, kind),
                    period: { start: new Date(end.getTime() + 1), end: null },
                    sort: { field: 'date', descending: false },
                    limit: 1,
                    offset: 0,
                  });
                  expect(next.openingBalanceMinor).toBe(statement.closingBalanceMinor);
                  // Read from the day checkpoints, a statement is what the entries alone say, for periods cut at midnight and
                  // mid-day (the 25-hour 25 October among them), in every order, filtered or not, on any page (the first
                  // period of each run: the reads are many).
                  if (from !== periods[0]?.[0] || length !== periods[0]?.[1]) continue;
                  const midDay = {
                    start: new Date(start.getTime() + ((from * 7) % 24) * 3_600_000 + 17 * 60_000),
                    end: new Date(end.getTime() - ((length * 5) % 24) * 3_600_000),
                  };
                  for (const period of [{ start, end }, midDay, { start: midDay.start, end: null }, { start: null, end: midDay.end }]) {
                    for (const [sort, categories, offset] of [
                      [{ field: 'date', descending: false }, undefined, 0],
                      [{ field: 'date', descending: true }, undefined, 1],
                      [{ field: 'amount', descending: true }, undefined, 0],
                      [{ field: 'amount', descending: false }, ['sale', 'refund'], 2],
                    ] as const) {
                      const request: StatementRequest = { accountId: groupAccountId(accountNumber, kind), period, sort, categories, limit: 7, offset };
                      expect(await readStatement(db, request), JSON.stringify(request)).toEqual(await readStatementFromEntries(db, request));
                    }
                  }
                }
              }
            }
            // Closing again changes nothing.
            const entries = await database.query<{ n: string | number }>('SELECT count(*) AS n FROM ledger_entries');
            await db.transaction((tx) => closeDueBatches(tx, at(20)));
            expect(await database.query<{ n: string | number }>('SELECT count(*) AS n FROM ledger_entries')).toEqual(entries);
          } finally {
            await database.close();
          }
        },
      ),
      { numRuns: kind === 'pglite' ? 6 : 3, endOnFailure: true },
    );
  }, 600_000);
});
