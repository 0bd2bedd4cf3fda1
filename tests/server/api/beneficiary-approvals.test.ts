// The beneficiary approval queue across businesses on PGlite and PostgreSQL: an internal analyst sees every
// business's pending beneficiaries, a business user only their own, a partner its businesses, others are refused;
// the filters (business, created, age in days, open alerts), sorts and paging; a bad query answers 400 with an
// errorReport; an approved or rejected beneficiary drops out, and the four-eyes rules still hold for the queue's rows.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { beneficiaryApprovalList, type BeneficiaryApprovalList } from '../../../src/contract/beneficiary-schemas.ts';
import { fourEyesMessage, openAlertsMessage } from '../../../src/contract/beneficiaries.ts';
import { createTestDatabase, databaseKinds, fixture, insertFixtureWorld, testCardKeys } from '../support.ts';
import { insertScreeningFixture, riskUsers } from './risk-fixtures.ts';

// The application's clock, fixed: ages are counted from it, never from the real one.
const clock = vi.hoisted(() => ({ at: new Date('2026-11-30T12:00:00.000Z') }));
vi.mock('../../../server/clock.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../server/clock.ts')>()),
  now: () => new Date(clock.at.getTime()),
}));
const day = 86_400_000;
const { users } = fixture;

/** Test tokens: 'user.<id>' a password-only sign-in, 'otp.<id>' one with the second factor. */
function createAppWithSignIns(database: Database) {
  const app = createApp({
    database,
    cardKeys: testCardKeys,
    verifyAccessToken: async (token) => {
      const [method, userId = ''] = token.split('.');
      if (method === 'user') return { userId, scopes: ['portal'] };
      if (method === 'otp') return { userId, scopes: ['portal'], amr: ['pwd', 'otp'] };
      throw new Error('bad token');
    },
  });
  const request = (token: string, method: string, path: string, body?: unknown) =>
    app.request(`/api/portal${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'time-zone': 'Europe/London', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    call: (userId: string, method: string, path: string, body?: unknown) => request(`user.${userId}`, method, path, body),
    callWithTwoFactor: (userId: string, method: string, path: string, body?: unknown) => request(`otp.${userId}`, method, path, body),
  };
}

type Pending = {
  id: string;
  businessId: string;
  name: string;
  daysAgo: number;
  status?: 'Referred' | 'Approved' | 'Rejected';
  createdBy?: string;
  openAlert?: boolean;
};
/** B1 and B2 (partner P1), B3 (owner's): pending ones of several ages, one with an open alert, decided ones that never show. */
const seeded: Pending[] = [
  { id: 'BENQ1', businessId: 'B1', name: 'Alder Supplies', daysAgo: 40, createdBy: users.partner },
  { id: 'BENQ2', businessId: 'B2', name: 'Birch Logistics', daysAgo: 12, createdBy: users.partner },
  { id: 'BENQ3', businessId: 'B3', name: 'Cedar Textiles', daysAgo: 9, createdBy: users.owner },
  { id: 'BENQ4', businessId: 'B3', name: 'Damson Foods', daysAgo: 2, createdBy: users.owner, openAlert: true },
  { id: 'BENQ5', businessId: 'B3', name: 'Elm Packaging', daysAgo: 0.5, createdBy: users.owner },
  { id: 'BENQ6', businessId: 'B3', name: 'Fir Approved', daysAgo: 30, status: 'Approved', createdBy: users.owner },
  { id: 'BENQ7', businessId: 'B1', name: 'Gorse Rejected', daysAgo: 20, status: 'Rejected', createdBy: users.partner },
];

async function insertQueue(database: Database): Promise<void> {
  for (const row of seeded) {
    const at = new Date(clock.at.getTime() - row.daysAgo * day);
    await database.db.insert(schema.beneficiaries).values({
      id: row.id,
      businessId: row.businessId,
      kind: 'company',
      companyName: row.name,
      nameOnBankAccount: row.name,
      iban: 'GB82WEST12345698765432',
      bic: 'NWBKGB2L',
      status: row.status ?? 'Referred',
      createdBy: row.createdBy ?? users.owner,
      lastChangedBy: row.createdBy ?? users.owner,
      createdUtc: at,
      lastUpdatedUtc: at,
    });
    if (row.openAlert) {
      await database.db.insert(schema.screeningAlerts).values({
        id: `SA${row.id}`,
        beneficiaryId: row.id,
        businessId: row.businessId,
        entryId: 'SL0001',
        score: 900,
        matchedName: row.name,
        screenedName: row.name,
        status: 'open',
      });
    }
  }
}

describe.each(databaseKinds)('beneficiary approval queue on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createAppWithSignIns>['call'];
  let callWithTwoFactor: ReturnType<typeof createAppWithSignIns>['callWithTwoFactor'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScreeningFixture(database);
    await insertQueue(database);
    ({ call, callWithTwoFactor } = createAppWithSignIns(database));
  });
  afterAll(async () => database?.close());

  const queue = async (userId: string, query = ''): Promise<BeneficiaryApprovalList> => {
    const response = await call(userId, 'GET', `/beneficiary-approvals${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return beneficiaryApprovalList.assert(await response.json());
  };
  const ids = (list: BeneficiaryApprovalList) => list.results.map((row) => row.beneficiaryId);
  const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

  it('shows an internal analyst every business’s pending beneficiaries, longest waiting first, with business names and ages', async () => {
    const list = await queue(riskUsers.risk);
    expect(ids(list)).toEqual(['BENQ1', 'BENQ2', 'BENQ3', 'BENQ4', 'BENQ5']);
    expect(list.numberOfResults).toBe(5);
    expect(new Set(list.results.map((row) => row.businessId))).toEqual(new Set(['B1', 'B2', 'B3']));
    expect(list.results[0]).toEqual({
      beneficiaryId: 'BENQ1',
      name: 'Alder Supplies',
      kind: 'company',
      businessId: 'B1',
      businessName: 'Alpha Trading Ltd',
      createdUtc: new Date(clock.at.getTime() - 40 * day).toISOString(),
      createdBy: `${users.partner} Test`,
      ageDays: 40,
      openAlerts: 0,
      status: 'Referred',
      changedByCaller: false,
    });
    expect(list.results.find((row) => row.beneficiaryId === 'BENQ4')?.openAlerts).toBe(1);
    expect(list.results.find((row) => row.beneficiaryId === 'BENQ5')?.ageDays).toBe(0);
    expect(list.businesses).toEqual([
      { businessId: 'B1', businessName: 'Alpha Trading Ltd', pending: 1 },
      { businessId: 'B2', businessName: 'Beta Retail Ltd', pending: 1 },
      { businessId: 'B3', businessName: 'Gamma Foods plc', pending: 3 },
    ]);
    // Every internal reader (read only too) sees the same queue.
    expect(ids(await queue(users.readonly))).toEqual(ids(list));
  });

  it('shows a business user only their own business, a partner only its businesses, and refuses the rest', async () => {
    const owner = await queue(users.owner);
    expect(ids(owner)).toEqual(['BENQ3', 'BENQ4', 'BENQ5']);
    expect(owner.businesses.map((business) => business.businessId)).toEqual(['B3']);
    // Their own rows say so: someone else must approve them.
    expect(owner.results.every((row) => row.changedByCaller)).toBe(true);
    expect(ids(await queue(users.partner))).toEqual(['BENQ1', 'BENQ2']);
    // Asking for another tenant's business by id matches nothing: its rows never appear.
    expect(ids(await queue(users.owner, q({ businessid: '[eq]B1' })))).toEqual([]);
    expect(ids(await queue(users.owner, q({ businessid: '[eq]B1[and][eq]B3' })))).toEqual(['BENQ3', 'BENQ4', 'BENQ5']);
    expect(ids(await queue(users.partner, q({ businessid: '[eq]B3' })))).toEqual([]);
    // No beneficiary permission anywhere (Finance role; a merchant-level role; no role): 403.
    for (const userId of [users.finance, users.merchantOnly, users.nobody]) {
      const response = await call(userId, 'GET', '/beneficiary-approvals');
      expect(response.status, userId).toBe(403);
      expect(await response.json()).toHaveProperty('errorReport');
    }
  });

  it('filters by business (several), creation date, age in days and open alerts; sorts by age and business; pages', async () => {
    expect(ids(await queue(riskUsers.risk, q({ businessid: '[eq]B2[and][eq]B1' })))).toEqual(['BENQ1', 'BENQ2']);
    expect(ids(await queue(riskUsers.risk, q({ agedays: '[gte]7' })))).toEqual(['BENQ1', 'BENQ2', 'BENQ3']);
    expect(ids(await queue(riskUsers.risk, q({ agedays: '[gte]10[and][lte]40' })))).toEqual(['BENQ1', 'BENQ2']);
    expect(ids(await queue(riskUsers.risk, q({ agedays: '[lte]2' })))).toEqual(['BENQ4', 'BENQ5']);
    expect(ids(await queue(riskUsers.risk, q({ created: '[gte]2026-11-20' })))).toEqual(['BENQ3', 'BENQ4', 'BENQ5']);
    expect(ids(await queue(riskUsers.risk, q({ created: '[lte]2026-11-21' })))).toEqual(['BENQ1', 'BENQ2', 'BENQ3']);
    expect(ids(await queue(riskUsers.risk, q({ openalerts: '[eq]true' })))).toEqual(['BENQ4']);
    expect(ids(await queue(riskUsers.risk, q({ openalerts: '[eq]false', businessid: '[eq]B3' })))).toEqual(['BENQ3', 'BENQ5']);
    expect(ids(await queue(riskUsers.risk, q({ sort: 'age' })))).toEqual(['BENQ5', 'BENQ4', 'BENQ3', 'BENQ2', 'BENQ1']);
    // By business name, each business's longest waiting first.
    expect(ids(await queue(riskUsers.risk, q({ sort: '-business' })))).toEqual(['BENQ3', 'BENQ4', 'BENQ5', 'BENQ2', 'BENQ1']);
    const first = await queue(riskUsers.risk, q({ pagesize: '10', pagenumber: '1', sort: 'business' }));
    expect(ids(first)).toEqual(['BENQ1', 'BENQ2', 'BENQ3', 'BENQ4', 'BENQ5']);
    const beyond = await queue(riskUsers.risk, q({ pagesize: '10', pagenumber: '2' }));
    expect(beyond.results).toEqual([]);
    expect(beyond.numberOfResults).toBe(5);
    // The business choices ignore the filters, so a second business can still be picked.
    expect((await queue(riskUsers.risk, q({ businessid: '[eq]B1' }))).businesses).toHaveLength(3);
  });

  it('answers a malformed query with 400 and an errorReport naming the problem', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ status: '[eq]Approved' }, /'status' is not a filter of this list/],
      [{ agedays: '[eq]3' }, /agedays does not accept \[eq\]/],
      [{ agedays: '[gte]seven' }, /not a whole number of days/],
      [{ openalerts: '[eq]maybe' }, /not true or false/],
      [{ created: '[gte]yesterday' }, /not an ISO date/],
      [{ businessid: '[eq]../B1' }, /not a business id/],
      [{ sort: 'name' }, /not sortable/],
      [{ pagesize: '7' }, /pagesize/],
    ];
    for (const [params, message] of cases) {
      const response = await call(riskUsers.risk, 'GET', `/beneficiary-approvals${q(params)}`);
      expect(response.status, JSON.stringify(params)).toBe(400);
      const body = (await response.json()) as { errorReport: { errors: { message: string }[] } };
      expect(body.errorReport.errors.map((error) => error.message).join(' '), JSON.stringify(params)).toMatch(message);
    }
    const repeated = await call(riskUsers.risk, 'GET', '/beneficiary-approvals?agedays=[gte]1&agedays=[gte]2');
    expect(repeated.status).toBe(400);
  });

  it('drops an approved or rejected beneficiary; the queue changes none of the four-eyes rules', async () => {
    // Its creator cannot approve it from the queue's row (four eyes), nor anyone while an alert is open.
    const own = await call(users.owner, 'PUT', '/businesses/B3/beneficiaries/BENQ3/status', { status: 'Approved', version: 1 });
    expect(own.status).toBe(422);
    expect(JSON.stringify(await own.json())).toContain(fourEyesMessage);
    const blocked = await callWithTwoFactor(riskUsers.risk, 'PUT', '/businesses/B3/beneficiaries/BENQ4/status', { status: 'Approved', version: 1 });
    expect(blocked.status).toBe(422);
    expect(JSON.stringify(await blocked.json())).toContain(openAlertsMessage);
    // Without a two-factor sign-in the analyst is refused too.
    expect((await call(riskUsers.risk, 'PUT', '/businesses/B3/beneficiaries/BENQ3/status', { status: 'Approved', version: 1 })).status).toBe(403);
    expect(ids(await queue(riskUsers.risk))).toContain('BENQ3');

    const approved = await callWithTwoFactor(riskUsers.risk, 'PUT', '/businesses/B3/beneficiaries/BENQ3/status', { status: 'Approved', version: 1 });
    expect(approved.status, await approved.clone().text()).toBe(200);
    const rejected = await callWithTwoFactor(riskUsers.risk, 'PUT', '/businesses/B1/beneficiaries/BENQ1/status', { status: 'Rejected', version: 1 });
    expect(rejected.status).toBe(200);
    const after = await queue(riskUsers.risk);
    expect(ids(after)).toEqual(['BENQ2', 'BENQ4', 'BENQ5']);
    expect(after.businesses).toEqual([
      { businessId: 'B2', businessName: 'Beta Retail Ltd', pending: 1 },
      { businessId: 'B3', businessName: 'Gamma Foods plc', pending: 2 },
    ]);
    expect(ids(await queue(users.owner))).toEqual(['BENQ4', 'BENQ5']);
  });
});
