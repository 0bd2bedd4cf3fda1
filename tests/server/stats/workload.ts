// Random payment traffic through the statistics write path, for the store and API suites: payments of every
// status, status changes, refunds (settled now or later) and captures, in concurrent database transactions.
import { sql } from 'drizzle-orm';
import type { Database } from '../../../server/db/client.ts';
import { transactions } from '../../../server/db/schema.ts';
import { createRandom, type Random } from '../../../server/seed/seed-random.ts';
import type { NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { insertTransactions, updateTransaction } from '../transaction-writers.ts';

/** The fixture world's merchants and the currencies they take. */
export const fixtureMerchants = [
  { merchantId: 'M1a', businessId: 'B1', partnerId: 'P1', currencies: ['GBP', 'EUR'] },
  { merchantId: 'M1b', businessId: 'B1', partnerId: 'P1', currencies: ['GBP'] },
  { merchantId: 'M2a', businessId: 'B2', partnerId: 'P1', currencies: ['EUR'] },
  { merchantId: 'M3a', businessId: 'B3', partnerId: null, currencies: ['GBP'] },
  { merchantId: 'M3b', businessId: 'B3', partnerId: null, currencies: ['JPY'] },
] as const;

const statuses = [
  ['paid', 8],
  ['declined', 2],
  ['failed', 1],
  ['cancelled', 1],
  ['expired', 1],
  ['pending', 2],
] as const;
const reasons = ['Insufficient funds', 'Do not honour', 'Suspected fraud', 'Issuer unavailable'];

/**
 * `batches` database transactions of `operationsPerBatch` operations each, `concurrency` at a time. Concurrent
 * batches should make one operation each: a single change locks its rows in one global order and cannot deadlock,
 * while several changes in one transaction can (as anywhere in PostgreSQL), and the caller would retry.
 */
export type WorkloadOptions = { seed: number; batches: number; operationsPerBatch: number; from: Date; to: Date; concurrency?: number };

type Known = { reference: string; kind: 'payment' | 'refund'; status: string; createdAt: Date; amountMinor: number };

let sequence = 0;
const nextReference = (prefix: string) => `${prefix}${String(++sequence).padStart(8, '0')}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

function randomInstant(random: Random, from: Date, to: Date): Date {
  // Whole seconds, some exactly on bucket edges (quarter hours and midnights) where off-by-one errors hide.
  const span = Math.floor((to.getTime() - from.getTime()) / 1000);
  const seconds = random.int(0, span - 1);
  const instant = from.getTime() + seconds * 1000;
  if (random.chance(0.15)) return new Date(Math.floor(instant / 900_000) * 900_000);
  if (random.chance(0.05)) return new Date(Math.floor(instant / 86_400_000) * 86_400_000);
  return new Date(instant);
}

function paymentRow(random: Random, from: Date, to: Date): NewTransactionRow {
  const merchant = random.pick(fixtureMerchants);
  const currency = random.pick(merchant.currencies);
  const status = random.weighted(statuses);
  const reference = nextReference('TXW');
  return {
    reference,
    kind: 'payment',
    parentReference: null,
    partnerId: merchant.partnerId,
    businessId: merchant.businessId,
    merchantId: merchant.merchantId,
    configurationId: `C-${merchant.merchantId}`,
    paymentJobReference: `PJ-${reference}`,
    createdAt: randomInstant(random, from, to),
    amountMinor: currency === 'JPY' ? random.int(1, 500) * 10 : random.int(1, 50_000),
    currency,
    status,
    paymentMethod: 'card',
    channel: 'Gateway',
    declineReason: status === 'declined' || status === 'failed' ? random.pick(reasons) : null,
  };
}

/** Runs the workload; returns how many operations it made. */
export async function runWorkload(database: Database, options: WorkloadOptions): Promise<number> {
  const random = createRandom(options.seed);
  const known: Known[] = [];
  let operations = 0;
  const batch = async (batchRandom: Random) => {
    await database.db.transaction(async (tx) => {
      for (let n = 0; n < options.operationsPerBatch; n += 1) {
        const choice = batchRandom.next();
        const paid = known.filter((entry) => entry.kind === 'payment' && entry.status === 'paid');
        if (choice < 0.55 || known.length < 5) {
          const rows = [paymentRow(batchRandom, options.from, options.to)];
          // Now and then a payment and its immediate refund in one insert.
          if (rows[0]!.status === 'paid' && batchRandom.chance(0.1)) {
            const payment = rows[0]!;
            rows.push({
              ...payment,
              reference: nextReference('TXR'),
              kind: 'refund',
              parentReference: payment.reference,
              status: 'paid',
              amountMinor: Math.max(1, Math.floor(payment.amountMinor / 2)),
              createdAt: new Date(payment.createdAt.getTime() + 3_600_000),
              declineReason: null,
            });
          }
          await insertTransactions(tx, rows);
          for (const row of rows)
            known.push({
              reference: row.reference,
              kind: row.kind as 'payment' | 'refund',
              status: row.status,
              createdAt: row.createdAt,
              amountMinor: row.amountMinor,
            });
        } else if (choice < 0.75) {
          const target = batchRandom.pick(known.filter((entry) => entry.kind === 'payment'));
          const status = batchRandom.weighted(statuses);
          const updated = await updateTransaction(tx, target.reference, {
            status,
            declineReason: status === 'declined' || status === 'failed' ? batchRandom.pick(reasons) : null,
          });
          if (updated) target.status = status;
        } else if (choice < 0.9 && paid.length > 0) {
          const payment = batchRandom.pick(paid);
          const [parent] = await tx.select().from(transactions).where(sql`${transactions.reference} = ${payment.reference}`);
          if (!parent) continue;
          const kind = batchRandom.chance(0.8) ? 'refund' : 'capture';
          const row: NewTransactionRow = {
            ...parent,
            reference: nextReference(kind === 'refund' ? 'TXR' : 'TXC'),
            kind,
            parentReference: parent.reference,
            status: batchRandom.chance(0.7) ? 'paid' : 'pending',
            amountMinor: Math.max(1, Math.floor((parent.amountMinor * batchRandom.int(10, 100)) / 100)),
            createdAt: new Date(parent.createdAt.getTime() + batchRandom.int(60, 40 * 86_400) * 1000),
            declineReason: null,
          };
          await insertTransactions(tx, [row]);
          if (kind === 'refund') known.push({ reference: row.reference, kind, status: row.status, createdAt: row.createdAt, amountMinor: row.amountMinor });
        } else {
          const refunds = known.filter((entry) => entry.kind === 'refund');
          if (refunds.length === 0) continue;
          const refund = batchRandom.pick(refunds);
          const status = refund.status === 'paid' ? 'failed' : 'paid';
          if (await updateTransaction(tx, refund.reference, { status })) refund.status = status;
        }
        operations += 1;
      }
    });
  };
  const concurrency = options.concurrency ?? 1;
  for (let done = 0; done < options.batches; done += concurrency) {
    const count = Math.min(concurrency, options.batches - done);
    await Promise.all(Array.from({ length: count }, () => batch(createRandom(random.int(1, 2 ** 31)))));
  }
  return operations;
}
