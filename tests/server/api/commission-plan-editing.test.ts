// Editing a commission plan on PGlite and PostgreSQL: a finance admin replaces a plan's rules under the
// version rule (409 when stale, nothing written), audited with before and after; the partner itself, read-only
// internal users and everyone else are refused; malformed bodies and each field's problem answer 400 in the spec's
// generic wording; an ended plan is not changed; the commission earned is recomputed with the new rules.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { commissionPlanDetail, type CommissionRuleBody } from '../../../src/contract/partner-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { insertCommissionPlans, insertPartnerPayments, partnerPayments, partnerPlanIds } from './partner-fixtures.ts';

const { users } = fixture;
const financeAdmin = 'u-finance-admin';
const planPath = `/partners/P1/commission-plans/${partnerPlanIds.p1}`;

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

describe.each(databaseKinds)('editing a commission plan on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertCommissionPlans(database);
    await insertPartnerPayments(database, partnerPayments);
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

  const read = async (user: string) => commissionPlanDetail.assert(await (await call(user, 'GET', planPath)).json());
  const messages = async (response: Response) =>
    ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((error) => error.message);
  const bodyFrom = (plan: Awaited<ReturnType<typeof read>>, rules: CommissionRuleBody[]) => ({
    version: plan.version,
    name: plan.name,
    validFrom: plan.validFrom,
    validTo: plan.validTo,
    rules,
  });

  it('tells each caller whether they may change the plan', async () => {
    expect((await read(financeAdmin)).editable).toBe(true);
    expect((await read(users.admin)).editable).toBe(true);
    expect((await read(users.readonly)).editable).toBe(false);
    expect((await read(users.partner)).editable).toBe(false);
  });

  it('refuses the partner, read-only users and everyone out of reach, writing nothing', async () => {
    const plan = await read(financeAdmin);
    const body = bodyFrom(plan, [rule(10, 'Any fee: 50%', { percentageBasisPoints: 5000 })]);
    const before = await snapshot(database);
    expect((await call(users.partner, 'PUT', planPath, body)).status).toBe(403);
    expect((await call(users.readonly, 'PUT', planPath, body)).status).toBe(403);
    for (const user of [users.owner, users.finance, users.merchantOnly, users.nobody]) expect((await call(user, 'PUT', planPath, body)).status).toBe(404);
    expect((await call(null, 'PUT', planPath, body)).status).toBe(401);
    // A plan of another partner, addressed under this one, does not exist here.
    expect((await call(financeAdmin, 'PUT', `/partners/P1/commission-plans/${partnerPlanIds.p2}`, body)).status).toBe(404);
    expect((await call(financeAdmin, 'PUT', '/partners/P9/commission-plans/CP-P1', body)).status).toBe(404);
    expect(await snapshot(database)).toBe(before);
  });

  it('answers 400 for malformed bodies and names each field problem in the generic wording', async () => {
    const plan = await read(financeAdmin);
    const before = await snapshot(database);
    const good = rule(10, 'Any fee: 20%', { percentageBasisPoints: 2000 });
    const bad = async (body: unknown) => {
      const response = await call(financeAdmin, 'PUT', planPath, body);
      expect(response.status).toBe(400);
      return messages(response);
    };
    await bad({ ...bodyFrom(plan, [good]), extra: true });
    await bad({ ...bodyFrom(plan, [good]), rules: [{ ...good, ruleId: 'X' }] });
    await bad({ ...bodyFrom(plan, [good]), version: 'one' });
    expect((await call(financeAdmin, 'PUT', planPath, '{not json', { 'content-type': 'application/json' })).status).toBe(400);
    expect(await bad(bodyFrom(plan, []))).toEqual(['Use at least one rule']);
    expect(await bad({ ...bodyFrom(plan, [good]), name: '  ' })).toEqual(['Name is required']);
    expect(await bad({ ...bodyFrom(plan, [good]), validFrom: '2026-02-30' })).toEqual(['Valid from is invalid']);
    expect(await bad({ ...bodyFrom(plan, [good]), validTo: '2000-01-01' })).toEqual([`Valid to should be above ${plan.validFrom}`]);
    expect(await bad(bodyFrom(plan, [good, rule(10, 'Another', { percentageBasisPoints: 100 })]))).toEqual([
      'Rule 1: Priority is not unique',
      'Rule 2: Priority is not unique',
    ]);
    expect(await bad(bodyFrom(plan, [rule(10, '', { percentageBasisPoints: 10_001, fixedMinor: -1 })]))).toEqual([
      'Rule 1: Description is required',
      'Rule 1: Percentage of the fee should be between 0 and 100',
      'Rule 1: Fixed amount should be between 0 and 100000',
    ]);
    expect(
      await bad(
        bodyFrom(plan, [
          rule(10, 'Band', { volumeFromMinor: 5000, volumeToMinor: 5000, currency: 'gbp', paymentMethod: 'cheque', channel: 'Fax', cardType: 'Diners' }),
        ]),
      ),
    ).toEqual([
      'Rule 1: Volume to should be above 5000',
      'Rule 1: Channel is invalid',
      'Rule 1: Currency is invalid',
      'Rule 1: Payment method is invalid',
      'Rule 1: Card type is invalid',
    ]);
    expect(await snapshot(database)).toBe(before);
  });

  it('replaces the rules under the version rule, audits before and after, and recomputes the commission', async () => {
    const plan = await read(financeAdmin);
    const earnedBefore = plan.totals.find((total) => total.currency === 'GBP')?.commissionMinor;
    const rules = [
      rule(5, 'MOTO: 10% of the fee', { channel: 'Moto', percentageBasisPoints: 1000 }),
      rule(20, 'GBP cards, Visa: 50% of the fee plus 1p', {
        currency: 'GBP',
        paymentMethod: 'card',
        cardType: 'Visa',
        percentageBasisPoints: 5000,
        fixedMinor: 1,
      }),
      rule(90, 'Any other fee: 15%', { percentageBasisPoints: 1500 }),
    ];
    const response = await call(financeAdmin, 'PUT', planPath, { ...bodyFrom(plan, rules), name: 'Visa push 2026' });
    expect(response.status, await response.clone().text()).toBe(200);
    const saved = commissionPlanDetail.assert(await response.json());
    expect(saved).toMatchObject({ name: 'Visa push 2026', version: plan.version + 1, editable: true });
    expect(saved.rules.map((entry) => [entry.priority, entry.description, entry.percentageBasisPoints, entry.fixedMinor, entry.cardType])).toEqual([
      [5, 'MOTO: 10% of the fee', 1000, 0, null],
      [20, 'GBP cards, Visa: 50% of the fee plus 1p', 5000, 1, 'Visa'],
      [90, 'Any other fee: 15%', 1500, 0, null],
    ]);
    // The rules the ledger's fees are matched to are the new ones: the month's GBP commission changes.
    expect(saved.totals.find((total) => total.currency === 'GBP')?.commissionMinor).not.toBe(earnedBefore);
    expect(await read(users.partner)).toMatchObject({ name: 'Visa push 2026', version: plan.version + 1 });

    const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'CommissionPlanUpdated'));
    expect(audit).toMatchObject({ userId: financeAdmin });
    const meta = audit?.metaData as {
      partnerId: string;
      commissionPlanId: string;
      version: number;
      before: { name: string; rules: unknown[] };
      after: { name: string; rules: unknown[] };
    };
    expect(meta).toMatchObject({ partnerId: 'P1', commissionPlanId: partnerPlanIds.p1, version: plan.version + 1 });
    expect(meta.before.name).toBe(plan.name);
    expect(meta.before.rules).toHaveLength(plan.rules.length);
    expect(meta.after).toMatchObject({ name: 'Visa push 2026' });
    expect(meta.after.rules).toHaveLength(3);

    // The same body again carries the old version: 409, and nothing changes.
    const before = await snapshot(database);
    const stale = await call(financeAdmin, 'PUT', planPath, bodyFrom(plan, [rule(1, 'Everything: 99%', { percentageBasisPoints: 9900 })]));
    expect(stale.status).toBe(409);
    expect(await snapshot(database)).toBe(before);
  });

  it('does not change a plan that has ended', async () => {
    await database.db
      .insert(schema.commissionPlans)
      .values({ id: 'CP-P1-OLD', partnerId: 'P1', name: 'Introductory', validFrom: '2024-01-01', validTo: '2024-12-31' });
    await database.db
      .insert(schema.commissionRules)
      .values({ id: 'CP-P1-OLD-R10', planId: 'CP-P1-OLD', priority: 10, description: 'Any fee: 20%', percentageBasisPoints: 2000 });
    const ended = commissionPlanDetail.assert(await (await call(financeAdmin, 'GET', '/partners/P1/commission-plans/CP-P1-OLD')).json());
    expect(ended).toMatchObject({ status: 'Ended', editable: false });
    const response = await call(
      financeAdmin,
      'PUT',
      '/partners/P1/commission-plans/CP-P1-OLD',
      bodyFrom(ended, [rule(10, 'Any fee: 90%', { percentageBasisPoints: 9000 })]),
    );
    expect(response.status).toBe(400);
    expect(await messages(response)).toEqual(['This commission plan has ended and cannot be changed.']);
    const [kept] = await database.db
      .select()
      .from(schema.commissionRules)
      .where(and(eq(schema.commissionRules.planId, 'CP-P1-OLD'), eq(schema.commissionRules.priority, 10)));
    expect(kept?.percentageBasisPoints).toBe(2000);
  });
});
