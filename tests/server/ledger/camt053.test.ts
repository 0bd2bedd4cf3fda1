// Statements as ISO 20022 camt.053.001.08: every file the API generates here validates against the XSD in
// ../shared/standards (copied to tests/server/ledger/standards), and its balances are the statement's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { camtAmount, camt053Statement, CamtReconciliationError } from '../../../server/ledger/camt053.ts';
import { groupAccountId } from '../../../server/ledger/post-transactions.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { openTestFileStore, reportRow, type TestFileStore } from '../reports/report-support.ts';
import { accountStatement } from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld } from '../support.ts';
import { b2Eur, insertLedgerFixture, m1aGbp, m1bGbp } from './ledger-fixtures.ts';

// The ISO 20022 schema, copied into the repository from ../shared/standards (a clean clone in CI has no ../shared).
const xsd = readFileSync(fileURLToPath(new URL('./standards/camt.053.001.08.xsd', import.meta.url)), 'utf8');
const { users } = fixture;
const october = encodeURIComponent('[gte]2026-10-01[and][lte]2026-10-31');

async function validate(xml: string) {
  return validateXML({ xml: [{ fileName: 'statement.xml', contents: xml }], schema: [{ fileName: 'camt.053.001.08.xsd', contents: xsd }] });
}

