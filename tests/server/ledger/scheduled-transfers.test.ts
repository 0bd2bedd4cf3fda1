// A transfer is booked when it happens. The cut-off after a settlement day pays the day's net to the remittance account
// and schedules its transfer to the bank for the next day: until that day the transfer is scheduled (a transfers row, a
// pending entry in camt.053 with its value date ahead) and is in no balance and no booked entry; the first cut-off on
// or after its day books it. So the remittance account's statement closes at its balance, and no file lists as booked
// an entry dated after the file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantAccountNumber } from '../../../src/contract/ledger.ts';
import type { Database } from '../../../server/db/client.ts';
import { camt053Statement } from '../../../server/ledger/camt053.ts';
import { closeDueBatches } from '../../../server/ledger/close-batches.ts';
import { postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { balanceOf, readStatement } from '../../../server/ledger/statement.ts';
import { createTestDatabase, databaseKinds, insertFixtureWorld } from '../support.ts';

const xsd = readFileSync(fileURLToPath(new URL('./standards/camt.053.001.08.xsd', import.meta.url)), 'utf8');
const accountNumber = merchantAccountNumber('M3a', 'GBP');
const remittance = `${accountNumber}:remittance`;
const november = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-11-30T23:59:59.999Z') };
// The sale on 10 November; the cut-off just after midnight pays it out (value 11 November 00:00) and schedules the
// transfer for 12 November 00:00.
const saleAt = new Date('2026-11-10T10:00:00Z');
const firstCutOff = new Date('2026-11-11T00:05:00Z');
const transferDay = new Date('2026-11-12T00:00:00Z');
const secondCutOff = new Date('2026-11-12T00:05:00Z');

async function camt(database: Database, createdAt: Date) {
  let xml = '';
  for await (const chunk of camt053Statement(database.db, {
    accountId: remittance,
    accountNumber,
    kind: 'remittance',
    currency: 'GBP',
    holder: 'Gamma Deli',
    period: november,
    createdAt,
  }))
    xml += chunk;
  return xml;
}
const balanceIn = (xml: string, code: 'OPBD' | 'CLBD') => {
  const match = new RegExp(`<Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="GBP">([0-9.]+)</Amt><CdtDbtInd>(CRDT|DBIT)</CdtDbtInd>`).exec(xml);
  return match ? Math.round(Number(match[1]) * 100) * (match[2] === 'DBIT' ? -1 : 1) : Number.NaN;
};

describe.each(databaseKinds)('transfers booked when they happen on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await database.db.transaction((tx) =>
      postTransactionChanges(
        tx,
        [
          {
            before: null,
            after: {
              reference: 'TXS1',
              kind: 'payment',
              parentReference: null,
              status: 'paid',
              amountMinor: 48_599,
              currency: 'GBP',
              createdAt: saleAt,
              merchantId: 'M3a',
              businessId: 'B3',
              partnerId: null,
              declineReason: null,
            },
          },
        ],
        { now: saleAt },
      ),
    );
    await database.db.transaction((tx) => closeDueBatches(tx, firstCutOff));
  });
  afterAll(async () => database?.close());

  it('books nothing ahead of the cut-off: the transfer is scheduled, not posted', async () => {
    const ahead = await database.query(`SELECT posting_id, value_at FROM ledger_entries WHERE value_at > $1`, [firstCutOff]);
    expect(ahead).toEqual([]);
    const transfers = await database.query<{ transfer_date: Date; amount_minor: string }>(
      `SELECT transfer_date, amount_minor::text FROM ledger_transfers WHERE account_number = $1`,
      [accountNumber],
    );
    expect(transfers).toHaveLength(1);
    expect(new Date(transfers[0]?.transfer_date ?? 0).toISOString()).toBe(transferDay.toISOString());
  });

  it("closes the remittance account's month at its balance, the scheduled transfer pending in camt.053", async () => {
    const balance = await balanceOf(database.db, remittance);
    expect(balance).toBeGreaterThan(0);
    const statement = await readStatement(database.db, {
      accountId: remittance,
      period: november,
      sort: { field: 'date', descending: false },
      limit: 100,
      offset: 0,
    });
    expect(statement.closingBalanceMinor).toBe(balance);
    const xml = await camt(database, new Date('2026-11-11T08:00:00Z'));
    expect(
      (await validateXML({ xml: [{ fileName: 'statement.xml', contents: xml }], schema: [{ fileName: 'camt.053.001.08.xsd', contents: xsd }] })).errors.map(
        (error) => error.message,
      ),
    ).toEqual([]);
    expect(balanceIn(xml, 'CLBD')).toBe(balance);
    const entries = [...xml.matchAll(/<Ntry>(.*?)<\/Ntry>/g)].map((match) => match[1] ?? '');
    const booked = entries.filter((entry) => entry.includes('<Sts><Cd>BOOK</Cd></Sts>'));
    const pending = entries.filter((entry) => entry.includes('<Sts><Cd>PDNG</Cd></Sts>'));
    // Booked: the payout only, dated no later than the file.
    expect(booked).toHaveLength(1);
    for (const entry of booked) expect((/<BookgDt><DtTm>([^<]+)<\/DtTm>/.exec(entry)?.[1] ?? '9999') <= '2026-11-11T08:00:00.000Z').toBe(true);
    // Pending: the transfer, a debit of the whole balance on its day, without a booking date.
    expect(pending).toHaveLength(1);
    expect(pending[0]).toContain(`<Amt Ccy="GBP">${(balance / 100).toFixed(2)}</Amt><CdtDbtInd>DBIT</CdtDbtInd>`);
    expect(pending[0]).toContain('<ValDt><Dt>2026-11-12</Dt></ValDt>');
    expect(pending[0]).not.toContain('<BookgDt>');
    // The summary counts what is booked.
    expect(xml).toContain('<TtlNtries><NbOfNtries>1</NbOfNtries>');
  });

  it('books the transfer at the first cut-off on its day, and then the month closes at zero with nothing pending', async () => {
    await database.db.transaction((tx) => closeDueBatches(tx, secondCutOff));
    const [transfer] = await database.query<{ value_at: Date }>(`SELECT value_at FROM ledger_postings WHERE category = 'transfer' AND id LIKE $1`, [
      `transfer:B${accountNumber}-%`,
    ]);
    expect(new Date(transfer?.value_at ?? 0).toISOString()).toBe(transferDay.toISOString());
    expect(await balanceOf(database.db, remittance)).toBe(0);
    const xml = await camt(database, new Date('2026-11-12T08:00:00Z'));
    expect(balanceIn(xml, 'CLBD')).toBe(0);
    expect(xml).not.toContain('<Cd>PDNG</Cd>');
    expect(xml.match(/<Cd>BOOK<\/Cd>/g)).toHaveLength(2);
    // Booked once, however often the cut-off runs.
    await database.db.transaction((tx) => closeDueBatches(tx, new Date('2026-11-13T00:05:00Z')));
    const trial = await database.query(`SELECT currency FROM ledger_entries GROUP BY currency HAVING sum(amount_minor) <> 0`);
    expect(trial).toEqual([]);
    expect(await database.query(`SELECT id FROM ledger_postings WHERE category = 'transfer'`)).toHaveLength(1);
  });
});
