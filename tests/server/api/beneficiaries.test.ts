// Beneficiaries and screening on PGlite and PostgreSQL: allowed, forbidden, cross-tenant 404, malformed
// (IBAN checksum, BIC), stale version; screening on create and change raises alerts; four-eyes approval; alerts
// resolved with a reason (audited); the sensitivity setting. Four eyes that are two people: the second approver signed
// in with two-factor and not invited by the creator in the last 7 days, every owner emailed of an approval, and who
// changed what (the approver or rejecter as the last changer, with their time).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { beneficiary, beneficiaryList, screeningAlertList } from '../../../src/contract/beneficiary-schemas.ts';
import { approverTwoFactorMessage, fourEyesMessage, independentApproverMessage, openAlertsMessage } from '../../../src/contract/beneficiaries.ts';
import { createTestDatabase, databaseKinds, fixture, insertFixtureWorld, testCardKeys } from '../support.ts';
import { insertScreeningFixture, riskUsers } from './risk-fixtures.ts';

// The application's clock, fixed (and moved by the tests that need time to pass): decisions by time never read the
// real one.
const start = new Date('2026-11-30T12:00:00.000Z');
const clock = vi.hoisted(() => ({ at: new Date('2026-11-30T12:00:00.000Z') }));
vi.mock('../../../server/clock.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../server/clock.ts')>()),
  now: () => new Date(clock.at.getTime()),
}));
const hour = 3_600_000;
const day = 24 * hour;

/**
 * An app over the database whose test tokens say how their session signed in: `call` as a password-only sign-in,
 * `callWithTwoFactor` as a sign-in with the second factor (amr ['pwd', 'otp'], as the provider issues it).
 */
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
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    call: (userId: string, method: string, path: string, body?: unknown) => request(`user.${userId}`, method, path, body),
    callWithTwoFactor: (userId: string, method: string, path: string, body?: unknown) => request(`otp.${userId}`, method, path, body),
  };
}

const { users } = fixture;
const b3 = '/businesses/B3/beneficiaries';
const company = {
  kind: 'company',
  companyName: 'Kiln House Ceramics',
  nameOnBankAccount: 'Kiln House Ceramics',
  iban: 'GB82 WEST 1234 5698 7654 32',
  bic: 'NWBKGB2L',
};
const sanctioned = {
  kind: 'person',
  firstName: 'Vadim',
  lastName: 'Zolotarev',
  dateOfBirth: '1968-03-14',
  nameOnBankAccount: 'V Zolotarev',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
};

