// Statements as ISO 20022 camt.053.001.08: every file the API generates here validates against the XSD in
// ../shared/standards (copied to tests/server/ledger/standards), and its balances are the statement's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { camtAmount } from '../../../server/ledger/camt053.ts';
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
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it.each([
    ['trading', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading`],
    ['costs', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/costs`],
    ['reserve', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/reserve`],
    ['invoice (gross settlement)', `/businesses/B1/merchants/M1b/merchant-accountgroups/${m1bGbp}/statements/invoice`],
    ['business account', `/businesses/B2/business-accountgroups/${b2Eur}/statement`],
  ])('the %s statement validates against the XSD and carries the statement\'s balances', async (_name, path) => {
    const user = path.includes('/B2/') ? users.finance : users.partner;
    const response = await call(user, 'GET', `${path}/camt053?date=${october}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    const result = await validate(xml);
    expect(result.errors.map((error) => error.message)).toEqual([]);
    expect(result.valid).toBe(true);
    const statement = accountStatement.assert(await (await call(user, 'GET', `${path}?date=${october}&pagesize=100`)).json());
    const balance = (code: string) => new RegExp(`<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="[A-Z]{3}">([0-9.]+)</Amt><CdtDbtInd>(CRDT|DBIT)</CdtDbtInd>`).exec(xml);
    const signed = (match: RegExpExecArray | null) => (match ? Number(match[1]) * (match[2] === 'DBIT' ? -1 : 1) : NaN);
    expect(signed(balance('OPBD'))).toBeCloseTo(statement.openingBalance, 6);
    expect(signed(balance('CLBD'))).toBeCloseTo(statement.closingBalance, 6);
    expect(xml.match(/<Ntry>/g)?.length ?? 0).toBe(statement.numberOfResults);
  });

  it('a file without the account is refused by the XSD (the validation can fail)', async () => {
    const response = await call(users.partner, 'GET', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading/camt053?date=${october}`);
    const broken = (await response.text()).replace(/<Acct>.*?<\/Acct>/, '');
    expect((await validate(broken)).valid).toBe(false);
  });

  it('amounts: absolute with the currency\'s places and a credit or debit indicator', () => {
    expect(camtAmount(-160, 'GBP')).toEqual({ amount: '1.60', indicator: 'DBIT' });
    expect(camtAmount(1250, 'JPY')).toEqual({ amount: '1250', indicator: 'CRDT' });
    expect(camtAmount(5, 'BHD')).toEqual({ amount: '0.005', indicator: 'CRDT' });
    expect(camtAmount(0, 'EUR')).toEqual({ amount: '0.00', indicator: 'CRDT' });
  });

  it('is refused across tenants', async () => {
    expect((await call(users.finance, 'GET', `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}/statements/trading/camt053`)).status).toBe(404);
  });
});
