// The settlement details report: one row per transaction settled in a batch (or in each batch of a period, e.g. a
// month, of a merchant account group), as finance teams know it from the acquirers' settlement detail reports. Each
// row names the transaction, its payment job and merchant reference, its payment method and card brand (the card
// number masked, never whole), the original payment of a refund, a capture or a chargeback, the dispute of a
// chargeback with its reason and any fee charged on it, and the batch and payout it settled in, with gross, fee and
// net in the currency's minor units written as decimals (JPY without decimals).
//
// Read from the ledger, never recomputed: the batch's entries on the group's trading account (gross and net: what the
// transaction moved there) and costs account (fee: the fee:{ref} posting's costs side). Under gross settlement the fee
// is invoiced, not deducted, so a row's net is its gross there. A batch's reserve hold and releases are rows of their
// own (no transaction), so the net column of a closed batch adds up to what it paid out (batchNetMinor): the sums of
// the rows are the batch's sales less refunds and reversals (gross), its fees and its net.
//
// Queued, leased, crash-recovered and downloaded as every ledger report (ledger-export.ts dispatches here after the
// access check); written through the shared CSV and XLSX writers.
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { cardTypeOf } from '../../src/contract/partners.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { settlementBatches } from '../db/schema.ts';
import { chargebackReasonOf } from '../payments/payment-views.ts';
import { groupAccountId } from '../ledger/post-transactions.ts';
import { minorUnitsToDecimal, wallClock } from './transaction-export.ts';
import type { PdfHeading, PdfSummary } from './pdf-statement.ts';
import type { ReportColumnSpec, ReportRow } from './writers.ts';

export type SettlementDetailRow = {
  batchId: string;
  valueAt: Date;
  /** what the row is: Sale, Capture, Refund, Chargeback, … ('+' joined when one transaction moved twice in the batch) */
  type: string;
  transactionReference: string | null;
  paymentJobReference: string | null;
  merchantReference: string | null;
  paymentMethod: string | null;
  cardBrand: string | null;
  cardMasked: string | null;
  originalPayment: string | null;
  disputeId: string | null;
  disputeReason: string | null;
  grossMinor: number;
  feeMinor: number;
  netMinor: number;
  /** the transfer that paid the batch out, or its payout posting while no transfer has carried it yet; null: open */
  payout: string | null;
};

type Batch = typeof settlementBatches.$inferSelect;
type Row = Record<string, unknown>;
const rowsOf = async (db: Db, query: ReturnType<typeof sql>): Promise<Row[]> => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/** A full card number that ever reached a masked column is masked here too: first six and last four digits only. */
export const maskCardText = (value: string | null): string | null =>
  value === null ? null : value.replace(/\d{11,19}/g, (digits) => `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`);

const typeLabels: Record<string, string> = {
  sale: 'Sale',
  fee: 'Fee',
  refund: 'Refund',
  refundReversal: 'Refund reversed',
  chargeback: 'Chargeback',
  chargebackReversal: 'Chargeback reversed',
  reversal: 'Sale reversed',
  reserveHold: 'Reserve hold',
  reserveRelease: 'Reserve release',
};
const typeOrder = ['sale', 'reversal', 'refund', 'refundReversal', 'chargeback', 'chargebackReversal', 'fee'];

/** The row's type from the kinds of its postings (the posting id's prefix: sale:{ref}, refund:{ref}, …). */
function typeOf(kinds: readonly string[], transactionKind: string | null): string {
  const moving = kinds.filter((kind) => kind !== 'fee');
  const shown = [...(moving.length > 0 ? moving : kinds)].sort((a, b) => typeOrder.indexOf(a) - typeOrder.indexOf(b));
  return shown.map((kind) => (kind === 'sale' && transactionKind === 'capture' ? 'Capture' : (typeLabels[kind] ?? kind))).join(' + ');
}

