// The write path of the settlement ledger. Whoever changes transactions calls postTransactionChanges inside the
// same database transaction, right after recordTransactionChanges (server/stats/record-transaction.ts), with the
// same before/after pairs. Each change that moves money becomes one or two postings whose entries sum to zero:
//
//   payment becomes paid        sale:{ref}     clearing −A, trading +A   (captured at authorisation: no capture rows)
//                               fee:{ref}      trading −F, costs +F   (gross settlement: invoice −F, costs +F)
//   paid payment stops being paid  reversal:{ref}  trading −A, clearing +A   (the fee stays charged)
//   refund becomes paid         refund:{ref}   trading −R, clearing +R
//   paid refund stops being paid   refundReversal:{ref}  trading +R, clearing −R
//   chargeback becomes paid     chargeback:{ref}  trading −C, clearing +C   (a reversal: the scheme took it back)
//   paid chargeback stops being paid  chargebackReversal:{ref}  trading +C, clearing −C   (the dispute was won)
//   capture becomes paid        sale:{capture} and fee:{capture} of the captured amount C, as a payment
//   paid capture stops being paid  reversal:{capture}  trading −C, clearing +C
//
// A payment captured in parts (captures under it) is credited by its captures only, each its own sale with the fee on
// what it captured: the payment turning paid at its first capture posts nothing, and the rest of the authorisation,
// captured later or voided, never reaches the trading account uncaptured. A capture under a payment whose
// own sale is posted (a ledger from before this rule) adds nothing, so nothing is ever credited twice.
//
// A posting's id is its idempotency key: the same change posted twice (a retried request, a replayed job) inserts
// nothing the second time. Entries land in the day's Open settlement batch of the merchant account group (a batch
// already Closed takes no more entries: the change goes to today's batch, or tomorrow's should the cut-off have
// closed today's while the change waited for it) and the batch's totals move with them.
// Reserve holds and releases, payouts and transfers are posted when batches close (close-batches.ts).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { defaultRate, feeOf, merchantAccountNumber, merchantAccountKinds } from '../../src/contract/ledger.ts';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerPostings,
  merchantAccountGroups,
  merchants,
  pricingPlanRates,
  settlementBatches,
  transactions,
} from '../db/schema.ts';
import type { TransactionChange } from '../stats/record-transaction.ts';
import { insertLedgerEntries } from './daily-balances.ts';
import { businessTimeZones, dayOf, defaultBusinessTimeZone } from './periods.ts';
import type { DbWriter } from '../db/client.ts';

export type EntryDraft = { accountId: string; amountMinor: number; category: string };
export type PostingDraft = {
  id: string;
  category: 'sale' | 'fee' | 'refund' | 'reversal';
  transactionReference: string;
  businessId: string;
  merchantId: string;
  currency: string;
  accountNumber: string;
  valueAt: Date;
  entries: EntryDraft[];
  batchDelta: { salesCount: number; salesMinor: number; refundsMinor: number; reversalsMinor: number; feesMinor: number };
};

export const providerAccountId = (kind: 'clearing' | 'bank', currency: string) => `provider:${kind}:${currency}`;
export const groupAccountId = (accountNumber: string, kind: string) => `${accountNumber}:${kind}`;
/** A batch's id: the account group and the business day it covers ('YYYY-MM-DD' in the business's zone). */
export const batchIdOf = (accountNumber: string, day: string) => `B${accountNumber}-${day.replaceAll('-', '')}`;
export const utcDayStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

const zeroDelta = () => ({ salesCount: 0, salesMinor: 0, refundsMinor: 0, reversalsMinor: 0, feesMinor: 0 });

type Sale = { reference: string; amountMinor: number; paymentMethod: string };

