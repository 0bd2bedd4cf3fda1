// The migration that moves the tickets, users and payment jobs overviews' filter presets from user settings
// ({page}FilterPresets) into filter_presets as personal presets (0043_setting_filter_presets.sql), run again on a
// database holding such settings: what it copies, what it drops as the overviews' tolerant read did, and that the
// settings go while others stay.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedPreset, storedPresetList, type StoredPreset } from '../../../src/contract/filter-presets.ts';
import { migrationsFolder, type Database } from '../../../server/db/client.ts';
import { filterPresets, userSettings } from '../../../server/db/schema.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';

const { users } = fixture;
const migration = readFileSync(join(migrationsFolder, '0043_setting_filter_presets.sql'), 'utf8');

describe.each(databaseKinds)('the setting presets migration on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    ({ call } = createTestApp(database));
    const setting = (userId: string, key: string, value: unknown) => ({ userId, key, value: typeof value === 'string' ? value : JSON.stringify(value) });
    await database.db.insert(userSettings).values([
      setting(users.finance, 'ticketsFilterPresets', [
        { identifier: 'a', name: ' Open urgent ', filters: { status: '[eq]Open', priority: '[eq]High', amount: 5, note: '', 'bad key': 'x' } },
        1,
        null,
        { identifier: 'x', name: '   ', filters: {} },
        { identifier: 'y', name: 'Filters in a list', filters: [] },
        { name: 'No identifier', filters: {} },
        { identifier: 'b', name: 'Mine', filters: { assignee: '[eq]u-finance' } },
        { identifier: 'c', name: 'MINE', filters: { assignee: '[eq]none' } },
      ]),
      setting(users.finance, 'usersFilterPresets', [{ identifier: 'u', name: 'L'.repeat(60), filters: { status: '[eq]locked' } }]),
      setting(users.finance, 'transactionsColumns', { hidden: ['currency'] }),
      setting(users.owner, 'paymentJobsFilterPresets', [
        { identifier: 'p', name: 'Paid', filters: { tab: '[eq]paid' } },
        { identifier: 'q', name: 'Cards', filters: { paymentmethod: '[eq]card' } },
      ]),
      setting(users.owner, 'usersFilterPresets', '"not a list"'),
      setting(users.partner, 'ticketsFilterPresets', '{not JSON'),
      // Left behind when the transactions overview's presets moved to the database.
      setting(users.owner, 'transactionsFilterPresets', [{ identifier: 't', name: 'Refunds', filters: { type: '[eq]refund' } }]),
    ]);
    // A preset the owner already keeps in the database under one of the names: it stays as it is.
    await database.db
      .insert(filterPresets)
      .values({ id: 'FP00000000000000AA', page: 'paymentJobs', name: 'PAID', filters: { tab: '[eq]paid' }, sharing: 'personal', ownerId: users.owner });
    for (const statement of migration.split('--> statement-breakpoint')) await database.query(statement);
  });
  afterAll(async () => database?.close());

  async function listed(userId: string, page: string): Promise<StoredPreset[]> {
    const response = await call(userId, 'GET', `/filter-presets?page=${page}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return storedPresetList.assert(await response.json()).results;
  }

  it('copies each well-formed preset as a personal preset of its page, its text filters only', async () => {
    const tickets = await listed(users.finance, 'tickets');
    expect(tickets.map((preset) => [preset.name, preset.filters])).toEqual([
      ['MINE', { assignee: '[eq]none' }],
      ['Open urgent', { priority: '[eq]High', status: '[eq]Open' }],
    ]);
    for (const preset of tickets) {
      expect(preset).toMatchObject({ page: 'tickets', sharing: 'personal', businessId: null, relativeDate: null, editable: true, version: 1 });
      expect(preset.id).toMatch(/^FP[0-9A-F]{16}$/);
    }
    expect((await listed(users.finance, 'users')).map((preset) => [preset.name, preset.filters])).toEqual([['L'.repeat(50), { status: '[eq]locked' }]]);
    expect((await listed(users.owner, 'paymentJobs')).map((preset) => [preset.id === 'FP00000000000000AA', preset.name])).toEqual([
      [false, 'Cards'],
      [true, 'PAID'],
    ]);
    expect((await listed(users.owner, 'transactions')).map((preset) => [preset.name, preset.filters])).toEqual([['Refunds', { type: '[eq]refund' }]]);
    expect(await listed(users.owner, 'users')).toEqual([]);
    expect(await listed(users.partner, 'tickets')).toEqual([]);
    // Nobody else sees them.
    expect(await listed(users.owner, 'tickets')).toEqual([]);
  });

  it('leaves presets the overviews change as any other', async () => {
    const [preset] = await listed(users.finance, 'users');
    if (!preset) throw new Error('no migrated preset');
    const response = await call(users.finance, 'PUT', `/filter-presets/${preset.id}`, { name: 'Locked', filters: preset.filters, version: preset.version });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(storedPreset.assert(await response.json())).toMatchObject({ name: 'Locked', version: 2 });
  });

  it('removes the four settings, read or not, and keeps the others', async () => {
    const left = await database.query<{ user_id: string; key: string }>('SELECT user_id, key FROM user_settings ORDER BY user_id, key');
    expect(left).toEqual([{ user_id: users.finance, key: 'transactionsColumns' }]);
  });
});
