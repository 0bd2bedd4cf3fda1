// Beneficiaries and screening (issue 22) on PGlite and PostgreSQL: allowed, forbidden, cross-tenant 404, malformed
// (IBAN checksum, BIC), stale version; screening on create and change raises alerts; four-eyes approval; alerts
// resolved with a reason (audited); the sensitivity setting.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { beneficiary, beneficiaryList, screeningAlertList } from '../../../src/contract/beneficiary-schemas.ts';
import { fourEyesMessage, openAlertsMessage } from '../../../src/contract/beneficiaries.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertScreeningFixture, riskUsers } from './risk-fixtures.ts';

const { users } = fixture;
const b3 = '/businesses/B3/beneficiaries';
const company = { kind: 'company', companyName: 'Kiln House Ceramics', nameOnBankAccount: 'Kiln House Ceramics', iban: 'GB82 WEST 1234 5698 7654 32', bic: 'NWBKGB2L' };
const sanctioned = { kind: 'person', firstName: 'Vadim', lastName: 'Zolotarev', dateOfBirth: '1968-03-14', nameOnBankAccount: 'V Zolotarev', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };

describe.each(databaseKinds)('beneficiaries on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScreeningFixture(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const messages = async (response: Response) => ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const create = async (userId: string, body: unknown, path = b3) => {
    const response = await call(userId, 'POST', path, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return beneficiary.assert(await response.json());
  };

  it('creates a clean beneficiary as Referred without alerts; its creator cannot approve it, a second owner can', async () => {
    const created = await create(users.owner, company);
    expect(created).toMatchObject({ status: 'Referred', iban: 'GB82WEST12345698765432', alerts: [], approvable: false, approvalRefusal: fourEyesMessage, version: 1 });
    const refused = await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' });
    expect(refused.status).toBe(422);
    expect(await messages(refused)).toEqual([fourEyesMessage]);
    const reread = beneficiary.assert(await (await call(riskUsers.secondOwner, 'GET', `${b3}/${created.beneficiaryId}`)).json());
    expect(reread).toMatchObject({ approvable: true, approvalRefusal: null });
    const approved = await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved', version: 1 });
    expect(approved.status).toBe(200);
    expect(beneficiary.assert(await approved.json())).toMatchObject({ status: 'Approved', version: 2 });
    const stale = await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Rejected', version: 1 });
    expect(stale.status).toBe(409);
  });

  it('sends a changed beneficiary back to Referred; the changer cannot approve it; a stale change is a 409', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Oak & Ash Joinery', nameOnBankAccount: 'Oak and Ash Joinery' });
    const changed = await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}`, { ...company, companyName: 'Oak & Ash Joinery Ltd', nameOnBankAccount: 'Oak and Ash Joinery', version: 1 });
    expect(changed.status).toBe(200);
    expect(beneficiary.assert(await changed.json())).toMatchObject({ status: 'Referred', version: 2, approvable: false });
    expect((await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    expect((await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    expect((await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}`, { ...company, version: 1 })).status).toBe(409);
    // A third person approves it.
    expect((await call(riskUsers.risk, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(200);
  });

  it('screens on creation: a listed person raises an alert that blocks approval until a risk analyst resolves it', async () => {
    const created = await create(users.owner, sanctioned);
    expect(created.alerts).toHaveLength(1);
    const [alert] = created.alerts;
    expect(alert).toMatchObject({ entryId: 'SL0001', status: 'open', list: 'sanctions', screenedName: 'Vadim Zolotarev' });
    expect((await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
    expect(beneficiary.assert(await (await call(riskUsers.risk, 'GET', `${b3}/${created.beneficiaryId}`)).json()).approvalRefusal).toBe(openAlertsMessage);
    // Owners do not resolve alerts; the analyst needs a reason and the current version.
    const path = `${b3}/${created.beneficiaryId}/alerts/${alert?.alertId}`;
    expect((await call(users.owner, 'PUT', path, { decision: 'dismissed', reason: 'Different person', version: 1 })).status).toBe(403);
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: '', version: 1 })).status).toBe(400);
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: 'Passport shows a different person', version: 2 })).status).toBe(409);
    const resolved = await call(riskUsers.risk, 'PUT', path, { decision: 'dismissed', reason: 'Passport shows a different person', version: 1 });
    expect(resolved.status).toBe(200);
    expect(beneficiary.assert(await resolved.json()).alerts[0]).toMatchObject({ status: 'dismissed', reason: 'Passport shows a different person', resolvedBy: 'u-risk Test' });
    expect((await call(riskUsers.risk, 'PUT', path, { decision: 'confirmed', reason: 'Changed my mind', version: 2 })).status).toBe(422);
    const [event] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'ScreeningAlertResolved'));
    expect(event?.metaData).toMatchObject({ decision: 'dismissed', reason: 'Passport shows a different person', entryId: 'SL0001' });
    expect((await call(riskUsers.secondOwner, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(200);
  });

  it('rejects a beneficiary whose alert is confirmed as a true match', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Golden Harbor Trading LLC', nameOnBankAccount: 'Golden Harbor Trading' });
    const [alert] = created.alerts;
    expect(alert?.entryId).toBe('SL0101');
    const confirmed = await call(riskUsers.risk, 'PUT', `${b3}/${created.beneficiaryId}/alerts/${alert?.alertId}`, { decision: 'confirmed', reason: 'Same registered address as the listed company', version: 1 });
    expect(beneficiary.assert(await confirmed.json())).toMatchObject({ status: 'Rejected' });
    expect((await call(users.admin, 'PUT', `${b3}/${created.beneficiaryId}/status`, { status: 'Approved' })).status).toBe(422);
  });

  it('screens on every change: renaming a clean beneficiary to a listed name raises an alert', async () => {
    const created = await create(users.owner, { ...company, companyName: 'Fellside Tents', nameOnBankAccount: 'Fellside Tents' });
    expect(created.alerts).toEqual([]);
    const changed = beneficiary.assert(await (await call(users.owner, 'PUT', `${b3}/${created.beneficiaryId}`, { ...company, companyName: 'Aegean Star Shipping', nameOnBankAccount: 'Aegean Star Shipping SA', version: 1 })).json());
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

  it('lists a business\'s beneficiaries with filters; 404 across tenants; 403 without the permission', async () => {
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
    expect(screeningAlertList.assert(await response.json()).results.map((alert) => alert.entryId)).toEqual(['SL0104']);
    expect((await call(users.owner, 'GET', '/screening-alerts')).status).toBe(403);
    expect((await call(users.readonly, 'GET', '/screening-alerts')).status).toBe(403);
  });

  it('changes the match sensitivity with a version, audited; higher sensitivity raises more alerts', async () => {
    const current = await (await call(riskUsers.risk, 'GET', '/screening/settings')).json() as { sensitivity: string; version: number };
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
    expect(events.map((event) => event.metaData)).toEqual([{ from: 'medium', to: 'low' }, { from: 'low', to: 'high' }]);
  });
});
