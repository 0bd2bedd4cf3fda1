// Clearing the invoice account. What an invoice charges sits on the invoice accounts of the merchant
// account groups its lines come from (a gross-settled merchant's fees, every merchant's monthly minimum top-ups:
// post-transactions.ts, close-batches.ts). Paying the invoice and crediting it are ledger postings too, so the
// account goes back to zero when the invoice is settled:
//
//   invoice paid        invoicePayment:{invoiceId}   each merchant's invoice +P(m), provider bank −ΣP(m)
//                       P(m) = what the invoice's lines charge merchant m, less what credit notes took off it
//   credit note issued  creditNote:{creditNoteId}    each merchant's invoice +C(m), its costs −C(m)
//                       C(m) = the note's amount shared over what is left to credit per merchant
//
// Every posting sums to zero (the payment through the provider's bank account, as a transfer does the other way;
// a credit note takes the fee income back from the costs account). A posting's id is its idempotency key: posting
// the same payment or credit note again inserts nothing. No settlement batch: like the monthly minimum top-ups, these
// movements never touch the trading account, and no transaction reference (the statement links those to payments):
// the posting id names the invoice or credit note. Call these in the transaction that changes the invoice.
import { and, eq, inArray } from 'drizzle-orm';
import { merchantAccountNumber } from '../../src/contract/ledger.ts';
import { invoices, ledgerEntries, ledgerPostings } from '../db/schema.ts';
import { insertLedgerEntries } from './daily-balances.ts';
import { groupAccountId, providerAccountId } from './post-transactions.ts';
import type { DbWriter } from '../db/client.ts';

export const invoicePaymentPostingId = (invoiceId: string) => `invoicePayment:${invoiceId}`;
export const creditNotePostingId = (creditNoteId: string) => `creditNote:${creditNoteId}`;

type InvoiceRow = typeof invoices.$inferSelect;
type Entry = { accountId: string; merchantId: string | null; amountMinor: number };

/** What the lines of an invoice charge per merchant (fees and top-ups), in the lines' order of first appearance. */
export function chargedByMerchant(lines: InvoiceRow['lines']): Map<string, number> {
  const charged = new Map<string, number>();
  for (const line of lines) {
    if (!line.merchantId) continue;
    charged.set(line.merchantId, (charged.get(line.merchantId) ?? 0) + line.amountMinor);
  }
  return charged;
}

/**
 * Shares `amount` over the merchants in proportion to what is left of each (largest remainder, ties to the earlier
 * merchant), never more than is left of one. Pure; the caller never asks for more than the sum of what is left.
 */
export function shareOut(amount: number, left: ReadonlyMap<string, number>): Map<string, number> {
  const open = [...left.entries()].filter(([, value]) => value > 0);
  const total = open.reduce((sum, [, value]) => sum + value, 0);
  const shares = new Map<string, number>();
  if (amount <= 0 || total <= 0) return shares;
  const capped = Math.min(amount, total);
  const parts = open.map(([merchantId, value], index) => {
    const exact = (capped * value) / total;
    return { merchantId, index, share: Math.floor(exact), fraction: exact - Math.floor(exact), value };
  });
  let rest = capped - parts.reduce((sum, part) => sum + part.share, 0);
  for (const part of [...parts].sort((a, b) => b.fraction - a.fraction || a.index - b.index)) {
    if (rest === 0) break;
    if (part.share < part.value) {
      part.share += 1;
      rest -= 1;
    }
  }
  for (const part of parts) if (part.share > 0) shares.set(part.merchantId, part.share);
  return shares;
}

/** Per merchant, what the credit notes of an invoice posted so far took off its invoice accounts. */
async function creditedByMerchant(writer: DbWriter, invoice: InvoiceRow, exceptNoteId?: string): Promise<Map<string, number>> {
  const notes = await writer
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.creditedInvoiceId, invoice.id), eq(invoices.kind, 'creditNote')));
  const postingIds = notes.filter((note) => note.id !== exceptNoteId).map((note) => creditNotePostingId(note.id));
  const credited = new Map<string, number>();
  if (postingIds.length === 0) return credited;
  const rows = await writer
    .select({ merchantId: ledgerEntries.merchantId, accountId: ledgerEntries.accountId, amount: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.postingId, postingIds));
  for (const row of rows) {
    if (!row.merchantId || !row.accountId.endsWith(':invoice')) continue;
    credited.set(row.merchantId, (credited.get(row.merchantId) ?? 0) + Number(row.amount));
  }
  return credited;
}

