// An account statement as ISO 20022 camt.053.001.08 (BankToCustomerStatement), the format accounting software
// imports: one Stmt with the account (its number as a proprietary id), the opening (OPBD) and closing (CLBD) booked
// balances of the period, and one booked Ntry per movement (absolute amount with CRDT/DBIT, value date, a
// proprietary transaction code naming the category, the transaction reference). Streamed: entries are read in keyset
// batches and written as they come. tests/server/ledger/camt053.test.ts validates the output against the XSD.
import { and, asc, eq, gt, gte, lte, or, sql } from 'drizzle-orm';
import { accountKindLabels, type StatementAccountKind } from '../../src/contract/ledger.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { ledgerEntries } from '../db/schema.ts';
import type { Period } from './statement.ts';
import { readStatement } from './statement.ts';

export const camt053Namespace = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] as string);

/** Minor units → an absolute decimal with the currency's places, and the credit/debit indicator. */
export function camtAmount(amountMinor: number, currency: string): { amount: string; indicator: 'CRDT' | 'DBIT' } {
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  const amount = exponent > 0 ? `${digits.slice(0, digits.length - exponent)}.${digits.slice(digits.length - exponent)}` : digits;
  return { amount, indicator: amountMinor < 0 ? 'DBIT' : 'CRDT' };
}

export type Camt053Request = {
  accountId: string;
  accountNumber: string;
  kind: StatementAccountKind;
  currency: string;
  holder: string;
  period: Period;
  createdAt: Date;
  batchSize?: number;
};

const day = (instant: Date) => instant.toISOString().slice(0, 10);

/** The entries written do not add up: opening balance + entries ≠ closing balance (a posting landed while reading). */
export class CamtReconciliationError extends Error {}

/**
 * Yields the file in pieces. Without an end date the period ends at createdAt, so postings made while it is read
 * stay out of it; after the last entry the file is checked: opening balance + the entries written = closing
 * balance, else CamtReconciliationError (the file must not be used; a report is tried again).
 */
export async function* camt053Statement(db: Db, request: Camt053Request): AsyncGenerator<string> {
  const { accountId, accountNumber, currency } = request;
  const period: Period = { start: request.period.start, end: request.period.end ?? request.createdAt };
  const batchSize = request.batchSize ?? 2000;
  const summary = await readStatement(db, { accountId, period, sort: { field: 'date', descending: false }, limit: 1, offset: 0 });
  const stamp = request.createdAt.toISOString();
  const id = `${accountNumber}-${day(period.start ?? request.createdAt).replaceAll('-', '')}-${request.createdAt.getTime().toString(36).toUpperCase()}`.slice(0, 35);
  const balance = (code: 'OPBD' | 'CLBD', minor: number, at: Date) => {
    const { amount, indicator } = camtAmount(minor, currency);
    return `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>${day(at)}</Dt></Dt></Bal>`;
  };
  const openingDate = period.start ?? request.createdAt;
  const closingDate = period.end && period.end < request.createdAt ? period.end : request.createdAt;
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${camt053Namespace}"><BkToCstmrStmt>`;
  yield `<GrpHdr><MsgId>${escapeXml(id)}</MsgId><CreDtTm>${stamp}</CreDtTm></GrpHdr>`;
  yield `<Stmt><Id>${escapeXml(id)}</Id><CreDtTm>${stamp}</CreDtTm>`;
  if (period.start && period.end) yield `<FrToDt><FrDtTm>${period.start.toISOString()}</FrDtTm><ToDtTm>${period.end.toISOString()}</ToDtTm></FrToDt>`;
  yield `<Acct><Id><Othr><Id>${escapeXml(accountNumber)}</Id><SchmeNm><Prtry>${escapeXml(accountKindLabels[request.kind])}</Prtry></SchmeNm></Othr></Id><Ccy>${currency}</Ccy><Nm>${escapeXml(request.holder.slice(0, 70))}</Nm></Acct>`;
  yield balance('OPBD', summary.openingBalanceMinor, openingDate);
  yield balance('CLBD', summary.closingBalanceMinor, closingDate);
  let after: { valueAt: string; id: number } | null = null;
  let entriesMinor = 0;
  let entries = 0;
  for (;;) {
    const rows: { id: number; valueAt: Date; valueAtExact: string; category: string; amountMinor: number; transactionReference: string | null; postingId: string }[] = await db.select({
      id: ledgerEntries.id, valueAt: ledgerEntries.valueAt, valueAtExact: sql<string>`${ledgerEntries.valueAt}::text`, category: ledgerEntries.category,
      amountMinor: ledgerEntries.amountMinor, transactionReference: ledgerEntries.transactionReference, postingId: ledgerEntries.postingId,
    }).from(ledgerEntries).where(and(
      eq(ledgerEntries.accountId, accountId),
      period.start ? gte(ledgerEntries.valueAt, period.start) : undefined,
      period.end ? lte(ledgerEntries.valueAt, period.end) : undefined,
      after ? or(gt(ledgerEntries.valueAt, sql`${after.valueAt}::timestamptz`), and(eq(ledgerEntries.valueAt, sql`${after.valueAt}::timestamptz`), gt(ledgerEntries.id, after.id))) : undefined,
    )).orderBy(asc(ledgerEntries.valueAt), asc(ledgerEntries.id)).limit(batchSize);
    yield rows.map((row) => {
      entriesMinor += Number(row.amountMinor);
      entries += 1;
      const { amount, indicator } = camtAmount(Number(row.amountMinor), currency);
      const reference = row.transactionReference ? `<NtryDtls><TxDtls><Refs><EndToEndId>${escapeXml(row.transactionReference.slice(0, 35))}</EndToEndId></Refs></TxDtls></NtryDtls>` : '';
      return `<Ntry><NtryRef>${escapeXml(row.postingId.slice(0, 35))}</NtryRef><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>`
        + `<BookgDt><DtTm>${row.valueAt.toISOString()}</DtTm></BookgDt><ValDt><Dt>${day(row.valueAt)}</Dt></ValDt><AcctSvcrRef>${Number(row.id)}</AcctSvcrRef>`
        + `<BkTxCd><Prtry><Cd>${escapeXml(row.category)}</Cd><Issr>Portal</Issr></Prtry></BkTxCd>${reference}</Ntry>`;
    }).join('');
    const last = rows[rows.length - 1];
    if (rows.length < batchSize || !last) break;
    after = { valueAt: last.valueAtExact, id: Number(last.id) };
  }
  if (summary.openingBalanceMinor + entriesMinor !== summary.closingBalanceMinor || entries !== summary.numberOfResults) {
    throw new CamtReconciliationError(`The statement does not reconcile: opening ${summary.openingBalanceMinor} + ${entries} entries of ${entriesMinor} ≠ closing ${summary.closingBalanceMinor} (${summary.numberOfResults} entries) in minor units.`);
  }
  yield '</Stmt></BkToCstmrStmt></Document>\n';
}