/** The transfer that paid a closed batch out: its own (automatic remittance), or the business transfer carrying its payout. */
async function payoutOf(db: Db, batch: Batch): Promise<string | null> {
  if (batch.status !== 'Closed') return null;
  const rows = await rowsOf(
    db,
    sql`SELECT coalesce(
      (SELECT t.id FROM ledger_transfers t WHERE t.batch_id = ${batch.id} AND t.group_kind = 'merchant' LIMIT 1),
      (SELECT t.id FROM ledger_entries e
        JOIN ledger_transfers t ON t.account_number = split_part(e.account_id, ':', 1) AND t.group_kind = 'business' AND t.transfer_date > e.value_at
        WHERE e.posting_id = ${`payout:${batch.id}`} AND e.account_id LIKE '%:business'
        ORDER BY t.transfer_date LIMIT 1),
      (SELECT p.id FROM ledger_postings p WHERE p.id = ${`payout:${batch.id}`})
    ) AS payout`,
  );
  const payout = rows[0]?.payout;
  return typeof payout === 'string' ? payout : null;
}

/** Every row of one batch, in booking order (transactions first by value date and reference, then reserve moves). */
export async function settlementDetailsOfBatch(db: Db, batch: Batch): Promise<SettlementDetailRow[]> {
  const trading = groupAccountId(batch.accountNumber, 'trading');
  const costs = groupAccountId(batch.accountNumber, 'costs');
  // Reached through the entries' (batch, account) index: the batch's entries on its two accounts only.
  const moved = await rowsOf(
    db,
    sql`SELECT e.transaction_reference AS reference, min(e.value_at) AS value_at,
      array_agg(DISTINCT split_part(e.posting_id, ':', 1)) AS kinds,
      coalesce(sum(e.amount_minor) FILTER (WHERE e.account_id = ${trading} AND e.category <> 'fee'), 0)::bigint AS gross,
      coalesce(sum(e.amount_minor) FILTER (WHERE e.account_id = ${costs} AND e.category = 'fee'), 0)::bigint AS fee,
      coalesce(sum(e.amount_minor) FILTER (WHERE e.account_id = ${trading}), 0)::bigint AS net
    FROM ledger_entries e
    WHERE e.batch_id = ${batch.id} AND e.account_id IN (${trading}, ${costs}) AND e.transaction_reference IS NOT NULL
    GROUP BY e.transaction_reference
    ORDER BY 2, 1`,
  );
  const references = moved.map((row) => String(row.reference));
  const facts = new Map<string, Row>();
  if (references.length > 0) {
    const list = sql.join(
      references.map((reference) => sql`${reference}`),
      sql`, `,
    );
    const factRows = await rowsOf(
      db,
      sql`SELECT t.reference, t.kind, t.parent_reference, t.payment_job_reference, t.created_at,
        coalesce(t.payment_method, p.payment_method) AS payment_method, coalesce(t.card_masked, p.card_masked) AS card_masked, j.order_number,
        (SELECT s.detail FROM payment_steps s WHERE t.kind = 'chargeback' AND s.payment_id = t.parent_reference AND s.step = 'chargedBack'
          AND s.date_time_utc = t.created_at ORDER BY s.id LIMIT 1) AS dispute_reason
      FROM transactions t
      LEFT JOIN transactions p ON p.reference = t.parent_reference
      LEFT JOIN payment_jobs j ON j.reference = t.payment_job_reference
      WHERE t.reference IN (${list})`,
    );
    for (const row of factRows) facts.set(String(row.reference), row);
  }
  const payout = await payoutOf(db, batch);
  const rows: SettlementDetailRow[] = moved.map((row) => {
    const reference = String(row.reference);
    const fact = facts.get(reference);
    const kind = fact ? String(fact.kind) : null;
    const cardMasked = maskCardText((fact?.card_masked as string | null | undefined) ?? null);
    const chargeback = kind === 'chargeback';
    return {
      batchId: batch.id,
      valueAt: new Date(row.value_at as string | Date),
      type: typeOf(row.kinds as string[], kind),
      transactionReference: reference,
      paymentJobReference: (fact?.payment_job_reference as string | undefined) ?? null,
      merchantReference: (fact?.order_number as string | null | undefined) ?? null,
      paymentMethod: (fact?.payment_method as string | null | undefined) ?? null,
      cardBrand: cardMasked ? cardTypeOf(cardMasked) : null,
      cardMasked,
      originalPayment: kind !== null && kind !== 'payment' ? ((fact?.parent_reference as string | null | undefined) ?? null) : null,
      disputeId: chargeback ? reference : null,
      disputeReason: chargeback ? ((fact?.dispute_reason as string | null | undefined) ?? chargebackReasonOf(reference)) : null,
      grossMinor: Number(row.gross),
      feeMinor: Number(row.fee),
      netMinor: Number(row.net),
      payout,
    };
  });
  const reserve = await rowsOf(
    db,
    sql`SELECT e.posting_id, e.category, e.value_at, e.amount_minor FROM ledger_entries e
    WHERE e.batch_id = ${batch.id} AND e.account_id = ${trading} AND e.transaction_reference IS NULL AND e.category IN ('reserveHold', 'reserveRelease')
    ORDER BY e.value_at, e.id`,
  );
  for (const row of reserve) {
    rows.push({
      batchId: batch.id,
      valueAt: new Date(row.value_at as string | Date),
      type: typeLabels[String(row.category)] ?? String(row.category),
      transactionReference: null,
      paymentJobReference: null,
      merchantReference: null,
      paymentMethod: null,
      cardBrand: null,
      cardMasked: null,
      originalPayment: null,
      disputeId: null,
      disputeReason: null,
      grossMinor: 0,
      feeMinor: 0,
      netMinor: Number(row.amount_minor),
      payout,
    });
  }
  return rows;
}

