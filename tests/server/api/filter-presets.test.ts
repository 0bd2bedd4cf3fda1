// Filter presets in the database: personal,
// shared with a business (read-only to its other users; its owner or an admin edits), shared with an internal
// role, a default per page and business; versions (409), audit, and tenants (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedPreset, storedPresetList, type StoredPreset } from '../../../src/contract/filter-presets.ts';
import type { Database } from '../../../server/db/client.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const lastMonthEuros = {
  page: 'transactions',
  name: 'Refunds over €50, last month',
  filters: { kind: '[eq]refund', currency: '[eq]EUR', amount: '[gte]50' },
  relativeDate: 'lastMonth',
};

describe.each(databaseKinds)('filter presets on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function created(userId: string, path: string, body: unknown): Promise<StoredPreset> {
    const response = await call(userId, 'POST', path, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return storedPreset.assert(await response.json());
  }
  async function listed(userId: string, query: string): Promise<StoredPreset[]> {
    const response = await call(userId, 'GET', `/filter-presets?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return storedPresetList.assert(await response.json()).results;
  }
  const update = (preset: StoredPreset, changes: Partial<StoredPreset> = {}) => ({
    name: changes.name ?? preset.name,
    filters: changes.filters ?? preset.filters,
    relativeDate: changes.relativeDate ?? preset.relativeDate,
    ...(changes.isDefault === undefined ? {} : { isDefault: changes.isDefault }),
    version: changes.version ?? preset.version,
  });

  it('keeps a personal preset to its owner, its date relative', async () => {
    const preset = await created(users.finance, '/filter-presets', lastMonthEuros);
    expect(preset).toMatchObject({ sharing: 'personal', relativeDate: 'lastMonth', businessId: null, editable: true, version: 1, ownerName: 'u-finance Test' });
    expect((await listed(users.finance, 'page=transactions')).map((entry) => entry.id)).toContain(preset.id);
    expect((await listed(users.partner, 'page=transactions&businessId=B2')).map((entry) => entry.id)).not.toContain(preset.id);
    expect((await call(users.partner, 'PUT', `/filter-presets/${preset.id}`, update(preset))).status).toBe(404);
    expect((await call(users.partner, 'DELETE', `/filter-presets/${preset.id}?version=1`)).status).toBe(404);
    expect((await listed(users.finance, 'page=users')).map((entry) => entry.id)).not.toContain(preset.id);
  });

  it('shares with everyone on a business, read-only to them, and with no other tenant', async () => {
    const shared = await created(users.finance, '/businesses/B2/filter-presets', { ...lastMonthEuros, name: 'Team: refunds' });
    expect(shared).toMatchObject({ sharing: 'business', businessId: 'B2', isDefault: false });
    // The partner reaches B2 through P1: sees it, cannot change it.
    const seen = (await listed(users.partner, 'page=transactions&businessId=B2')).find((entry) => entry.id === shared.id);
    expect(seen).toMatchObject({ editable: false, relativeDate: 'lastMonth', filters: lastMonthEuros.filters });
    expect((await call(users.partner, 'PUT', `/filter-presets/${shared.id}`, update(shared, { name: 'Mine now' }))).status).toBe(403);
    expect((await call(users.partner, 'DELETE', `/filter-presets/${shared.id}?version=1`)).status).toBe(403);
    // B3's owner is another tenant: 404 everywhere.
    expect((await call(users.owner, 'GET', '/filter-presets?page=transactions&businessId=B2')).status).toBe(404);
    expect((await call(users.owner, 'GET', '/businesses/B2/filter-presets?page=transactions')).status).toBe(404);
    expect((await call(users.owner, 'POST', '/businesses/B2/filter-presets', lastMonthEuros)).status).toBe(404);
    expect((await call(users.owner, 'PUT', `/filter-presets/${shared.id}`, update(shared))).status).toBe(404);
    expect((await call(users.owner, 'DELETE', `/filter-presets/${shared.id}?version=1`)).status).toBe(404);
    expect((await listed(users.owner, 'page=transactions&businessId=B3')).map((entry) => entry.id)).not.toContain(shared.id);
    // Its owner edits it (409 on a stale version); an admin may too.
    const changedResponse = await call(users.finance, 'PUT', `/filter-presets/${shared.id}`, update(shared, { name: 'Team: EUR refunds' }));
    expect(changedResponse.status).toBe(200);
    const changed = storedPreset.assert(await changedResponse.json());
    expect(changed).toMatchObject({ name: 'Team: EUR refunds', version: 2 });
    expect((await call(users.finance, 'PUT', `/filter-presets/${shared.id}`, update(shared, { name: 'Stale' }))).status).toBe(409);
    expect((await call(users.admin, 'PUT', `/filter-presets/${shared.id}`, update(changed, { name: 'Checked by admin' }))).status).toBe(200);
    const events = await database.query<{ event: string; business_id: string | null }>(
      `SELECT event, business_id FROM audit_events WHERE meta_data->>'presetId' = $1 ORDER BY id`,
      [shared.id],
    );
    expect(events.map((event) => event.event)).toEqual(['FilterPresetCreated', 'FilterPresetChanged', 'FilterPresetChanged']);
    expect(events.every((event) => event.business_id === 'B2')).toBe(true);
    expect((await call(users.finance, 'DELETE', `/filter-presets/${shared.id}?version=2`)).status).toBe(409);
    expect((await call(users.finance, 'DELETE', `/filter-presets/${shared.id}?version=3`)).status).toBe(204);
    expect((await listed(users.partner, 'page=transactions&businessId=B2')).map((entry) => entry.id)).not.toContain(shared.id);
  });

  it('has one default per page and business, set by the business’s owner or an admin only', async () => {
    expect((await call(users.finance, 'POST', '/businesses/B2/filter-presets', { ...lastMonthEuros, isDefault: true })).status).toBe(403);
    const first = await created(users.owner, '/businesses/B3/filter-presets', { ...lastMonthEuros, name: 'First', isDefault: true });
    const second = await created(users.admin, '/businesses/B3/filter-presets', { ...lastMonthEuros, name: 'Second', isDefault: true });
    const presets = await listed(users.owner, 'page=transactions&businessId=B3');
    expect(presets.filter((entry) => entry.isDefault).map((entry) => entry.id)).toEqual([second.id]);
    expect(presets[0]?.id).toBe(second.id); // the default comes first
    expect(presets.find((entry) => entry.id === first.id)).toMatchObject({ isDefault: false, version: 2, editable: true });
    // A personal preset cannot be a business's default.
    const personal = await created(users.owner, '/filter-presets', { ...lastMonthEuros, name: 'Just mine' });
    expect((await call(users.owner, 'PUT', `/filter-presets/${personal.id}`, update(personal, { isDefault: true }))).status).toBe(400);
  });

  it('shares with an internal role: internal staff only, a role they hold', async () => {
    expect((await call(users.finance, 'POST', '/filter-presets', { ...lastMonthEuros, sharing: 'role', role: 'InternalReadOnly' })).status).toBe(403);
    expect((await call(users.readonly, 'POST', '/filter-presets', { ...lastMonthEuros, sharing: 'role', role: 'RiskAnalyst' })).status).toBe(403);
    expect((await call(users.readonly, 'POST', '/filter-presets', { ...lastMonthEuros, sharing: 'role', role: 'Owner' })).status).toBe(400);
    const forRole = await created(users.readonly, '/filter-presets', { ...lastMonthEuros, sharing: 'role', role: 'InternalReadOnly' });
    expect((await listed(users.admin, 'page=transactions')).find((entry) => entry.id === forRole.id)).toMatchObject({
      sharing: 'role',
      role: 'InternalReadOnly',
      editable: true,
    });
    expect((await listed(users.partner, 'page=transactions')).map((entry) => entry.id)).not.toContain(forRole.id);
    expect((await call(users.partner, 'PUT', `/filter-presets/${forRole.id}`, update(forRole))).status).toBe(404);
  });

  it('serves the other overviews in the contexts they run in: tickets without a business, users and payment jobs with one', async () => {
    const ticketsPreset = { page: 'tickets', name: 'Unassigned', filters: { assignee: '[eq]none' } };
    // Staff open tickets before choosing a business: their own presets, no business.
    const staffs = await created(users.readonly, '/filter-presets', ticketsPreset);
    expect((await listed(users.readonly, 'page=tickets')).map((entry) => entry.id)).toEqual([staffs.id]);
    // A business's users and payment jobs: shared with it, seen by whoever reaches it, a merchant-level user included.
    const usersPreset = await created(users.finance, '/businesses/B2/filter-presets', { page: 'users', name: 'Locked', filters: { status: '[eq]locked' } });
    expect((await listed(users.partner, 'page=users&businessId=B2')).map((entry) => entry.id)).toEqual([usersPreset.id]);
    const jobsPreset = await created(users.partner, '/businesses/B1/filter-presets', { page: 'paymentJobs', name: 'Paid', filters: { tab: '[eq]paid' } });
    expect((await listed(users.merchantOnly, 'page=paymentJobs&businessId=B1')).find((entry) => entry.id === jobsPreset.id)).toMatchObject({ editable: false });
    expect((await listed(users.merchantOnly, 'page=tickets&businessId=B1')).map((entry) => entry.id)).toEqual([]);
  });

  it.each([
    [{ ...lastMonthEuros, page: '../etc' }],
    [{ ...lastMonthEuros, name: '   ' }],
    [{ ...lastMonthEuros, relativeDate: 'nextCentury' }],
    [{ ...lastMonthEuros, filters: { 'a b': 'x' } }],
    [{ ...lastMonthEuros, filters: { status: 'x'.repeat(600) } }],
    [{ ...lastMonthEuros, owner: 'u-admin' }],
    [{ ...lastMonthEuros, role: 'InternalReadOnly' }],
  ])('refuses a malformed preset with a 400 naming the problem: %j', async (body) => {
    const response = await call(users.finance, 'POST', '/filter-presets', body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errorReport: { errors: unknown[] } }).errorReport.errors.length).toBeGreaterThan(0);
  });

  it('answers 404 for a preset id that is not one, and 400 without a page', async () => {
    expect((await call(users.finance, 'PUT', '/filter-presets/nope', { name: 'x', filters: {}, version: 1 })).status).toBe(404);
    expect((await call(users.finance, 'GET', '/filter-presets')).status).toBe(400);
    expect((await call(users.finance, 'DELETE', '/filter-presets/FP0000000000000000')).status).toBe(400);
  });
});