/** The postings one change implies, given what the database says about the merchant (pure: tested as a table). */
export function postingsOfChange(
  change: TransactionChange,
  facts: {
    now: Date;
    grossSettlement: boolean;
    paymentMethod: string;
    /** a payment: it has capture rows, so its captures are its sales (not the authorised amount) */
    capturedInParts: boolean;
    /** a capture: its payment's own sale is posted already (so the capture adds nothing) */
    parentSalePosted: boolean;
    rate: { percentageBasisPoints: number; fixedMinor: number };
  },
): PostingDraft[] {
  const { before, after } = change;
  if (!after) return [];
  const wasPaid = before?.status === 'paid';
  const isPaid = after.status === 'paid';
  if (wasPaid === isPaid) return [];
  const accountNumber = merchantAccountNumber(after.merchantId, after.currency);
  const trading = groupAccountId(accountNumber, 'trading');
  const clearing = providerAccountId('clearing', after.currency);
  const valueAt = before === null ? after.createdAt : facts.now;
  const base = {
    transactionReference: after.reference,
    businessId: after.businessId,
    merchantId: after.merchantId,
    currency: after.currency,
    accountNumber,
    valueAt,
  };
  const amount = after.amountMinor;
  const saleOf = (sale: Sale): PostingDraft[] => {
    const fee = feeOf(sale.amountMinor, facts.rate);
    const feeFrom = facts.grossSettlement ? groupAccountId(accountNumber, 'invoice') : trading;
    const postings: PostingDraft[] = [
      {
        ...base,
        id: `sale:${sale.reference}`,
        category: 'sale',
        entries: [
          { accountId: clearing, amountMinor: -sale.amountMinor, category: 'sale' },
          { accountId: trading, amountMinor: sale.amountMinor, category: 'sale' },
        ],
        batchDelta: { ...zeroDelta(), salesCount: 1, salesMinor: sale.amountMinor },
      },
    ];
    if (fee !== 0) {
      postings.push({
        ...base,
        id: `fee:${sale.reference}`,
        category: 'fee',
        entries: [
          { accountId: feeFrom, amountMinor: -fee, category: 'fee' },
          { accountId: groupAccountId(accountNumber, 'costs'), amountMinor: fee, category: 'fee' },
        ],
        batchDelta: { ...zeroDelta(), feesMinor: fee },
      });
    }
    return postings;
  };
  // A paid payment or capture that stops being paid takes its sale back.
  const reversalOfSale = (): PostingDraft[] => [
    {
      ...base,
      id: `reversal:${after.reference}`,
      category: 'reversal',
      entries: [
        { accountId: trading, amountMinor: -amount, category: 'reversal' },
        { accountId: clearing, amountMinor: amount, category: 'reversal' },
      ],
      batchDelta: { ...zeroDelta(), reversalsMinor: amount },
    },
  ];
  switch (after.kind) {
    case 'payment':
      if (facts.capturedInParts) return [];
      if (isPaid) return saleOf({ reference: after.reference, amountMinor: amount, paymentMethod: facts.paymentMethod });
      return reversalOfSale();
    case 'refund':
      if (isPaid) {
        return [
          {
            ...base,
            id: `refund:${after.reference}`,
            category: 'refund',
            entries: [
              { accountId: trading, amountMinor: -amount, category: 'refund' },
              { accountId: clearing, amountMinor: amount, category: 'refund' },
            ],
            batchDelta: { ...zeroDelta(), refundsMinor: amount },
          },
        ];
      }
      return [
        {
          ...base,
          id: `refundReversal:${after.reference}`,
          category: 'reversal',
          entries: [
            { accountId: trading, amountMinor: amount, category: 'reversal' },
            { accountId: clearing, amountMinor: -amount, category: 'reversal' },
          ],
          batchDelta: { ...zeroDelta(), refundsMinor: -amount },
        },
      ];
    case 'chargeback':
      if (isPaid) {
        return [
          {
            ...base,
            id: `chargeback:${after.reference}`,
            category: 'reversal',
            entries: [
              { accountId: trading, amountMinor: -amount, category: 'reversal' },
              { accountId: clearing, amountMinor: amount, category: 'reversal' },
            ],
            batchDelta: { ...zeroDelta(), reversalsMinor: amount },
          },
        ];
      }
      return [
        {
          ...base,
          id: `chargebackReversal:${after.reference}`,
          category: 'reversal',
          entries: [
            { accountId: trading, amountMinor: amount, category: 'reversal' },
            { accountId: clearing, amountMinor: -amount, category: 'reversal' },
          ],
          batchDelta: { ...zeroDelta(), reversalsMinor: -amount },
        },
      ];
    case 'capture':
      if (facts.parentSalePosted) return [];
      if (isPaid) return saleOf({ reference: after.reference, amountMinor: amount, paymentMethod: facts.paymentMethod });
      return reversalOfSale();
  }
}