/** The batches a report covers: the one named, or the group's batches whose day lies in the period (as the batch overview lists them). */
export async function settlementDetailBatches(
  db: Db,
  accountNumber: string,
  selection: { batchId: string } | { start: Date | null; end: Date | null },
): Promise<Batch[]> {
  if ('batchId' in selection) {
    return db
      .select()
      .from(settlementBatches)
      .where(and(eq(settlementBatches.id, selection.batchId), eq(settlementBatches.accountNumber, accountNumber)));
  }
  const { start, end } = selection;
  return db
    .select()
    .from(settlementBatches)
    .where(
      and(
        eq(settlementBatches.accountNumber, accountNumber),
        start ? gte(settlementBatches.batchStart, new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()))) : undefined,
        end ? lte(settlementBatches.batchStart, end) : undefined,
      ),
    )
    .orderBy(asc(settlementBatches.batchStart), asc(settlementBatches.id));
}

/** How many rows a report of these batches holds (transactions and reserve moves), for the queue's progress. */
export async function countSettlementDetails(db: Db, batches: readonly Batch[]): Promise<number> {
  if (batches.length === 0) return 0;
  const conditions = sql.join(
    batches.map(
      (batch) =>
        sql`(e.batch_id = ${batch.id} AND e.account_id IN (${groupAccountId(batch.accountNumber, 'trading')}, ${groupAccountId(batch.accountNumber, 'costs')}))`,
    ),
    sql` OR `,
  );
  const rows = await rowsOf(
    db,
    sql`SELECT count(DISTINCT coalesce(e.transaction_reference, e.posting_id))::int AS n FROM ledger_entries e
    WHERE (${conditions}) AND (e.transaction_reference IS NOT NULL OR e.category IN ('reserveHold', 'reserveRelease'))`,
  );
  return Number(rows[0]?.n ?? 0);
}

export const settlementDetailHeaders = [
  'Batch',
  'Booked',
  'Type',
  'Transaction',
  'Payment job',
  'Merchant reference',
  'Payment method',
  'Card brand',
  'Card number (masked)',
  'Original payment',
  'Dispute',
  'Dispute reason',
  'Currency',
  'Gross',
  'Fee',
  'Net',
  'Payout',
] as const;

