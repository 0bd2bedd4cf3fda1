// Properties of the settlement ledger. Pure: every posting a change implies balances, and the fee is the plan's.
// Against a database (PGlite), after random payment operations posted through the write path (some of them twice),
// then the cut-off: every posting sums to zero; a statement's closing balance is its opening plus its movements for
// any period; the batches' sales less refunds and reversals equal the settled transactions; every closed batch leaves
// the trading account at zero; posting a change again changes nothing.
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { closeDueBatches } from '../../../server/ledger/close-batches.ts';
import { groupAccountId, postingsOfChange, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { readStatement } from '../../../server/ledger/statement.ts';
import { insertTransactions, toStatsTransaction, updateTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import type { StatsTransaction } from '../../../server/stats/definition.ts';
import { feeOf, merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { createTestDatabase, insertFixtureWorld } from '../support.ts';

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
  it('always balance, and a sale\'s fee is the plan\'s percentage plus fixed part', () => {
    fc.assert(fc.property(fc.option(side, { nil: null }), side, fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 100 }),
      (before, after, gross, parentPaid, points, fixed) => {
        const rate = { percentageBasisPoints: points, fixedMinor: fixed };
        const postings = postingsOfChange({ before: before ? { ...before, kind: after.kind, reference: after.reference } : null, after }, { now: new Date(), grossSettlement: gross, paymentMethod: 'card', parentPaid, rate });
        for (const posting of postings) expect(posting.entries.reduce((sum, entry) => sum + entry.amountMinor, 0)).toBe(0);
        expect(new Set(postings.map((posting) => posting.id)).size).toBe(postings.length);
        const fee = postings.find((posting) => posting.category === 'fee');
        if (fee) expect(fee.batchDelta.feesMinor).toBe(feeOf(after.amountMinor, rate));
        if ((before?.status === 'paid') === (after.status === 'paid')) expect(postings).toEqual([]);
      }));
  });
});

type Operation =
  | { op: 'pay'; merchant: 0 | 1 | 2; amountMinor: number; day: number; hour: number; method: 'card' | 'ideal'; pending: boolean }
  | { op: 'refund'; of: number; share: number; day: number }
  | { op: 'settle'; of: number }
  | { op: 'reverse'; of: number }
  | { op: 'replay'; of: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant('pay' as const), merchant: fc.constantFrom(0 as const, 1 as const, 2 as const), amountMinor: fc.integer({ min: 1, max: 2_000_000 }), day: fc.integer({ min: 1, max: 12 }), hour: fc.integer({ min: 0, max: 23 }), method: fc.constantFrom('card' as const, 'ideal' as const), pending: fc.boolean() }),
  fc.record({ op: fc.constant('refund' as const), of: fc.nat(40), share: fc.integer({ min: 1, max: 100 }), day: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ op: fc.constant('settle' as const), of: fc.nat(40) }),
  fc.record({ op: fc.constant('reverse' as const), of: fc.nat(40) }),
  fc.record({ op: fc.constant('replay' as const), of: fc.nat(40) }),
);
const merchantsOf = [{ merchantId: 'M1a', businessId: 'B1', currency: 'GBP' }, { merchantId: 'M1b', businessId: 'B1', currency: 'GBP' }, { merchantId: 'M2a', businessId: 'B2', currency: 'EUR' }] as const;