/** Creates the account group (and its accounts) of each (merchant, currency) that has none yet. */
export async function ensureMerchantAccountGroups(
  writer: DbWriter,
  pairs: readonly { businessId: string; merchantId: string; currency: string }[],
): Promise<void> {
  if (pairs.length === 0) return;
  const unique = new Map(pairs.map((pair) => [merchantAccountNumber(pair.merchantId, pair.currency), pair]));
  const rows = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  await writer
    .insert(merchantAccountGroups)
    .values(rows.map(([accountNumber, pair]) => ({ accountNumber, ...pair })))
    .onConflictDoNothing();
  const accounts: (typeof ledgerAccounts.$inferInsert)[] = rows.flatMap(([accountNumber, pair]) =>
    merchantAccountKinds.map((kind) => ({
      id: groupAccountId(accountNumber, kind),
      owner: 'merchant' as const,
      accountNumber,
      kind,
      businessId: pair.businessId,
      merchantId: pair.merchantId,
      currency: pair.currency,
    })),
  );
  const currencies = [...new Set(rows.map(([, pair]) => pair.currency))].sort();
  for (const currency of currencies) {
    for (const kind of ['clearing', 'bank'] as const)
      accounts.push({ id: providerAccountId(kind, currency), owner: 'provider', accountNumber: null, kind, businessId: null, merchantId: null, currency });
  }
  await writer.insert(ledgerAccounts).values(accounts).onConflictDoNothing();
}

/** Posts what the changes imply; see the header. Call it in the transaction that wrote the changes. */
export async function postTransactionChanges(writer: DbWriter, changes: readonly TransactionChange[], options: { now?: Date } = {}): Promise<void> {
  const now = options.now ?? new Date();
  const moving = changes.filter(({ before, after }) => after !== null && (before?.status === 'paid') !== (after.status === 'paid'));
  if (moving.length === 0) return;
  const references = [...new Set(moving.flatMap(({ after }) => (after ? [after.reference, ...(after.parentReference ? [after.parentReference] : [])] : [])))];
  const rows = await writer
    .select({ reference: transactions.reference, paymentMethod: transactions.paymentMethod, status: transactions.status })
    .from(transactions)
    .where(inArray(transactions.reference, references));
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  // Payments captured in parts (their captures, written in this transaction or before, are their sales), and payments
  // whose own sale is posted (their captures add nothing).
  const movingPayments = [...new Set(moving.flatMap(({ after }) => (after?.kind === 'payment' ? [after.reference] : [])))];
  const inParts = new Set(
    movingPayments.length === 0
      ? []
      : (
          await writer
            .selectDistinct({ reference: transactions.parentReference })
            .from(transactions)
            .where(and(inArray(transactions.parentReference, movingPayments), eq(transactions.kind, 'capture')))
        ).map((row) => row.reference),
  );
  const capturedParents = [...new Set(moving.flatMap(({ after }) => (after?.kind === 'capture' && after.parentReference ? [after.parentReference] : [])))];
  const salePosted = new Set(
    capturedParents.length === 0
      ? []
      : (
          await writer
            .select({ id: ledgerPostings.id })
            .from(ledgerPostings)
            .where(
              inArray(
                ledgerPostings.id,
                capturedParents.map((reference) => `sale:${reference}`),
              ),
            )
        ).map((row) => row.id.slice('sale:'.length)),
  );
  const merchantIds = [...new Set(moving.map(({ after }) => after?.merchantId ?? ''))];
  const merchantFacts = await writer
    .select({ id: merchants.id, grossSettlement: merchants.grossSettlement })
    .from(merchants)
    .where(inArray(merchants.id, merchantIds));
  const gross = new Map(merchantFacts.map((row) => [row.id, row.grossSettlement]));
  const rates = await writer.select().from(pricingPlanRates).where(inArray(pricingPlanRates.merchantId, merchantIds));
  const rateOf = (merchantId: string, currency: string, paymentMethod: string) =>
    rates.find((rate) => rate.merchantId === merchantId && rate.currency === currency && rate.paymentMethod === paymentMethod) ?? defaultRate;

  const drafts: PostingDraft[] = [];
  for (const change of moving) {
    const after = change.after;
    if (!after) continue;
    const own = byReference.get(after.reference);
    const parent = after.parentReference ? byReference.get(after.parentReference) : undefined;
    const paymentMethod = own?.paymentMethod ?? parent?.paymentMethod ?? 'card';
    drafts.push(
      ...postingsOfChange(change, {
        now,
        grossSettlement: gross.get(after.merchantId) ?? false,
        paymentMethod,
        capturedInParts: after.kind === 'payment' && inParts.has(after.reference),
        parentSalePosted: after.kind === 'capture' && after.parentReference !== null && salePosted.has(after.parentReference),
        rate: rateOf(after.merchantId, after.currency, paymentMethod),
      }),
    );
  }
  if (drafts.length === 0) return;
  await ensureMerchantAccountGroups(writer, drafts);
  await postDrafts(writer, drafts, now);
}

