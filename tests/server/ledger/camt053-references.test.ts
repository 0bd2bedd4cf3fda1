// camt.053 entries a bank-reconciliation import can key on: every NtryRef unique within the file (a reserve file's
// releases all begin 'reserveRelease:reserveHold:B3200004', which the 35 characters of NtryRef used to cut them to)
// and traceable to its posting (the whole posting id in AddtlNtryInf, the ledger entry in AcctSvcrRef); the
// transactions summary (TxsSummry) of credits and debits; the statement's electronic sequence number (ElctrncSeqNb),
// one more each month from the account's first. The file stays valid against the ISO 20022 schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { camt053Statement, camtEntryReference, camtSequenceNumber } from '../../../server/ledger/camt053.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';

const xsd = readFileSync(fileURLToPath(new URL('./standards/camt.053.001.08.xsd', import.meta.url)), 'utf8');
const accountNumber = '3B3200004';
const accountId = `${accountNumber}:reserve`;
const october = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-10-31T23:59:59.999Z') };
const createdAt = new Date('2026-11-02T08:00:00Z');

/** September: one hold. October: two holds (credits) and sixteen releases of September's daily holds (debits). */
function reserveEntries(): (typeof schema.ledgerEntries.$inferInsert)[] {
  const entry = (postingId: string, amountMinor: number, valueAt: string) => ({
    postingId,
    accountId,
    businessId: 'B3',
    merchantId: 'M3a',
    category: postingId.split(':')[0] ?? 'reserveHold',
    amountMinor,
    currency: 'GBP',
    valueAt: new Date(valueAt),
  });
  const releases = Array.from({ length: 16 }, (_, index) => {
    const held = String(index + 1).padStart(2, '0');
    return entry(`reserveRelease:reserveHold:B3200004-202609${held}`, -(1000 + index), `2026-10-${String(index + 5).padStart(2, '0')}T00:00:00Z`);
  });
  return [
    entry('reserveHold:B3200004-20260930', 5000, '2026-09-30T12:00:00Z'),
    entry('reserveHold:B3200004-20261001', 2500, '2026-10-02T00:00:00Z'),
    ...releases,
    entry('reserveHold:B3200004-20261030', 777, '2026-10-31T00:00:00Z'),
  ];
}

async function statementXml(database: Database, period: { start: Date | null; end: Date | null }) {
  let xml = '';
  for await (const chunk of camt053Statement(database.db, {
    accountId,
    accountNumber,
    kind: 'reserve',
    currency: 'GBP',
    holder: 'Gamma Deli',
    period,
    createdAt,
    batchSize: 5,
  }))
    xml += chunk;
  return xml;
}
const all = (xml: string, pattern: RegExp) => [...xml.matchAll(pattern)].map((match) => match[1] ?? '');