describe.each(databaseKinds)('beneficiaries on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createAppWithSignIns>['call'];
  let callWithTwoFactor: ReturnType<typeof createAppWithSignIns>['callWithTwoFactor'];
  beforeAll(async () => {
    clock.at = start;
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScreeningFixture(database);
    ({ call, callWithTwoFactor } = createAppWithSignIns(database));
  });
  afterAll(async () => database?.close());

  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const create = async (userId: string, body: unknown, path = b3) => {
    const response = await call(userId, 'POST', path, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return beneficiary.assert(await response.json());
  };

  it('creates a clean beneficiary as Referred without alerts; its creator cannot approve it, a second owner can', async () => {
    const created = await create(users.owner, company);
    expect(created).toMatchObject({
      status: 'Referred',
      iban: 'GB82WEST12345698765432',
      alerts: [],
      approvable: false,
      approvalRefusal: fourEyesMessage,
      version: 1,
    });
    const refused = await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' });
    expect(refused.status).toBe(422);
    expect(await messages(refused)).toEqual([fourEyesMessage]);
    const reread = beneficiary.assert(await (await callWithTwoFactor(riskUsers.secondOwner, 'GET', `${b3}/${created.beneficiaryId}`)).json());
    expect(reread).toMatchObject({ approvable: true, approvalRefusal: null });
    const approved = await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved', version: 1 });
    expect(approved.status).toBe(200);
    expect(beneficiary.assert(await approved.json())).toMatchObject({ status: 'Approved', version: 2 });
    const stale = await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Rejected', version: 1 });
    expect(stale.status).toBe(409);
  });

  it('sends a changed beneficiary back to Referred; the changer cannot approve it; a stale change is a 409', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Oak & Ash Joinery', nameOnBankAccount: 'Oak and Ash Joinery' });
    const changed = await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}`, {
      ...company,
      companyName: 'Oak & Ash Joinery Ltd',
      nameOnBankAccount: 'Oak and Ash Joinery',
      version: 1,
    });
    expect(changed.status).toBe(200);
    expect(beneficiary.assert(await changed.json())).toMatchObject({ status: 'Referred', version: 2, approvable: false });
    expect((await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    expect((await callWithTwoFactor(users.owner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    expect((await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}`, { ...company, version: 1 })).status).toBe(409);
    // A third person approves it.
    expect((await callWithTwoFactor(riskUsers.risk, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(200);
  });

  it('screens on creation: a listed person raises an alert that blocks approval until a risk analyst resolves it', async () => {
    const created = await create(users.owner, sanctioned);
    expect(created.alerts).toHaveLength(1);
    const [alert] = created.alerts;
    expect(alert).toMatchObject({ entryId: 'SL0001', status: 'open', list: 'sanctions', screenedName: 'Vadim Zolotarev' });
    expect((await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    const opened = beneficiary.assert(await (await callWithTwoFactor(riskUsers.risk, 'GET', `${b3}/${created.beneficiaryId}`)).json());
    expect(opened.approvalRefusal).toBe(openAlertsMessage);
    // The analyst arrives from the queue across businesses: the business by its name, on the beneficiary and its alert.
    expect([opened.businessName, opened.alerts[0]?.businessName]).toEqual(['Gamma Foods plc', 'Gamma Foods plc']);
    // Owners do not resolve alerts; the analyst needs a reason and the current version.
    const path = `${b3}/${created.beneficiaryId}/alerts/${alert?.alertId}`;
    expect((await call(users.owner, 'PUT', path, { decision: 'dismissed', reason: 'Different person', version: 1 })).status).toBe(403);
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: '', version: 1 })).status).toBe(400);
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: 'Passport shows a different person', version: 2 })).status).toBe(409);
    const resolved = await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: 'Passport shows a different person', version: 1 });
    expect(resolved.status).toBe(200);
    expect(beneficiary.assert(await resolved.json()).alerts[0]).toMatchObject({
      status: 'dismissed',
      reason: 'Passport shows a different person',
      resolvedBy: 'u-risk Test',
    });
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'confirmed', reason: 'Changed my mind', version: 2 })).status).toBe(422);
    const [event] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'ScreeningAlertResolved'));
    expect(event?.metaData).toMatchObject({ decision: 'dismissed', reason: 'Passport shows a different person', entryId: 'SL0001' });
    expect((await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(200);
  });

  it('rejects a beneficiary whose alert is confirmed as a true match', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Golden Harbor Trading LLC', nameOnBankAccount: 'Golden Harbor Trading' });
    const [alert] = created.alerts;
    expect(alert?.entryId).toBe('SL0101');
    const confirmed = await call(riskUsers.risk, 'PUT', `${b3}/${created.beneficiaryId}/alerts/${alert?.alertId}`, {
      decision: 'confirmed',
      reason: 'Same registered address as the listed company',
      version: 1,
    });
    expect(beneficiary.assert(await confirmed.json())).toMatchObject({ status: 'Rejected' });
    expect((await callWithTwoFactor(users.admin, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
  });

  it('screens on every change: renaming a clean beneficiary to a listed name raises an alert', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Fellside Tents', nameOnBankAccount: 'Fellside Tents' });
    expect(created.alerts).toEqual([]);
    const changed = beneficiary.assert(
      await (
        await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}`, {
          ...company,
          companyName: 'Aegean Star Shipping',
          nameOnBankAccount: 'Aegean Star Shipping SA',
          version: 1,
        })
      ).json(),
    );
    expect(changed.alerts.map((alert) => alert.entryId)).toEqual(['SL0104']);
  });

  it.each([
    ['a wrong IBAN checksum', { ...company, iban: 'GB82 WEST 1234 5698 7654 33' }, 'check digits'],
    ['a malformed BIC', { ...company, bic: 'NWBK' }, 'BIC'],
    ['a person without a date of birth', { ...sanctioned, dateOfBirth: null }, 'date of birth'],
    ['a company without a name', { ...company, companyName: null }, 'company name'],
    ['a future date of birth', { ...sanctioned, dateOfBirth: '2999-01-01' }, 'past date'],
    ['an unknown field', { ...company, colour: 'red' }, 'colour'],
    ['an unknown kind', { ...company, kind: 'trust' }, 'kind'],
  ])('refuses %s with a 400', async (_name, body, words) => {
    const response = await call(users.owner, 'POST', b3, body);
    expect(response.status).toBe(400);
    expect((await messages(response)).join(' ')).toContain(words);
  });

  it("lists a business's beneficiaries with filters; 404 across tenants; 403 without the permission", async () => {
    const list = beneficiaryList.assert(await (await call(users.owner, 'GET', `${b3}?status=[eq]Rejected`)).json());
    expect(list.results.map((row) => row.name)).toEqual(['Golden Harbor Trading LLC']);
    const all = beneficiaryList.assert(await (await call(users.readonly, 'GET', `${b3}?sort=name`)).json());
    expect(all.numberOfResults).toBe(5);
    expect(all.results.map((row) => row.name)).toEqual([...all.results.map((row) => row.name)].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    const first = all.results[0]?.beneficiaryId ?? '';
    expect((await call(users.partner, 'GET', b3)).status).toBe(404);
    expect((await call(users.partner, 'GET', `${b3}/${first}`)).status).toBe(404);
    expect((await call(users.admin, 'GET', `/businesses/B1/beneficiaries/${first}`)).status).toBe(404);
    expect((await call(users.partner, 'POST', b3, company)).status).toBe(404);
    expect((await call(users.finance, 'GET', '/businesses/B2/beneficiaries')).status).toBe(403);
    expect((await call(users.readonly, 'POST', b3, company)).status).toBe(403);
    expect((await call(users.readonly, 'PUT', `${b3}/${first}/status`, { status: 'Rejected' })).status).toBe(403);
    expect((await call(users.owner, 'GET', `${b3}?status=[eq]Pending`)).status).toBe(400);
  });

  it('lists open alerts across businesses for risk analysts only', async () => {
    const response = await call(riskUsers.risk, 'GET', '/screening-alerts?status=[eq]open');
    expect(response.status).toBe(200);
    const alerts = screeningAlertList.assert(await response.json()).results;
    expect(alerts.map((alert) => alert.entryId)).toEqual(['SL0104']);
    // Names for people, the ids beside them: the business as its name, not '100001'-style ids only.
    const names: Record<string, string> = { B1: 'Alpha Trading Ltd', B2: 'Beta Retail Ltd', B3: 'Gamma Foods plc' };
    for (const alert of alerts) {
      expect(alert.businessName).toBe(names[alert.businessId]);
      expect(alert.beneficiaryName).not.toBe(alert.beneficiaryId);
      expect(alert.beneficiaryName.length).toBeGreaterThan(0);
    }
    expect((await call(users.owner, 'GET', '/screening-alerts')).status).toBe(403);
    expect((await call(users.readonly, 'GET', '/screening-alerts')).status).toBe(403);
  });

  it('changes the match sensitivity with a version, audited; higher sensitivity raises more alerts', async () => {
    const current = (await (await call(riskUsers.risk, 'GET', '/screening/settings')).json()) as { sensitivity: string; version: number };
    expect(current).toMatchObject({ sensitivity: 'medium', version: 0 });
    expect((await call(users.owner, 'PUT', '/screening/settings', { sensitivity: 'high', version: 0 })).status).toBe(403);
    expect((await call(riskUsers.risk, 'PUT', '/screening/settings', { sensitivity: 'extreme', version: 0 })).status).toBe(400);
    const saved = await call(riskUsers.risk, 'PUT', '/screening/settings', { sensitivity: 'low', version: 0 });
    expect(await saved.json()).toMatchObject({ sensitivity: 'low', threshold: 0.93, version: 1 });
    expect((await call(riskUsers.risk, 'PUT', '/screening/settings', { sensitivity: 'high', version: 0 })).status).toBe(409);
    // 'Valery Zolotaryov' (another first name, the listed date of birth) scores 0.887: under the low threshold, over the high one.
    const near = { ...sanctioned, firstName: 'Valery', lastName: 'Zolotaryov', nameOnBankAccount: 'Valery Zolotaryov' };
    expect((await create(users.owner, near)).alerts).toHaveLength(0);
    expect((await call(riskUsers.risk, 'PUT', '/screening/settings', { sensitivity: 'high', version: 1 })).status).toBe(200);
    expect((await create(users.owner, near)).alerts).toHaveLength(1);
    const events = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'ScreeningSettingsChanged'));
    expect(events.map((event) => event.metaData)).toEqual([
      { from: 'medium', to: 'low' },
      { from: 'low', to: 'high' },
    ]);
  });
});

describe.each(databaseKinds)('four eyes that are two people on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createAppWithSignIns>['call'];
  let callWithTwoFactor: ReturnType<typeof createAppWithSignIns>['callWithTwoFactor'];
  // Owners of B3 besides the fixture's two: one its owner invited two days ago (a second account of theirs), one an
  // existing account its owner gave access to yesterday, one its owner invited a month ago.
  const alt = { invited: 'u-alt-invited', granted: 'u-alt-granted', established: 'u-established' } as const;
  beforeAll(async () => {
    clock.at = start;
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScreeningFixture(database);
    const { db } = database;
    const user = (id: string) => ({ id, email: `${id}@fixture.test`, givenName: id, familyName: 'Test', passwordHash: 'scrypt$1$1$1$x$y' });
    await db.insert(schema.users).values(Object.values(alt).map(user));
    await db.insert(schema.userRoles).values(Object.values(alt).map((userId) => ({ userId, role: 'Owner', level: 'business' as const, businessId: 'B3' })));
    const invitation = (id: string, userId: string, sent: number) => ({
      id,
      userId,
      tokenHash: `hash-${id}`,
      invitedBy: users.owner,
      createdAt: new Date(start.getTime() - sent),
      expiresAt: new Date(start.getTime() - sent + 7 * day),
      acceptedAt: new Date(start.getTime() - sent + hour),
    });
    await db.insert(schema.userInvitations).values([invitation('INV-ALT', alt.invited, 2 * day), invitation('INV-EST', alt.established, 30 * day)]);
    await db.insert(schema.auditEvents).values({
      userId: users.owner,
      event: 'UserAccessGranted',
      dateTimeUtc: new Date(start.getTime() - day),
      businessId: 'B3',
      metaData: { targetUserId: alt.granted, roles: ['Owner@B3'] },
    });
    ({ call, callWithTwoFactor } = createAppWithSignIns(database));
  });
  beforeEach(() => {
    clock.at = start;
  });
  afterAll(async () => database?.close());

  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const create = async (userId: string, name: string) => {
    const response = await call(userId, 'POST', b3, { ...company, companyName: name, nameOnBankAccount: name });
    expect(response.status, await response.clone().text()).toBe(201);
    const created = beneficiary.assert(await response.json());
    expect(created.alerts).toEqual([]);
    return created;
  };
  const approvalEmails = async (name: string) =>
    (await database.db.select().from(schema.outboundEmails).where(eq(schema.outboundEmails.template, 'beneficiaryApproved'))).filter(
      (email) => email.subject === `Beneficiary approved: ${name}`,
    );

  it('approving needs a sign-in with two-factor: 403 saying so, nothing changes, and the detail says why', async () => {
    const created = await create(users.owner, 'Hawthorn Dairy');
    const path = `${b3}/${created.beneficiaryId}`;
    const read = beneficiary.assert(await (await call(riskUsers.secondOwner, 'GET', path)).json());
    expect(read).toMatchObject({ approvable: false, approvalRefusal: approverTwoFactorMessage });
    const refused = await call(riskUsers.secondOwner, 'PUT', `${path}/status`, { status: 'Approved', version: 1 });
    expect(refused.status).toBe(403);
    expect(await messages(refused)).toEqual([approverTwoFactorMessage]);
    expect(beneficiary.assert(await (await call(users.owner, 'GET', path)).json())).toMatchObject({ status: 'Referred', version: 1 });
    expect(await approvalEmails('Hawthorn Dairy')).toEqual([]);
    // Rejecting asks for no second factor: it pays no one.
    expect((await call(riskUsers.secondOwner, 'PUT', `${path}/status`, { status: 'Rejected', version: 1 })).status).toBe(200);
    expect(beneficiary.assert(await (await callWithTwoFactor(riskUsers.secondOwner, 'GET', path)).json())).toMatchObject({
      approvable: true,
      approvalRefusal: null,
    });
    expect((await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${path}/status`, { status: 'Approved', version: 2 })).status).toBe(200);
  });

  it('refuses a second approver whom the creator invited in the last 7 days, even signed in with two-factor', async () => {
    const created = await create(users.owner, 'Thistle Mill');
    const path = `${b3}/${created.beneficiaryId}`;
    expect(beneficiary.assert(await (await callWithTwoFactor(alt.invited, 'GET', path)).json())).toMatchObject({
      approvable: false,
      approvalRefusal: independentApproverMessage,
    });
    const refused = await callWithTwoFactor(alt.invited, 'PUT', `${path}/status`, { status: 'Approved', version: 1 });
    expect(refused.status).toBe(403);
    expect(await messages(refused)).toEqual([independentApproverMessage]);
    // An existing account the creator gave access to yesterday is refused alike.
    const granted = await callWithTwoFactor(alt.granted, 'PUT', `${path}/status`, { status: 'Approved', version: 1 });
    expect(granted.status).toBe(403);
    expect(await messages(granted)).toEqual([independentApproverMessage]);
    expect(beneficiary.assert(await (await call(users.owner, 'GET', path)).json())).toMatchObject({ status: 'Referred', version: 1 });
    // Someone the creator invited a month ago is established: they may approve.
    expect((await callWithTwoFactor(alt.established, 'PUT', `${path}/status`, { status: 'Approved', version: 1 })).status).toBe(200);
  });

  it('lets the recently invited account approve what someone else created, and anything once 7 days have passed', async () => {
    const other = await create(riskUsers.secondOwner, 'Bracken Forge');
    expect((await callWithTwoFactor(alt.invited, 'PUT', `${b3}/${other.beneficiaryId}/status`, { status: 'Approved', version: 1 })).status).toBe(200);
    const own = await create(users.owner, 'Larch Loft');
    expect((await callWithTwoFactor(alt.invited, 'PUT', `${b3}/${own.beneficiaryId}/status`, { status: 'Approved', version: 1 })).status).toBe(403);
    clock.at = new Date(start.getTime() + 5 * day + hour);
    expect((await callWithTwoFactor(alt.invited, 'PUT', `${b3}/${own.beneficiaryId}/status`, { status: 'Approved', version: 1 })).status).toBe(200);
  });

  it('refuses an approver whom the last changer (not only the creator) invited in the last 7 days', async () => {
    const created = await create(riskUsers.secondOwner, 'Rowan Yard');
    const changed = await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}`, {
      ...company,
      companyName: 'Rowan Yard Ltd',
      nameOnBankAccount: 'Rowan Yard',
      version: 1,
    });
    expect(changed.status).toBe(200);
    const refused = await callWithTwoFactor(alt.invited, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved', version: 2 });
    expect(refused.status).toBe(403);
    expect(await messages(refused)).toEqual([independentApproverMessage]);
  });

  it('tells every owner of the business by email when a beneficiary is approved, naming the approver; audited', async () => {
    const created = await create(users.owner, 'Juniper Looms');
    expect((await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved', version: 1 })).status).toBe(
      200,
    );
    const emails = await approvalEmails('Juniper Looms');
    expect(emails.map((email) => email.recipient).sort()).toEqual(
      ['owner2@fixture.test', 'owner@fixture.test', `${alt.established}@fixture.test`, `${alt.granted}@fixture.test`, `${alt.invited}@fixture.test`].sort(),
    );
    for (const email of emails) {
      expect(email.text).toContain('u-owner2 Test approved Juniper Looms (account ending 5432)');
      expect(email.text).toContain('It was set up by u-owner Test.');
      expect(email.text).toContain(`/business/B3/beneficiaries/${created.beneficiaryId}`);
    }
    const [event] = await database.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.event, 'BeneficiaryStatusChanged'), eq(schema.auditEvents.userId, riskUsers.secondOwner)))
      .then((rows) => rows.filter((row) => (row.metaData as { beneficiaryId?: string }).beneficiaryId === created.beneficiaryId));
    expect(event?.metaData).toMatchObject({ from: 'Referred', to: 'Approved', ownersTold: 5 });
  });

  it('records who changed what: the approver and the rejecter are the last changer with their own time; a change of details the changer', async () => {
    const created = await create(users.owner, 'Sloe Press');
    const path = `${b3}/${created.beneficiaryId}`;
    expect(created).toMatchObject({
      createdBy: 'u-owner Test',
      lastChangedBy: 'u-owner Test',
      lastUpdatedUtc: start.toISOString(),
      statusChangedBy: null,
      statusChangedUtc: null,
    });
    const approvedAt = new Date(start.getTime() + 2 * hour);
    clock.at = approvedAt;
    const approved = beneficiary.assert(
      await (await callWithTwoFactor(riskUsers.secondOwner, 'PUT', `${path}/status`, { status: 'Approved', version: 1 })).json(),
    );
    const expectedAfterApproval = {
      status: 'Approved',
      createdBy: 'u-owner Test',
      createdUtc: start.toISOString(),
      lastChangedBy: 'u-owner2 Test',
      lastUpdatedUtc: approvedAt.toISOString(),
      statusChangedBy: 'u-owner2 Test',
      statusChangedUtc: approvedAt.toISOString(),
    };
    expect(approved).toMatchObject(expectedAfterApproval);
    clock.at = new Date(start.getTime() + 3 * hour);
    expect(beneficiary.assert(await (await call(users.owner, 'GET', path)).json())).toMatchObject(expectedAfterApproval);

    const changedAt = new Date(start.getTime() + 4 * hour);
    clock.at = changedAt;
    const changed = beneficiary.assert(
      await (await call(users.owner, 'PUT', path, { ...company, companyName: 'Sloe Press Ltd', nameOnBankAccount: 'Sloe Press', version: 2 })).json(),
    );
    expect(changed).toMatchObject({
      status: 'Referred',
      lastChangedBy: 'u-owner Test',
      lastUpdatedUtc: changedAt.toISOString(),
      statusChangedBy: null,
      statusChangedUtc: null,
    });

    const rejectedAt = new Date(start.getTime() + 5 * hour);
    clock.at = rejectedAt;
    const rejected = beneficiary.assert(await (await call(riskUsers.risk, 'PUT', `${path}/status`, { status: 'Rejected', version: 3 })).json());
    expect(rejected).toMatchObject({
      status: 'Rejected',
      lastChangedBy: 'u-risk Test',
      lastUpdatedUtc: rejectedAt.toISOString(),
      statusChangedBy: 'u-risk Test',
      statusChangedUtc: rejectedAt.toISOString(),
    });
  });

  it('records the risk analyst who confirms a true match as the last changer of the beneficiary it rejects', async () => {
    const response = await call(users.owner, 'POST', b3, sanctioned);
    const created = beneficiary.assert(await response.json());
    const [alert] = created.alerts;
    const confirmedAt = new Date(start.getTime() + hour);
    clock.at = confirmedAt;
    const confirmed = beneficiary.assert(
      await (
        await call(riskUsers.risk, 'PUT', `${b3}/${created.beneficiaryId}/alerts/${alert?.alertId}`, {
          decision: 'confirmed',
          reason: 'Same person: passport and date of birth',
          version: 1,
        })
      ).json(),
    );
    expect(confirmed).toMatchObject({
      status: 'Rejected',
      lastChangedBy: 'u-risk Test',
      lastUpdatedUtc: confirmedAt.toISOString(),
      statusChangedBy: 'u-risk Test',
      statusChangedUtc: confirmedAt.toISOString(),
    });
  });
});