/** Inserts postings (each once), their entries and their batches' totals, in key order. */
export async function postDrafts(writer: DbWriter, drafts: readonly PostingDraft[], now: Date): Promise<void> {
  // Batches: the value date's, unless it is already closed, then today's. A change whose transaction began just before
  // midnight may have waited for the cut-off that closed today's batch too (its `now` is the day just closed): it goes
  // to the day after, never into a closed batch. Days are the business's (periods.ts): a batch is one business day.
  const zones = await businessTimeZones(
    writer,
    drafts.map((draft) => draft.businessId),
  );
  const zoneOf = (draft: PostingDraft) => zones.get(draft.businessId) ?? defaultBusinessTimeZone;
  type Day = { date: string; start: Date; end: Date };
  const days = new Map<string, Day>();
  const dayIn = (at: Date, zone: string): Day => {
    const key = `${zone}|${at.getTime()}`;
    let day = days.get(key);
    if (!day) {
      day = dayOf(at, zone);
      days.set(key, day);
    }
    return day;
  };
  const ownDay = (draft: PostingDraft): Day => dayIn(draft.valueAt, zoneOf(draft));
  const today = (draft: PostingDraft): Day => dayIn(now, zoneOf(draft));
  const tomorrow = (draft: PostingDraft): Day => dayIn(today(draft).end, zoneOf(draft));
  const wanted = new Map<string, { accountNumber: string; start: Date; draft: PostingDraft }>();
  const want = (draft: PostingDraft, day: Day) =>
    wanted.set(batchIdOf(draft.accountNumber, day.date), { accountNumber: draft.accountNumber, start: day.start, draft });
  for (const draft of drafts) {
    want(draft, ownDay(draft));
    want(draft, today(draft));
  }
  const closed = new Set<string>();
  const lockBatches = async (ids: string[]) => {
    await writer
      .insert(settlementBatches)
      .values(
        ids.map((id) => {
          const { accountNumber, start, draft } = wanted.get(id) as { accountNumber: string; start: Date; draft: PostingDraft };
          return {
            id,
            accountNumber,
            businessId: draft.businessId,
            merchantId: draft.merchantId,
            currency: draft.currency,
            batchStart: start,
            status: 'Open' as const,
          };
        }),
      )
      .onConflictDoNothing();
    const batches = await writer
      .select({ id: settlementBatches.id, status: settlementBatches.status })
      .from(settlementBatches)
      .where(inArray(settlementBatches.id, ids))
      .for('update');
    for (const batch of batches) if (batch.status === 'Closed') closed.add(batch.id);
  };
  await lockBatches([...wanted.keys()].sort());
  const lateDrafts = drafts.filter(
    (draft) => closed.has(batchIdOf(draft.accountNumber, ownDay(draft).date)) && closed.has(batchIdOf(draft.accountNumber, today(draft).date)),
  );
  if (lateDrafts.length > 0) {
    const before = new Set(wanted.keys());
    for (const draft of lateDrafts) want(draft, tomorrow(draft));
    // Locked after today's: batch ids of one account sort by day, so every writer locks in the same order.
    await lockBatches([...wanted.keys()].filter((id) => !before.has(id)).sort());
  }

  const sorted = [...drafts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const batchOf = (draft: PostingDraft) => {
    const own = batchIdOf(draft.accountNumber, ownDay(draft).date);
    if (!closed.has(own)) return own;
    const todays = batchIdOf(draft.accountNumber, today(draft).date);
    if (!closed.has(todays)) return todays;
    const next = batchIdOf(draft.accountNumber, tomorrow(draft).date);
    if (closed.has(next)) throw new Error(`postDrafts: the batches of ${draft.accountNumber} up to ${next} are closed already`);
    return next;
  };
  const inserted = new Set(
    (
      await writer
        .insert(ledgerPostings)
        .values(
          sorted.map((draft) => ({
            id: draft.id,
            category: draft.category,
            transactionReference: draft.transactionReference,
            batchId: batchOf(draft),
            businessId: draft.businessId,
            merchantId: draft.merchantId,
            currency: draft.currency,
            valueAt: draft.valueAt,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: ledgerPostings.id })
    ).map((row) => row.id),
  );
  const fresh = sorted.filter((draft) => inserted.has(draft.id));
  if (fresh.length === 0) return;
  // Entries in the order a statement reads them: by value date, and a sale before its fee.
  const rank = { sale: 0, fee: 1, refund: 2, reversal: 3 } as const;
  const readingOrder = [...fresh].sort(
    (a, b) =>
      a.valueAt.getTime() - b.valueAt.getTime() ||
      (a.transactionReference < b.transactionReference ? -1 : a.transactionReference > b.transactionReference ? 1 : 0) ||
      rank[a.category] - rank[b.category],
  );
  await insertLedgerEntries(
    writer,
    writer
      .insert(ledgerEntries)
      .values(
        readingOrder.flatMap((draft) =>
          draft.entries.map((entry) => ({
            postingId: draft.id,
            accountId: entry.accountId,
            businessId: draft.businessId,
            merchantId: draft.merchantId,
            category: entry.category,
            amountMinor: entry.amountMinor,
            currency: draft.currency,
            valueAt: draft.valueAt,
            transactionReference: draft.transactionReference,
            batchId: batchOf(draft),
          })),
        ),
      )
      .getSQL(),
  );
  const totals = new Map<string, ReturnType<typeof zeroDelta>>();
  for (const draft of fresh) {
    const id = batchOf(draft);
    const total = totals.get(id) ?? zeroDelta();
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += draft.batchDelta[key];
    totals.set(id, total);
  }
  for (const id of [...totals.keys()].sort()) {
    const delta = totals.get(id) as ReturnType<typeof zeroDelta>;
    await writer
      .update(settlementBatches)
      .set({
        salesCount: sql`${settlementBatches.salesCount} + ${delta.salesCount}`,
        salesMinor: sql`${settlementBatches.salesMinor} + ${delta.salesMinor}`,
        refundsMinor: sql`${settlementBatches.refundsMinor} + ${delta.refundsMinor}`,
        reversalsMinor: sql`${settlementBatches.reversalsMinor} + ${delta.reversalsMinor}`,
        feesMinor: sql`${settlementBatches.feesMinor} + ${delta.feesMinor}`,
      })
      .where(and(eq(settlementBatches.id, id), eq(settlementBatches.status, 'Open')));
  }
}