async function post(
  writer: DbWriter,
  posting: { id: string; category: 'invoicePayment' | 'creditNote'; businessId: string; currency: string; valueAt: Date },
  entries: Entry[],
): Promise<boolean> {
  const moving = entries.filter((entry) => entry.amountMinor !== 0);
  if (moving.length === 0) return false;
  if (moving.reduce((sum, entry) => sum + entry.amountMinor, 0) !== 0) throw new Error(`posting ${posting.id} does not balance`);
  const [inserted] = await writer
    .insert(ledgerPostings)
    .values({
      id: posting.id,
      category: posting.category,
      transactionReference: null,
      batchId: null,
      businessId: posting.businessId,
      merchantId: null,
      currency: posting.currency,
      valueAt: posting.valueAt,
    })
    .onConflictDoNothing()
    .returning({ id: ledgerPostings.id });
  if (!inserted) return false;
  await insertLedgerEntries(
    writer,
    writer
      .insert(ledgerEntries)
      .values(
        moving.map((entry) => ({
          postingId: posting.id,
          accountId: entry.accountId,
          businessId: posting.businessId,
          merchantId: entry.merchantId,
          category: posting.category,
          amountMinor: entry.amountMinor,
          currency: posting.currency,
          valueAt: posting.valueAt,
          transactionReference: null,
          batchId: null,
        })),
      )
      .getSQL(),
  );
  return true;
}

const invoiceAccountOf = (merchantId: string, currency: string) => groupAccountId(merchantAccountNumber(merchantId, currency), 'invoice');
const costsAccountOf = (merchantId: string, currency: string) => groupAccountId(merchantAccountNumber(merchantId, currency), 'costs');

/**
 * Posts the payment of an invoice (see the header): what is still owed of it per merchant, credit notes deducted.
 * Returns the amount posted (0 when nothing was owed or it was posted before).
 */
export async function postInvoicePayment(writer: DbWriter, invoice: InvoiceRow, paidAt: Date): Promise<number> {
  if (invoice.kind !== 'invoice') throw new Error('only an invoice is paid');
  const charged = chargedByMerchant(invoice.lines);
  const credited = await creditedByMerchant(writer, invoice);
  const entries: Entry[] = [...charged].map(([merchantId, amount]) => ({
    accountId: invoiceAccountOf(merchantId, invoice.currency),
    merchantId,
    amountMinor: amount - (credited.get(merchantId) ?? 0),
  }));
  const total = entries.reduce((sum, entry) => sum + entry.amountMinor, 0);
  entries.push({ accountId: providerAccountId('bank', invoice.currency), merchantId: null, amountMinor: -total });
  const posted = await post(
    writer,
    { id: invoicePaymentPostingId(invoice.id), category: 'invoicePayment', businessId: invoice.businessId, currency: invoice.currency, valueAt: paidAt },
    entries,
  );
  return posted ? total : 0;
}

/** Posts a credit note of an invoice (see the header). Returns the amount posted (0 when it was posted before). */
export async function postCreditNote(writer: DbWriter, creditNote: InvoiceRow, invoice: InvoiceRow): Promise<number> {
  if (creditNote.kind !== 'creditNote' || creditNote.creditedInvoiceId !== invoice.id) throw new Error('not a credit note of this invoice');
  const charged = chargedByMerchant(invoice.lines);
  const credited = await creditedByMerchant(writer, invoice, creditNote.id);
  const left = new Map([...charged].map(([merchantId, amount]) => [merchantId, amount - (credited.get(merchantId) ?? 0)]));
  const shares = shareOut(-creditNote.totalMinor, left);
  const entries: Entry[] = [...shares].flatMap(([merchantId, share]) => [
    { accountId: invoiceAccountOf(merchantId, invoice.currency), merchantId, amountMinor: share },
    { accountId: costsAccountOf(merchantId, invoice.currency), merchantId, amountMinor: -share },
  ]);
  const posted = await post(
    writer,
    {
      id: creditNotePostingId(creditNote.id),
      category: 'creditNote',
      businessId: invoice.businessId,
      currency: invoice.currency,
      valueAt: creditNote.issuedUtc,
    },
    entries,
  );
  return posted ? [...shares.values()].reduce((sum, share) => sum + share, 0) : 0;
}