describe('camt.053 statements (PGlite)', () => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let store: TestFileStore;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  it.each([
    ['trading', users.partner, `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading`],
    ['business account', users.finance, `/businesses/B2/business-accountgroups/${b2Eur}/statement`],
  ])(
    "the %s statement as camt.053 through the report queue: generated, valid against the XSD, downloaded from My reports with the statement's balances",
    async (_name, user, path) => {
      const queued = await call(user, 'POST', `${path}/reports`, { fileType: 'xml', filters: { date: '[gte]2026-10-01[and][lte]2026-10-31' } });
      expect(queued.status, await queued.clone().text()).toBe(202);
      const { reportId } = (await queued.json()) as { reportId: string };
      expect(await runNextReport({ database, files: store.files, nodeId: 'node-camt', log: () => undefined })).toBe('generated');
      expect((await reportRow(database, reportId)).fileType).toBe('xml');
      const listed = (await (await call(user, 'GET', '/reports')).json()) as { results: { id: string; fileName: string | null; state: string }[] };
      expect(listed.results.find((report) => report.id === reportId)).toMatchObject({ state: 'generated', fileName: expect.stringMatching(/\.xml$/) });
      const download = await call(user, 'GET', `/reports/${reportId}/download`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toMatch(/^application\/xml/);
      const xml = await download.text();
      expect((await validate(xml)).errors.map((error) => error.message)).toEqual([]);
      const statement = accountStatement.assert(await (await call(user, 'GET', `${path}?date=${october}&pagesize=100`)).json());
      const balance = (code: string) =>
        new RegExp(`<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="[A-Z]{3}">([0-9.]+)</Amt><CdtDbtInd>(CRDT|DBIT)</CdtDbtInd>`).exec(xml);
      const signed = (match: RegExpExecArray | null) => (match ? Number(match[1]) * (match[2] === 'DBIT' ? -1 : 1) : NaN);
      const entries = [...xml.matchAll(/<Ntry><NtryRef>[^<]*<\/NtryRef><Amt Ccy="[A-Z]{3}">([0-9.]+)<\/Amt><CdtDbtInd>(CRDT|DBIT)<\/CdtDbtInd>/g)];
      expect(entries).toHaveLength(statement.numberOfResults);
      const entriesSum = entries.reduce((sum, match) => sum + Math.round(Number(match[1]) * 100) * (match[2] === 'DBIT' ? -1 : 1), 0);
      expect(Math.round(signed(balance('OPBD')) * 100) + entriesSum).toBe(Math.round(signed(balance('CLBD')) * 100));
      expect(signed(balance('CLBD'))).toBeCloseTo(statement.closingBalance, 6);
    },
  );

  it('camt.053 is refused for reports that are not statements (batch overview, transfers)', async () => {
    for (const path of [
      `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/batches/reports`,
      `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/transfers/reports`,
    ]) {
      const response = await call(users.partner, 'POST', path, { fileType: 'xml' });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain('camt.053 XML is offered for account statements only.');
    }
  });

  it('a statement that does not reconcile is never finished: an entry posted behind the reader breaks the check', async () => {
    const accountId = groupAccountId(m1aGbp, 'trading');
    const period = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-10-31T23:59:59Z') };
    const chunks = camt053Statement(database.db, {
      accountId,
      accountNumber: m1aGbp,
      kind: 'trading',
      currency: 'GBP',
      holder: 'M1a',
      period,
      createdAt: new Date(),
      batchSize: 1,
    });
    const first = await chunks.next();
    expect(first.done).toBe(false);
    // After the balances were read: a posting inside the period, which the entries will include but the closing balance does not.
    await database.query(
      `INSERT INTO ledger_entries (posting_id, account_id, business_id, merchant_id, category, amount_minor, currency, value_at)
      SELECT posting_id, account_id, business_id, merchant_id, category, 1, currency, '2026-10-15T12:00:00Z' FROM ledger_entries WHERE account_id = $1 LIMIT 1`,
      [accountId],
    );
    let failure: unknown = null;
    try {
      for (;;) if ((await chunks.next()).done) break;
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(CamtReconciliationError);
    await database.query(`DELETE FROM ledger_entries WHERE account_id = $1 AND amount_minor = 1 AND value_at = '2026-10-15T12:00:00Z'`, [accountId]);
  });

  it.each([
    ['trading', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading`],
    ['costs', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/costs`],
    ['reserve', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/reserve`],
    ['invoice (gross settlement)', `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1bGbp}/statements/invoice`],
    ['business account', `/businesses/B2/business-accountgroups/${b2Eur}/statement`],
  ])("the %s statement validates against the XSD and carries the statement's balances", async (_name, path) => {
    const user = path.includes('/B2/') ? users.finance : users.partner;
    const response = await call(user, 'GET', `${path}/camt053?date=${october}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    const result = await validate(xml);
    expect(result.errors.map((error) => error.message)).toEqual([]);
    expect(result.valid).toBe(true);
    const statement = accountStatement.assert(await (await call(user, 'GET', `${path}?date=${october}&pagesize=100`)).json());
    const balance = (code: string) =>
      new RegExp(`<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="[A-Z]{3}">([0-9.]+)</Amt><CdtDbtInd>(CRDT|DBIT)</CdtDbtInd>`).exec(xml);
    const signed = (match: RegExpExecArray | null) => (match ? Number(match[1]) * (match[2] === 'DBIT' ? -1 : 1) : NaN);
    expect(signed(balance('OPBD'))).toBeCloseTo(statement.openingBalance, 6);
    expect(signed(balance('CLBD'))).toBeCloseTo(statement.closingBalance, 6);
    expect(xml.match(/<Ntry>/g)?.length ?? 0).toBe(statement.numberOfResults);
  });

  it('a file without the account is refused by the XSD (the validation can fail)', async () => {
    const response = await call(
      users.partner,
      'GET',
      `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading/camt053?date=${october}`,
    );
    const broken = (await response.text()).replace(/<Acct>.*?<\/Acct>/, '');
    expect((await validate(broken)).valid).toBe(false);
  });

  it("amounts: absolute with the currency's places and a credit or debit indicator", () => {
    expect(camtAmount(-160, 'GBP')).toEqual({ amount: '1.60', indicator: 'DBIT' });
    expect(camtAmount(1250, 'JPY')).toEqual({ amount: '1250', indicator: 'CRDT' });
    expect(camtAmount(5, 'BHD')).toEqual({ amount: '0.005', indicator: 'CRDT' });
    expect(camtAmount(0, 'EUR')).toEqual({ amount: '0.00', indicator: 'CRDT' });
  });

  it('is refused across tenants', async () => {
    expect((await call(users.finance, 'GET', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading/camt053`)).status).toBe(404);
  });
});