describe('the ledger after random payment operations (PGlite)', () => {
  it('balances, reconciles and is idempotent', async () => {
    await fc.assert(fc.asyncProperty(fc.array(operation, { minLength: 5, maxLength: 30 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), { minLength: 3, maxLength: 3 }), async (operations, periods) => {
      const database = await createTestDatabase('pglite');
      try {
        await insertFixtureWorld(database);
        const { db } = database;
        const payments: NewTransactionRow[] = [];
        let counter = 0;
        const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 9, day, hour));
        for (const step of operations) {
          await db.transaction(async (tx) => {
            const now = at(14, 8);
            if (step.op === 'pay') {
              const { merchantId, businessId, currency } = merchantsOf[step.merchant];
              const row: NewTransactionRow = {
                reference: `P${++counter}`, kind: 'payment', parentReference: null, partnerId: null, businessId, merchantId, configurationId: `C-${merchantId}`,
                paymentJobReference: `PJ${counter}`, createdAt: at(step.day, step.hour), amountMinor: step.amountMinor, currency, status: step.pending ? 'pending' : 'paid',
                paymentMethod: step.method, channel: 'Gateway',
              };
              payments.push(row);
              await insertTransactions(tx, [row]);
              await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction(row) }], { now });
              return;
            }
            const payment = payments.length > 0 ? payments[step.of % payments.length] : undefined;
            if (!payment) return;
            const [current] = await tx.select().from(schema.transactions).where(eq(schema.transactions.reference, payment.reference));
            if (!current) return;
            if (step.op === 'refund' && current.status === 'paid') {
              const refund: NewTransactionRow = { ...payment, reference: `R${++counter}`, kind: 'refund', parentReference: payment.reference, createdAt: at(Math.max(step.day, 1), 13), amountMinor: Math.max(1, Math.floor(current.amountMinor * step.share / 100)), status: 'paid' };
              await insertTransactions(tx, [refund]);
              await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction(refund) }], { now });
            } else if ((step.op === 'settle' && current.status === 'pending') || (step.op === 'reverse' && current.status === 'paid')) {
              const after = await updateTransaction(tx, payment.reference, { status: step.op === 'settle' ? 'paid' : 'cancelled' });
              if (after) await postTransactionChanges(tx, [{ before: toStatsTransaction(current), after: toStatsTransaction(after) }], { now });
            } else if (step.op === 'replay') {
              // The same insert posted again (a retried request): nothing new.
              const before = await tx.execute(sql`SELECT count(*) AS n FROM ledger_entries`) as unknown as { rows: { n: string | number }[] };
              await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction({ ...current, status: current.status }) }], { now });
              const afterCount = await tx.execute(sql`SELECT count(*) AS n FROM ledger_entries`) as unknown as { rows: { n: string | number }[] };
              if (current.status !== 'paid' || (await tx.select().from(schema.ledgerPostings).where(eq(schema.ledgerPostings.id, `sale:${current.reference}`))).length > 0) {
                expect(Number(afterCount.rows[0]?.n)).toBe(Number(before.rows[0]?.n));
              }
            }
          });
        }
        await db.transaction((tx) => closeDueBatches(tx, at(20)));

        // Every posting sums to zero.
        expect(await database.query('SELECT posting_id FROM ledger_entries GROUP BY posting_id HAVING sum(amount_minor) <> 0')).toEqual([]);
        // A closed batch's totals (kept as the cut-off posts its moves) are its entries' sums: the payout that left the
        // trading account, the holds and releases on the reserve account.
        expect(await database.query(`SELECT b.id FROM settlement_batches b LEFT JOIN ledger_entries e ON e.batch_id = b.id
          WHERE b.status = 'Closed' GROUP BY b.id, b.net_minor, b.reserve_minor
          HAVING b.net_minor <> coalesce(-sum(e.amount_minor) FILTER (WHERE e.category = 'payout' AND e.account_id = b.account_number || ':trading'), 0)
            OR b.reserve_minor <> coalesce(sum(e.amount_minor) FILTER (WHERE e.category IN ('reserveHold', 'reserveRelease') AND e.account_id = b.account_number || ':reserve'), 0)`)).toEqual([]);
        for (const { merchantId, currency } of merchantsOf) {
          const accountNumber = merchantAccountNumber(merchantId, currency);
          // Batches reconcile with the transactions they settle (those made here; the fixture's own predate the ledger).
          const [batches] = await database.query<{ settled: string | number | null }>('SELECT sum(sales_minor - refunds_minor - reversals_minor) AS settled FROM settlement_batches WHERE account_number = $1', [accountNumber]);
          const [settled] = await database.query<{ total: string | number | null }>(
            "SELECT sum(CASE WHEN kind = 'payment' THEN amount_minor ELSE -amount_minor END) AS total FROM transactions WHERE merchant_id = $1 AND currency = $2 AND status = 'paid' AND kind IN ('payment', 'refund') AND reference ~ '^[PR][0-9]+$'",
            [merchantId, currency]);
          expect(Number(batches?.settled ?? 0)).toBe(Number(settled?.total ?? 0));
          // A closed batch leaves the trading account at zero.
          expect(await database.query(`SELECT b.id FROM settlement_batches b JOIN ledger_entries e ON e.batch_id = b.id AND e.account_id = b.account_number || ':trading'
            WHERE b.status = 'Closed' AND b.account_number = $1 GROUP BY b.id HAVING sum(e.amount_minor) <> 0`, [accountNumber])).toEqual([]);
          // Statements: closing = opening + movements; the next period opens where this one closed.
          for (const kind of ['trading', 'costs', 'remittance', 'reserve'] as const) {
            for (const [from, length] of periods) {
              const start = at(1 + from, 0);
              const end = new Date(at(1 + from + length, 0).getTime() - 1);
              const statement = await readStatement(db, { accountId: groupAccountId(accountNumber, kind), period: { start, end }, sort: { field: 'date', descending: false }, limit: 1000, offset: 0 });
              const movements = statement.totals.reduce((sum, row) => sum + row.amountMinor, 0);
              expect(statement.closingBalanceMinor).toBe(statement.openingBalanceMinor + movements);
              expect(statement.movements.at(-1)?.runningBalanceMinor ?? statement.openingBalanceMinor).toBe(statement.closingBalanceMinor);
              const next = await readStatement(db, { accountId: groupAccountId(accountNumber, kind), period: { start: new Date(end.getTime() + 1), end: null }, sort: { field: 'date', descending: false }, limit: 1, offset: 0 });
              expect(next.openingBalanceMinor).toBe(statement.closingBalanceMinor);
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
    }), { numRuns: 4, endOnFailure: true });
  }, 600_000);
});