export function settlementDetailColumns(currency: string, timeZone: string): ReportColumnSpec[] {
  return settlementDetailHeaders.map((header) => {
    if (header === 'Booked') return { header: `Booked (${timeZone})`, kind: 'datetime' as const, width: 20 };
    if (header === 'Gross' || header === 'Fee' || header === 'Net') return { header: `${header} (${currency})`, kind: 'decimal' as const, width: 14 };
    return { header, kind: 'text' as const, width: header === 'Batch' || header === 'Payout' || header === 'Dispute reason' ? 28 : 18 };
  });
}

export function settlementDetailCells(row: SettlementDetailRow, currency: string, timeZone: string): ReportRow {
  const exponent = currencyExponent(currency);
  const money = (minor: number) => minorUnitsToDecimal(minor, exponent);
  return [
    row.batchId,
    wallClock(row.valueAt, timeZone),
    row.type,
    row.transactionReference,
    row.paymentJobReference,
    row.merchantReference,
    row.paymentMethod,
    row.cardBrand,
    row.cardMasked,
    row.originalPayment,
    row.disputeId,
    row.disputeReason,
    currency,
    money(row.grossMinor),
    money(row.feeMinor),
    money(row.netMinor),
    row.payout ?? 'Not yet paid out',
  ];
}

/** The report as ledger-export.ts hands it to the worker (the shape of its LedgerReport). */
export type SettlementDetailsReport = {
  columns: ReportColumnSpec[];
  sheetName: string;
  heading: PdfHeading;
  batches: AsyncGenerator<ReportRow[]>;
  summary: () => PdfSummary | null;
};

/** A queued settlement details report's rows, or a refusal no retry cures (a file type it is not offered as, a batch gone). */
export async function openSettlementDetails(
  db: Db,
  request: {
    accountNumber: string;
    currency: string;
    fileType: string;
    filters: Record<string, string>;
    start: Date | null;
    end: Date | null;
    timeZone: string;
    batchSize: number;
  },
  heading: SettlementDetailsReport['heading'],
): Promise<SettlementDetailsReport | string> {
  if (request.fileType !== 'csv' && request.fileType !== 'xlsx') return 'Settlement details are offered as CSV or XLSX.';
  const batchId = request.filters.batchId;
  const batches = await settlementDetailBatches(db, request.accountNumber, batchId ? { batchId } : { start: request.start, end: request.end });
  if (batchId && batches.length === 0) return 'The batch no longer exists.';
  const { currency, timeZone } = request;
  const exponent = currencyExponent(currency);
  const sums = { gross: 0, fee: 0, net: 0, rows: 0 };
  async function* rowBatches(): AsyncGenerator<ReportRow[]> {
    for (const batch of batches) {
      const rows = await settlementDetailsOfBatch(db, batch);
      for (let from = 0; from < rows.length; from += request.batchSize) {
        const slice = rows.slice(from, from + request.batchSize);
        for (const row of slice) {
          sums.gross += row.grossMinor;
          sums.fee += row.feeMinor;
          sums.net += row.netMinor;
          sums.rows += 1;
        }
        yield slice.map((row) => settlementDetailCells(row, currency, timeZone));
      }
    }
  }
  const money = (minor: number) => `${minorUnitsToDecimal(minor, exponent)} ${currency}`;
  return {
    columns: settlementDetailColumns(currency, timeZone),
    sheetName: 'Settlement details',
    heading: { ...heading, lines: [...(heading.lines ?? []), batchId ? `Batch ${batchId}` : `${batches.length} batches`] },
    batches: rowBatches(),
    summary: () => ({
      heading: 'Totals',
      lines: [
        ['Rows', String(sums.rows)],
        ['Gross', money(sums.gross)],
        ['Fees', money(sums.fee)],
        ['Net', money(sums.net)],
      ],
    }),
  };
}
