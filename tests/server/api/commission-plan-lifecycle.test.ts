// Creating and deleting commission plans on PGlite and PostgreSQL: a finance admin creates a plan under
// the edit's checks (201, the plan as GET answers it, audited CommissionPlanCreated); the partner itself and read-only
// internal users are refused (403), another partner's user and everyone else out of reach get 404; malformed bodies
// and each field's problem answer 400. Only a plan that has not started may be deleted, under the version rule
// (409 when stale), audited CommissionPlanDeleted, and its id is never issued again; a started plan answers 400 and stays.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { commissionPlanDetail, type CommissionRuleBody } from '../../../src/contract/partner-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { insertCommissionPlans, partnerPlanIds } from './partner-fixtures.ts';

const { users } = fixture;
const financeAdmin = 'u-finance-admin';
const plansPath = '/partners/P1/commission-plans';

const rule = (priority: number, description: string, terms: Partial<CommissionRuleBody> = {}): CommissionRuleBody => ({
  priority,
  description,
  volumeFromMinor: 0,
  volumeToMinor: null,
  percentageBasisPoints: 0,
  fixedMinor: 0,
  channel: null,
  currency: null,
  paymentMethod: null,
  cardType: null,
  ...terms,
});

/** A UTC date 'YYYY-MM-DD' this many days from today. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const newPlan = (overrides: Record<string, unknown> = {}) => ({
  name: '  Launch share 2027  ',
  validFrom: daysFromToday(40),
  validTo: null,
  rules: [
    rule(10, 'GBP: 25% of the fee', { currency: 'GBP', percentageBasisPoints: 2500 }),
    rule(20, 'Any other fee: 10% plus 1p', { percentageBasisPoints: 1000, fixedMinor: 1 }),
  ],
  ...overrides,
});

describe.each(databaseKinds)('creating and deleting commission plans on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertCommissionPlans(database);
    await database.db.insert(schema.users).values({
      id: financeAdmin,
      email: 'finance-admin@fixture.test',
      givenName: 'Fin',
      familyName: 'Admin',
      passwordHash: 'scrypt$1$1$1$x$y',
      internal: true,
      passwordExpiresUtc: new Date(Date.now() + 30 * 86_400_000),
    });
    await database.db.insert(schema.userRoles).values({ userId: financeAdmin, role: 'FinanceAdmin', level: 'root' });
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const auditsOf = (event: string) => database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, event));

  it('creates a plan with the next id of the partner, answers it as GET does and audits it', async () => {
    const response = await call(financeAdmin, 'POST', plansPath, newPlan());
    expect(response.status, await response.clone().text()).toBe(201);
    const created = commissionPlanDetail.assert(await response.json());
    expect(created).toMatchObject({
      commissionPlanId: 'CP-P1-1',
      partnerId: 'P1',
      name: 'Launch share 2027',
      status: 'Scheduled',
      version: 1,
      editable: true,
      months: [],
    });
    expect(created.rules.map((entry) => [entry.priority, entry.description, entry.percentageBasisPoints, entry.fixedMinor, entry.currency])).toEqual([
      [10, 'GBP: 25% of the fee', 2500, 0, 'GBP'],
      [20, 'Any other fee: 10% plus 1p', 1000, 1, null],
    ]);
    const read = commissionPlanDetail.assert(await (await call(users.partner, 'GET', `${plansPath}/CP-P1-1`)).json());
    expect(read).toMatchObject({ ...created, editable: false });
    const [audit] = await auditsOf('CommissionPlanCreated');
    expect(audit).toMatchObject({
      userId: financeAdmin,
      metaData: { partnerId: 'P1', commissionPlanId: 'CP-P1-1', version: 1, plan: { name: 'Launch share 2027', validTo: null } },
    });
    expect((audit!.metaData as { plan: { rules: unknown[] } }).plan.rules).toHaveLength(2);

    // The next plan takes the next number; the partner's list holds both.
    const second = await call(users.admin, 'POST', plansPath, newPlan({ name: 'Second', validFrom: daysFromToday(-10), validTo: daysFromToday(300) }));
    expect(second.status).toBe(201);
    expect(commissionPlanDetail.assert(await second.json())).toMatchObject({ commissionPlanId: 'CP-P1-2', status: 'Active' });
    const list = (await (await call(users.partner, 'GET', plansPath)).json()) as { results: { commissionPlanId: string }[] };
    expect(list.results.map((entry) => entry.commissionPlanId).sort()).toEqual(['CP-P1', 'CP-P1-1', 'CP-P1-2']);
  });

  it('refuses the partner and read-only users (403) and everyone out of reach (404), writing nothing', async () => {
    const before = await snapshot(database);
    expect((await call(users.partner, 'POST', plansPath, newPlan())).status).toBe(403);
    expect((await call(users.readonly, 'POST', plansPath, newPlan())).status).toBe(403);
    // P1's partner user is another partner's user for P2.
    expect((await call(users.partner, 'POST', '/partners/P2/commission-plans', newPlan())).status).toBe(404);
    for (const user of [users.owner, users.finance, users.merchantOnly, users.nobody])
      expect((await call(user, 'POST', plansPath, newPlan())).status).toBe(404);
    expect((await call(null, 'POST', plansPath, newPlan())).status).toBe(401);
    expect((await call(financeAdmin, 'POST', '/partners/P9/commission-plans', newPlan())).status).toBe(404);
    expect(await snapshot(database)).toBe(before);
  });

  it('answers 400 with an errorReport for malformed bodies and names each field problem as an edit does', async () => {
    const before = await snapshot(database);
    const bad = async (body: unknown, headers?: Record<string, string>) => {
      const response = await call(financeAdmin, 'POST', plansPath, body, headers);
      expect(response.status).toBe(400);
      return messages(response);
    };
    await bad(newPlan({ version: 1 }));
    await bad(newPlan({ extra: true }));
    await bad(newPlan({ rules: [{ ...rule(10, 'x'), ruleId: 'X' }] }));
    await bad(newPlan({ validTo: 7 }));
    await bad('{not json', { 'content-type': 'application/json' });
    await bad([]);
    expect(await bad(newPlan({ rules: [] }))).toEqual(['Use at least one rule']);
    expect(await bad(newPlan({ name: '  ' }))).toEqual(['Name is required']);
    expect(await bad(newPlan({ validFrom: '2026-02-30' }))).toEqual(['Valid from is invalid']);
    expect(await bad(newPlan({ validFrom: '2030-01-01', validTo: '2029-12-31' }))).toEqual(['Valid to should be above 2030-01-01']);
    expect(await bad(newPlan({ rules: [rule(10, 'One'), rule(10, 'Two')] }))).toEqual(['Rule 1: Priority is not unique', 'Rule 2: Priority is not unique']);
    expect(await bad(newPlan({ rules: [rule(10, 'Band', { percentageBasisPoints: 10_001, currency: 'gbp' })] }))).toEqual([
      'Rule 1: Percentage of the fee should be between 0 and 100',
      'Rule 1: Currency is invalid',
    ]);
    expect(await snapshot(database)).toBe(before);
  });

  it('deletes a plan that has not started under the version rule, and audits it', async () => {
    const created = commissionPlanDetail.assert(await (await call(financeAdmin, 'POST', plansPath, newPlan({ name: 'To be deleted' }))).json());
    const path = `${plansPath}/${created.commissionPlanId}`;
    const before = await snapshot(database);
    // Refused callers, a missing or malformed version and a stale one change nothing.
    expect((await call(users.partner, 'DELETE', `${path}?version=1`)).status).toBe(403);
    expect((await call(users.owner, 'DELETE', `${path}?version=1`)).status).toBe(404);
    expect((await call(financeAdmin, 'DELETE', `/partners/P2/commission-plans/${created.commissionPlanId}?version=1`)).status).toBe(404);
    expect(await messages(await call(financeAdmin, 'DELETE', path))).toEqual(['version is required']);
    expect((await call(financeAdmin, 'DELETE', `${path}?version=one`)).status).toBe(400);
    expect((await call(financeAdmin, 'DELETE', `${path}?version=${created.version + 1}`)).status).toBe(409);
    expect(await snapshot(database)).toBe(before);

    const response = await call(financeAdmin, 'DELETE', `${path}?version=${created.version}`);
    expect(response.status).toBe(204);
    expect((await call(financeAdmin, 'GET', path)).status).toBe(404);
    expect(await database.db.select().from(schema.commissionRules).where(eq(schema.commissionRules.planId, created.commissionPlanId))).toEqual([]);
    const deleted = (await auditsOf('CommissionPlanDeleted')).find(
      (row) => (row.metaData as { commissionPlanId: string }).commissionPlanId === created.commissionPlanId,
    );
    expect(deleted).toMatchObject({ userId: financeAdmin, metaData: { partnerId: 'P1', version: 1, plan: { name: 'To be deleted' } } });
    expect((await call(financeAdmin, 'DELETE', `${path}?version=${created.version}`)).status).toBe(404);

    // The deleted plan was the partner's newest: its id, named in its audit events, is not given to the next plan.
    const number = (id: string) => Number(id.slice('CP-P1-'.length));
    const next = commissionPlanDetail.assert(await (await call(financeAdmin, 'POST', plansPath, newPlan({ name: 'After the deletion' }))).json());
    expect(number(next.commissionPlanId)).toBe(number(created.commissionPlanId) + 1);
  });

  it('refuses to delete a plan that has started or ended, keeping it', async () => {
    await database.db
      .insert(schema.commissionPlans)
      .values({ id: 'CP-P1-OLD', partnerId: 'P1', name: 'Introductory', validFrom: '2024-01-01', validTo: '2024-12-31' });
    const refusal = 'This commission plan has started and cannot be deleted; end it by setting its last day instead.';
    for (const planId of [partnerPlanIds.p1, 'CP-P1-OLD']) {
      const response = await call(financeAdmin, 'DELETE', `${plansPath}/${planId}?version=1`);
      expect(response.status).toBe(400);
      expect(await messages(response)).toEqual([refusal]);
      expect((await call(financeAdmin, 'GET', `${plansPath}/${planId}`)).status).toBe(200);
    }
  });
});
