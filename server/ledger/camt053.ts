// An account statement as ISO 20022 camt.053.001.08 (BankToCustomerStatement), the format accounting software
// imports: one Stmt with its electronic sequence number (ElctrncSeqNb: the statement's month counted from the
// account's first month, so month after month it goes up by one and a missing statement shows as a gap), the account
// (its number as a proprietary id), the opening (OPBD) and closing (CLBD) booked balances of the period, the
// transactions summary (TxsSummry: number and sum of all, credit and debit entries, and the net), and one booked Ntry
// per movement (absolute amount with CRDT/DBIT, value date, a proprietary transaction code naming the category, the
// transaction reference). An entry's NtryRef is unique within the file and short enough for the schema's 35
// characters: the posting id (cut where it is too long) and the ledger entry's id, which no other entry has; the whole
// posting id is in AddtlNtryInf and the entry's id in AcctSvcrRef, so every entry leads back to its posting. An entry is
// booked when it happens: a remittance account's transfer to the bank, scheduled at a cut-off for a later day, is
// listed after the booked entries as pending (PDNG, its value date ahead, no booking date) and counts in neither the
// balances nor the summary until the cut-off of its day books it. Streamed: entries are read in keyset batches and
// written as they come. tests/server/ledger/camt053.test.ts validates the output against the XSD.
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { accountKindLabels, type StatementAccountKind } from '../../src/contract/ledger.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import type { Db } from '../db/client.ts';
import { ledgerEntries, ledgerPostings, ledgerTransfers } from '../db/schema.ts';
import type { Period } from './statement.ts';
import { readStatement } from './statement.ts';
import { checkpointZone, periodCheckpoints } from './daily-balances.ts';
import { defaultBusinessTimeZone, localDateTime, zonedClock } from './periods.ts';
import { remittanceText, transferIdOfPosting } from './remittance-text.ts';

export const camt053Namespace = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';

