// The principal is read in one statement on every call: a granted, changed or removed role, or a removed user,
// applies to the very next request (nothing about who may do what is remembered between calls).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { loadPrincipal } from '../../../server/policy/principal.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

describe.each(databaseKinds)('principal on %s', (kind) => {
  const harness = useFixtureApp(kind);
  const { users } = fixture;

  it('reads grants, partner reach and the user in one go', async () => {
    const partner = await loadPrincipal(harness.database, users.partner);
    expect(partner).toMatchObject({
      userId: users.partner,
      email: 'partner@fixture.test',
      internal: false,
      rootRoles: [],
      partnerIds: ['P1'],
      grants: [{ role: 'Owner', level: 'partner', partnerId: 'P1', businessId: null, merchantId: null }],
      businessIds: [],
      merchantIds: [],
    });
    expect([...(partner?.partnerBusinessIds ?? [])].sort()).toEqual(['B1', 'B2']);
    expect(partner?.passwordExpiresUtc).toBeInstanceOf(Date);
    const merchantOnly = await loadPrincipal(harness.database, users.merchantOnly);
    expect(merchantOnly).toMatchObject({ merchantIds: ['M1b'], partnerBusinessIds: [], partnerIds: [], businessIds: [] });
    expect(await loadPrincipal(harness.database, users.nobody)).toMatchObject({ grants: [], partnerBusinessIds: [] });
    expect(await loadPrincipal(harness.database, 'u-missing')).toBeNull();
  });

  it('a role change takes effect on the next request', async () => {
    const { db } = harness.database;
    const read = () => harness.call(users.nobody, 'GET', '/businesses/B3/transactions?pagesize=10');
    expect((await read()).status).toBe(404);
    const [grant] = await db.insert(schema.userRoles).values({ userId: users.nobody, role: 'Owner', level: 'business', businessId: 'B3' }).returning();
    expect((await read()).status).toBe(200);
    await db
      .update(schema.userRoles)
      .set({ businessId: 'B2' })
      .where(eq(schema.userRoles.id, grant?.id ?? 0));
    expect((await read()).status).toBe(404);
    await db.delete(schema.userRoles).where(eq(schema.userRoles.userId, users.nobody));
    expect((await harness.call(users.nobody, 'GET', '/businesses/B2/transactions?pagesize=10')).status).toBe(404);
  });

  it('a removed user is refused on the next request', async () => {
    const { db } = harness.database;
    expect((await harness.call(users.merchantOnly, 'GET', '/user/permissions')).status).toBe(200);
    await db.delete(schema.users).where(eq(schema.users.id, users.merchantOnly));
    expect((await harness.call(users.merchantOnly, 'GET', '/user/permissions')).status).toBe(401);
  });
});