describe.each(databaseKinds)('camt.053 references, summary and sequence on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(schema.ledgerEntries).values(reserveEntries());
  });
  afterAll(async () => database?.close());

  it('gives every entry its own reference, and the whole posting id beside it', async () => {
    const xml = await statementXml(database, october);
    expect(
      (await validateXML({ xml: [{ fileName: 'statement.xml', contents: xml }], schema: [{ fileName: 'camt.053.001.08.xsd', contents: xsd }] })).errors.map(
        (error) => error.message,
      ),
    ).toEqual([]);
    const references = all(xml, /<NtryRef>([^<]*)<\/NtryRef>/g);
    expect(references).toHaveLength(18);
    expect(new Set(references).size).toBe(18);
    for (const reference of references) expect(reference.length).toBeLessThanOrEqual(35);
    // Each entry leads back to its posting and its ledger entry.
    const rows = await database.query<{ id: string; posting_id: string }>(
      `SELECT id::text, posting_id FROM ledger_entries WHERE account_id = $1 AND value_at >= '2026-10-01' ORDER BY value_at, id`,
      [accountId],
    );
    expect(all(xml, /<AddtlNtryInf>([^<]*)<\/AddtlNtryInf>/g)).toEqual(rows.map((row) => row.posting_id));
    expect(all(xml, /<AcctSvcrRef>([^<]*)<\/AcctSvcrRef>/g)).toEqual(rows.map((row) => row.id));
    expect(references).toEqual(rows.map((row) => camtEntryReference(row.posting_id, Number(row.id))));
    // A reference reads as its posting: the posting id it begins with, as far as it fits.
    expect(references[0]).toMatch(/^reserveHold:B3200004-20261001#\d+$/);
    expect(references[1]).toMatch(/^reserveRelease:reserveHold:B3\d*#\d+$/);
  });

  it('keeps references within 35 characters and unique for posting ids that share their first 35', () => {
    const long = 'reserveRelease:reserveHold:B3200004-2026090';
    const references = [1, 2, 12_345_678_901].map((id) => camtEntryReference(`${long}${id}`, id));
    expect(new Set(references).size).toBe(3);
    for (const reference of references) expect(reference.length).toBeLessThanOrEqual(35);
    expect(camtEntryReference('sale:TX0A1B2C3D4E', 42)).toBe('sale:TX0A1B2C3D4E#42');
  });

  it('sums up the credits and debits in TxsSummry, and they reconcile with the balances', async () => {
    const xml = await statementXml(database, october);
    const debitsMinor = Array.from({ length: 16 }, (_, index) => 1000 + index).reduce((sum, amount) => sum + amount, 0);
    const creditsMinor = 2500 + 777;
    const money = (minor: number) => (minor / 100).toFixed(2);
    expect(xml).toContain(
      `<TxsSummry><TtlNtries><NbOfNtries>18</NbOfNtries><Sum>${money(creditsMinor + debitsMinor)}</Sum>` +
        `<TtlNetNtry><Amt>${money(debitsMinor - creditsMinor)}</Amt><CdtDbtInd>DBIT</CdtDbtInd></TtlNetNtry></TtlNtries>` +
        `<TtlCdtNtries><NbOfNtries>2</NbOfNtries><Sum>${money(creditsMinor)}</Sum></TtlCdtNtries>` +
        `<TtlDbtNtries><NbOfNtries>16</NbOfNtries><Sum>${money(debitsMinor)}</Sum></TtlDbtNtries></TxsSummry>`,
    );
    // Opening 50.00 (September's hold) + credits − debits = closing.
    expect(xml).toContain(`<Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="GBP">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>`);
    const closing = 5000 + creditsMinor - debitsMinor;
    expect(xml).toContain(
      `<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="GBP">${money(Math.abs(closing))}</Amt><CdtDbtInd>${closing < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
    );
  });

  it("numbers the statements month by month from the account's first", async () => {
    const sequence = async (start: string, end: string) =>
      /<ElctrncSeqNb>(\d+)<\/ElctrncSeqNb>/.exec(await statementXml(database, { start: new Date(start), end: new Date(end) }))?.[1];
    expect(await sequence('2026-09-01T00:00:00Z', '2026-09-30T23:59:59.999Z')).toBe('1');
    expect(await sequence('2026-10-01T00:00:00Z', '2026-10-31T23:59:59.999Z')).toBe('2');
    // November has no entries yet: still the next number, so a statement missing in between shows as a gap.
    expect(await sequence('2026-11-01T00:00:00Z', '2026-11-30T23:59:59.999Z')).toBe('3');
    // A month cut in London (an hour before UTC midnight in summer time) is the same month.
    expect(await sequence('2026-09-30T23:00:00Z', '2026-10-31T23:59:59.999Z')).toBe('2');
  });

  it("numbers by the period's middle, and an account without entries starts at one", () => {
    const first = new Date('2025-12-15T10:00:00Z');
    expect(camtSequenceNumber({ start: new Date('2026-01-31T23:00:00Z'), end: new Date('2026-02-28T22:59:59Z') }, createdAt, first)).toBe(3);
    expect(camtSequenceNumber({ start: new Date('2026-02-01T05:00:00Z'), end: new Date('2026-03-01T04:59:59Z') }, createdAt, first)).toBe(3);
    expect(camtSequenceNumber({ start: null, end: null }, new Date('2026-02-10T00:00:00Z'), first)).toBe(3);
    expect(camtSequenceNumber(october, createdAt, null)).toBe(1);
  });
});