const xmlSpecial = /[<>&'"]/;
const xmlEntities: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
// Most values have nothing to escape: tested first, they are returned as they are.
const escapeXml = (value: string) => (xmlSpecial.test(value) ? value.replace(/[<>&'"]/g, (char) => xmlEntities[char] as string) : value);

/** Minor units → the absolute decimal with the currency's places, the currency's exponent looked up once. */
function camtAmountFormat(currency: string): (amountMinor: number) => string {
  const exponent = currencyExponent(currency);
  return (amountMinor) => {
    const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
    return exponent > 0 ? `${digits.slice(0, digits.length - exponent)}.${digits.slice(digits.length - exponent)}` : digits;
  };
}

/** Minor units → an absolute decimal with the currency's places, and the credit/debit indicator. */
export function camtAmount(amountMinor: number, currency: string): { amount: string; indicator: 'CRDT' | 'DBIT' } {
  return { amount: camtAmountFormat(currency)(amountMinor), indicator: amountMinor < 0 ? 'DBIT' : 'CRDT' };
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
  /** The business's time zone (default: read from the account's business): its days are the file's dates. */
  timeZone?: string;
};

/** The time zone of a ledger account's business (the default for the provider's own accounts). */
async function accountTimeZone(db: Db, accountId: string): Promise<string> {
  const rows = (await db.execute(
    sql`SELECT b.time_zone FROM ledger_accounts a JOIN businesses b ON b.id = a.business_id WHERE a.id = ${accountId}`,
  )) as unknown as { rows?: { time_zone: string }[] } | { time_zone: string }[];
  const [row] = Array.isArray(rows) ? rows : (rows.rows ?? []);
  return row?.time_zone ?? defaultBusinessTimeZone;
}

/** The length of text after which the entries written so far are handed on (UTF-16 code units, about 32 KiB). */
const pieceLength = 32_768;

/** The schema's limit for NtryRef (Max35Text). */
const maxReferenceLength = 35;

/**
 * An entry's NtryRef: '{posting id}#{entry id}', the posting id cut so that the whole fits in 35 characters. The entry
 * id is the ledger's own key, so no two entries of a file (or of any file) share a reference, however alike their
 * posting ids begin ('reserveRelease:reserveHold:B3200004-…').
 */
export function camtEntryReference(postingId: string, entryId: number): string {
  const suffix = `#${entryId}`;
  return `${postingId.slice(0, Math.max(0, maxReferenceLength - suffix.length))}${suffix}`;
}

const monthIndex = (instant: Date) => instant.getUTCFullYear() * 12 + instant.getUTCMonth();

/**
 * The statement's electronic sequence number: 1 for the month of the account's first entry, one more for each month
 * after. A period's month is the month of its middle, so a calendar month cut in any zone (a few hours either side of
 * UTC midnight) counts as itself.
 */
export function camtSequenceNumber(period: Period, createdAt: Date, firstEntryAt: Date | null): number {
  const at = period.start && period.end ? new Date((period.start.getTime() + period.end.getTime()) / 2) : (period.start ?? period.end ?? createdAt);
  if (!firstEntryAt) return 1;
  return Math.max(1, monthIndex(at) - monthIndex(firstEntryAt) + 1);
}

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
  const inPeriod = and(
    eq(ledgerEntries.accountId, accountId),
    period.start ? gte(ledgerEntries.valueAt, period.start) : undefined,
    period.end ? lte(ledgerEntries.valueAt, period.end) : undefined,
  );
  // The credits and debits of the period: from the day checkpoints where the account keeps them (daily-balances.ts).
  const periodTotals = async () => {
    const checkpoints = await checkpointZone(db, accountId);
    return checkpoints !== null
      ? (
          (await db.execute(sql`SELECT coalesce(sum(p.credits), 0) AS credits, coalesce(sum(p.credits_minor), 0) AS "creditsMinor",
          coalesce(sum(p.debits), 0) AS debits, coalesce(-sum(p.debits_minor), 0) AS "debitsMinor" FROM (${periodCheckpoints(accountId, checkpoints, period)}) p`)) as unknown as {
            rows: { credits: string; creditsMinor: string; debits: string; debitsMinor: string }[];
          }
        ).rows
      : await db
          .select({
            credits: sql<string>`count(*) FILTER (WHERE ${ledgerEntries.amountMinor} >= 0)`,
            creditsMinor: sql<string>`coalesce(sum(${ledgerEntries.amountMinor}) FILTER (WHERE ${ledgerEntries.amountMinor} >= 0), 0)`,
            debits: sql<string>`count(*) FILTER (WHERE ${ledgerEntries.amountMinor} < 0)`,
            debitsMinor: sql<string>`coalesce(-sum(${ledgerEntries.amountMinor}) FILTER (WHERE ${ledgerEntries.amountMinor} < 0), 0)`,
          })
          .from(ledgerEntries)
          .where(inPeriod);
  };
  // The zone, the balances, the totals and the account's first entry are read side by side (each on a connection of
  // its own where the driver has a pool); whatever lands between their reads fails the check after the last entry.
  const [zone, summary, [totals], [first]] = await Promise.all([
    request.timeZone ?? accountTimeZone(db, accountId),
    readStatement(db, { accountId, period, sort: { field: 'date', descending: false }, limit: 1, offset: 0 }),
    periodTotals(),
    db
      .select({ valueAt: ledgerEntries.valueAt })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, accountId))
      .orderBy(asc(ledgerEntries.valueAt))
      .limit(1),
  ]);
  // Every date of the file is a day of the business's zone, and every date-time says its offset from UTC.
  const clock = zonedClock(zone);
  const day = clock.day;
  const credits = { count: Number(totals?.credits ?? 0), minor: Number(totals?.creditsMinor ?? 0) };
  const debits = { count: Number(totals?.debits ?? 0), minor: Number(totals?.debitsMinor ?? 0) };
  const sequenceNumber = camtSequenceNumber(period, request.createdAt, first?.valueAt ?? null);
  const stamp = request.createdAt.toISOString();
  const id = `${accountNumber}-${day(period.start ?? request.createdAt).replaceAll('-', '')}-${request.createdAt.getTime().toString(36).toUpperCase()}`.slice(
    0,
    35,
  );
  const balance = (code: 'OPBD' | 'CLBD', minor: number, at: Date) => {
    const { amount, indicator } = camtAmount(minor, currency);
    return `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>${day(at)}</Dt></Dt></Bal>`;
  };
  const openingDate = period.start ?? request.createdAt;
  const closingDate = period.end && period.end < request.createdAt ? period.end : request.createdAt;
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${camt053Namespace}"><BkToCstmrStmt>`;
  yield `<GrpHdr><MsgId>${escapeXml(id)}</MsgId><CreDtTm>${stamp}</CreDtTm></GrpHdr>`;
  yield `<Stmt><Id>${escapeXml(id)}</Id><ElctrncSeqNb>${sequenceNumber}</ElctrncSeqNb><CreDtTm>${stamp}</CreDtTm>`;
  if (period.start && period.end)
    yield `<FrToDt><FrDtTm>${localDateTime(period.start, zone)}</FrDtTm><ToDtTm>${localDateTime(period.end, zone)}</ToDtTm></FrToDt>`;
  yield `<Acct><Id><Othr><Id>${escapeXml(accountNumber)}</Id><SchmeNm><Prtry>${escapeXml(accountKindLabels[request.kind])}</Prtry></SchmeNm></Othr></Id><Ccy>${currency}</Ccy><Nm>${escapeXml(request.holder.slice(0, 70))}</Nm></Acct>`;
  yield balance('OPBD', summary.openingBalanceMinor, openingDate);
  yield balance('CLBD', summary.closingBalanceMinor, closingDate);
  const decimal = (minor: number) => camtAmount(minor, currency).amount;
  const net = camtAmount(credits.minor - debits.minor, currency);
  yield `<TxsSummry><TtlNtries><NbOfNtries>${credits.count + debits.count}</NbOfNtries><Sum>${decimal(credits.minor + debits.minor)}</Sum>` +
    `<TtlNetNtry><Amt>${net.amount}</Amt><CdtDbtInd>${net.indicator}</CdtDbtInd></TtlNetNtry></TtlNtries>` +
    `<TtlCdtNtries><NbOfNtries>${credits.count}</NbOfNtries><Sum>${decimal(credits.minor)}</Sum></TtlCdtNtries>` +
    `<TtlDbtNtries><NbOfNtries>${debits.count}</NbOfNtries><Sum>${decimal(debits.minor)}</Sum></TtlDbtNtries></TxsSummry>`;
  let entriesMinor = 0;
  let entries = 0;
  const written = { credits: 0, creditsMinor: 0, debits: 0, debitsMinor: 0 };
  // One keyset batch of the period's entries, in the order of the account's (account, value_at, id) index: the row
  // comparison reads on from the last entry through the index (an OR of the two cases read every later entry and
  // sorted them, batch after batch). Raw rows, without the ORM's mapping: both drivers hand timestamps over as
  // PostgreSQL's text (db/text-types.ts), exact to the microsecond for the next batch's key, and read as a Date the
  // way the ORM reads them.
  type EntryRow = {
    id: number | string;
    valueAt: string;
    category: string;
    amount: number | string;
    reference: string | null;
    posting: string;
    business: string;
  };
  const batch = async (after: { valueAt: string; id: number } | null): Promise<EntryRow[]> =>
    (
      (await db.execute(sql`SELECT ${ledgerEntries.id} AS id,
      ${ledgerEntries.valueAt} AS "valueAt", ${ledgerEntries.category} AS category, ${ledgerEntries.amountMinor} AS amount,
      ${ledgerEntries.transactionReference} AS reference, ${ledgerEntries.postingId} AS posting, ${ledgerEntries.businessId} AS business
    FROM ${ledgerEntries} WHERE ${and(inPeriod, after ? sql`(${ledgerEntries.valueAt}, ${ledgerEntries.id}) > (${after.valueAt}::timestamptz, ${after.id}::bigint)` : undefined)}
    ORDER BY ${ledgerEntries.valueAt}, ${ledgerEntries.id} LIMIT ${batchSize}`)) as unknown as { rows: EntryRow[] }
    ).rows;
  const amountText = camtAmountFormat(currency);
  const amountOpen = `<Amt Ccy="${currency}">`;
  // A handful of categories: each escaped once.
  const categoryCodes = new Map<string, string>();
  const entryXml = (row: EntryRow) => {
    const amountMinor = Number(row.amount);
    const id = Number(row.id);
    entriesMinor += amountMinor;
    entries += 1;
    let indicator: string;
    if (amountMinor >= 0) {
      written.credits += 1;
      written.creditsMinor += amountMinor;
      indicator = 'CRDT';
    } else {
      written.debits += 1;
      written.debitsMinor -= amountMinor;
      indicator = 'DBIT';
    }
    const valueAt = new Date(row.valueAt);
    const dateTime = clock.dateTime(valueAt);
    let code = categoryCodes.get(row.category);
    if (code === undefined) {
      code = `<BkTxCd><Prtry><Cd>${escapeXml(row.category)}</Cd><Issr>Portal</Issr></Prtry></BkTxCd>`;
      categoryCodes.set(row.category, code);
    }
    const reference = row.reference
      ? `<NtryDtls><TxDtls><Refs><EndToEndId>${escapeXml(row.reference.slice(0, 35))}</EndToEndId></Refs></TxDtls></NtryDtls>`
      : '';
    // A transfer to the bank carries the remittance text the beneficiary's bank statement shows (remittance-text.ts).
    const transferId = row.category === 'transfer' ? transferIdOfPosting(row.posting) : null;
    const remittance = transferId
      ? `<NtryDtls><TxDtls><RmtInf><Ustrd>${escapeXml(remittanceText({ id: transferId, businessId: row.business, transferDate: valueAt }))}</Ustrd></RmtInf></TxDtls></NtryDtls>`
      : '';
    // The value date is the booking date-time's day (zonedClock's day and dateTime read the same local instant).
    return (
      `<Ntry><NtryRef>${escapeXml(camtEntryReference(row.posting, id))}</NtryRef>${amountOpen}${amountText(amountMinor)}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
      `<BookgDt><DtTm>${dateTime}</DtTm></BookgDt><ValDt><Dt>${dateTime.slice(0, dateTime.indexOf('T'))}</Dt></ValDt><AcctSvcrRef>${id}</AcctSvcrRef>` +
      `${code}${reference}${remittance}<AddtlNtryInf>${escapeXml(row.posting.length > 500 ? row.posting.slice(0, 500) : row.posting)}</AddtlNtryInf></Ntry>`
    );
  };
  // The next batch is asked for as soon as this one's last key is known, so the database reads it while this one is
  // written out (a reader that stops early leaves it to settle unread). The entries go out in pieces of about 32 KiB:
  // a batch's whole text in one string (a megabyte) cost more to hand over and encode than its entries to write.
  let pending = batch(null);
  for (;;) {
    const rows = await pending;
    const last = rows[rows.length - 1];
    const more = rows.length >= batchSize && last !== undefined;
    if (more) {
      pending = batch({ valueAt: last.valueAt, id: Number(last.id) });
      pending.catch(() => undefined);
    }
    let xml = '';
    for (const row of rows) {
      xml += entryXml(row);
      if (xml.length >= pieceLength) {
        yield xml;
        xml = '';
      }
    }
    yield xml;
    if (!more) break;
  }
  const summaryHolds =
    written.credits === credits.count && written.creditsMinor === credits.minor && written.debits === debits.count && written.debitsMinor === debits.minor;
  if (summary.openingBalanceMinor + entriesMinor !== summary.closingBalanceMinor || entries !== summary.numberOfResults || !summaryHolds) {
    throw new CamtReconciliationError(
      `The statement does not reconcile: opening ${summary.openingBalanceMinor} + ${entries} entries of ${entriesMinor} ≠ closing ${summary.closingBalanceMinor} (${summary.numberOfResults} entries) in minor units.`,
    );
  }
  if (request.kind === 'remittance') {
    // Transfers scheduled by a payout of the period (the day before the transfer) and not booked yet.
    const scheduled = await db
      .select({
        id: ledgerTransfers.id,
        batchId: ledgerTransfers.batchId,
        transferDate: ledgerTransfers.transferDate,
        amountMinor: ledgerTransfers.amountMinor,
      })
      .from(ledgerTransfers)
      .where(
        and(
          eq(ledgerTransfers.accountNumber, accountNumber),
          eq(ledgerTransfers.groupKind, 'merchant'),
          period.start ? gte(ledgerTransfers.transferDate, sql`${period.start}::timestamptz + interval '1 day'`) : undefined,
          period.end ? lte(ledgerTransfers.transferDate, sql`${period.end}::timestamptz + interval '1 day'`) : undefined,
          sql`NOT EXISTS (SELECT 1 FROM ${ledgerPostings} p WHERE p.id = 'transfer:' || ${ledgerTransfers.batchId})`,
        ),
      )
      .orderBy(asc(ledgerTransfers.transferDate), asc(ledgerTransfers.id));
    yield scheduled
      .map((row) => {
        const { amount, indicator } = camtAmount(-Number(row.amountMinor), currency);
        return (
          `<Ntry><NtryRef>${escapeXml(row.id.slice(0, maxReferenceLength))}</NtryRef><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts>` +
          `<ValDt><Dt>${day(row.transferDate)}</Dt></ValDt><AcctSvcrRef>${escapeXml(row.id.slice(0, maxReferenceLength))}</AcctSvcrRef>` +
          `<BkTxCd><Prtry><Cd>transfer</Cd><Issr>Portal</Issr></Prtry></BkTxCd><AddtlNtryInf>${escapeXml(`Scheduled: transfer:${row.batchId ?? row.id}`)}</AddtlNtryInf></Ntry>`
        );
      })
      .join('');
  }
  yield `<AddtlStmtInf>${escapeXml(`Dates and times in ${zone}`)}</AddtlStmtInf></Stmt></BkToCstmrStmt></Document>\n`;
}
