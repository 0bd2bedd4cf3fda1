import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { configurationDetail, configurationList, hostedPageAnswer, hostedPageList, paymentMethodAnswer } from '../../../src/contract/configuration-schemas.ts';
import { defaultHostedPageDesign } from '../../../src/contract/configurations.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, snapshot } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;
const { developer, implementations } = configurationUsers;
const m1a = '/businesses/B1/merchants/M1a';

describe.each(databaseKinds)('configurations on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  async function json(userId: string, method: string, path: string, body?: unknown, expected = 200) {
    const response = await call(userId, method, path, body);
    expect(response.status, await response.clone().text()).toBe(expected);
    return response.status === 204 ? null : (response.json() as Promise<unknown>);
  }
  async function refused(userId: string, method: string, path: string, body?: unknown) {
    const response = await call(userId, method, path, body);
    const messages =
      response.status >= 400 ? ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((e) => e.message) : [];
    return { status: response.status, messages };
  }
  const create = async (userId: string, body: unknown = { tradeName: 'Web shop', description: 'Checkout', paymentMethods: ['card', 'ideal'] }) =>
    configurationDetail.assert(await json(userId, 'POST', `${m1a}/configurations`, body, 201));

  describe('configurations', () => {
    it("lists a merchant's configurations with their enabled methods", async () => {
      const body = configurationList.assert(await json(users.partner, 'GET', `${m1a}/configurations`));
      expect(body.results.map((row) => row.configurationId)).toEqual(['C-M1a']);
      expect(body.results[0]).toMatchObject({ tradeName: 'M1a shop', version: 1, enabledPaymentMethods: [], hostedPageCount: 0 });
      expect(body.results[0]?.switches.virtualTerminalMenuEnabled).toBe(true);
    });

    it("creates one with the wizard's methods switched on, audited", async () => {
      const created = await create(developer);
      expect(created).toMatchObject({ tradeName: 'Web shop', description: 'Checkout', version: 1, businessId: 'B1', merchantId: 'M1a', hostedPages: [] });
      const card = created.paymentMethods.find((entry) => entry.paymentMethod === 'card')?.configuration;
      expect(card).toEqual({
        paymentMethod: 'card',
        enabled: true,
        displayName: 'Card',
        threeDSecurePolicy: 'always',
        minimumAmount: null,
        maximumAmount: null,
        currencies: ['GBP', 'EUR'],
      });
      expect(created.paymentMethods.find((entry) => entry.paymentMethod === 'payPal')?.configuration.enabled).toBe(false);
      expect(created.paymentMethods).toHaveLength(15);
      const audits = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'ConfigurationCreated'));
      expect(audits.some((row) => (row.metaData as { configurationId?: string }).configurationId === created.configurationId)).toBe(true);
      const list = configurationList.assert(await json(developer, 'GET', `${m1a}/configurations?tradename=${encodeURIComponent('[eq]web')}`));
      expect(list.results.map((row) => row.configurationId)).toEqual([created.configurationId]);
      expect(list.results[0]?.enabledPaymentMethods).toEqual(['card', 'ideal']);
    });

    it('updates with the version it read; a stale version is a 409 that changes nothing', async () => {
      const created = await create(developer);
      const path = `${m1a}/configurations/${created.configurationId}`;
      const saved = configurationDetail.assert(
        await json(developer, 'PUT', path, {
          tradeName: 'Web shop EU',
          description: 'Checkout',
          switches: { virtualTerminalMenuEnabled: false, savedCardsEnabled: true },
          version: 1,
        }),
      );
      expect(saved).toMatchObject({
        tradeName: 'Web shop EU',
        version: 2,
        switches: { virtualTerminalMenuEnabled: false, savedCardsEnabled: true, paymentLinksEnabled: true },
      });
      const before = await snapshot(database);
      expect(
        await refused(implementations, 'PUT', path, { tradeName: 'Late', description: '', switches: { virtualTerminalMenuEnabled: true }, version: 1 }),
      ).toEqual({ status: 409, messages: ['Someone updated this view'] });
      expect(await snapshot(database)).toBe(before);
    });

    it('deletes with the version and then answers 404 to an update', async () => {
      const created = await create(developer);
      const path = `${m1a}/configurations/${created.configurationId}`;
      expect((await refused(developer, 'DELETE', `${path}?version=7`)).status).toBe(409);
      expect((await refused(developer, 'DELETE', path)).messages).toEqual(['version is required']);
      await json(developer, 'DELETE', `${path}?version=1`, undefined, 204);
      expect(
        (await refused(developer, 'PUT', path, { tradeName: 'Gone', description: '', switches: { virtualTerminalMenuEnabled: true }, version: 1 })).status,
      ).toBe(404);
      expect((await refused(developer, 'GET', path)).status).toBe(404);
    });

    it('refuses to delete a configuration that has payments', async () => {
      const answer = await refused(users.admin, 'DELETE', `${m1a}/configurations/C-M1a?version=1`);
      expect(answer.status).toBe(400);
      expect(answer.messages[0]).toContain('has payments');
    });

    it('validates with the generic messages', async () => {
      expect(await refused(developer, 'POST', `${m1a}/configurations`, { tradeName: ' ', description: '' })).toEqual({
        status: 400,
        messages: ['Trade name is required'],
      });
      expect((await refused(developer, 'POST', `${m1a}/configurations`, { tradeName: 'x'.repeat(101), description: '' })).status).toBe(400);
      expect(
        (
          await refused(developer, 'POST', `${m1a}/configurations`, {
            tradeName: 'A',
            description: '',
            switches: { virtualTerminalMenuEnabled: true, rocket: true },
          })
        ).status,
      ).toBe(400);
      expect((await refused(developer, 'POST', `${m1a}/configurations`, { tradeName: 'A', description: '', paymentMethods: ['cash'] })).status).toBe(400);
    });

    it('refuses roles without the permission (403) and other tenants (404)', async () => {
      expect((await refused(users.finance, 'GET', '/businesses/B2/merchants/M2a/configurations')).status).toBe(403);
      expect((await refused(users.readonly, 'POST', `${m1a}/configurations`, { tradeName: 'A', description: '' })).status).toBe(403);
      expect((await refused(users.owner, 'GET', `${m1a}/configurations`)).status).toBe(404);
      expect((await refused(users.owner, 'POST', `${m1a}/configurations`, { tradeName: 'A', description: '' })).status).toBe(404);
      // A configuration of another merchant, addressed under one's own.
      expect((await refused(users.owner, 'GET', '/businesses/B3/merchants/M3a/configurations/C-M1a')).status).toBe(404);
      expect(
        (
          await refused(users.owner, 'PUT', '/businesses/B3/merchants/M3a/configurations/C-M1a', {
            tradeName: 'A',
            description: '',
            switches: { virtualTerminalMenuEnabled: true },
            version: 1,
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('payment-method settings', () => {
    it('reads defaults, saves with the shared version and reads them back in major units', async () => {
      const created = await create(developer);
      const base = `${m1a}/configurations/${created.configurationId}`;
      expect(paymentMethodAnswer.assert(await json(developer, 'GET', `${base}/paypal`))).toMatchObject({ paymentMethod: 'payPal', enabled: false, version: 1 });
      const saved = paymentMethodAnswer.assert(
        await json(developer, 'PUT', `${base}/card`, {
          enabled: true,
          displayName: 'Credit or debit card',
          threeDSecurePolicy: 'riskBased',
          minimumAmount: 0.5,
          maximumAmount: 2500.25,
          currencies: ['gbp'],
          version: 1,
        }),
      );
      expect(saved).toEqual({
        paymentMethod: 'card',
        enabled: true,
        displayName: 'Credit or debit card',
        threeDSecurePolicy: 'riskBased',
        minimumAmount: 0.5,
        maximumAmount: 2500.25,
        currencies: ['GBP'],
        version: 2,
      });
      const [row] = await database.db
        .select()
        .from(schema.configurationPaymentMethods)
        .where(eq(schema.configurationPaymentMethods.configurationId, created.configurationId));
      expect(row).toMatchObject({ minimumAmountMilli: 500, maximumAmountMilli: 2_500_250 });
      // The configuration's version moved too: a save of the configuration with the old one is stale.
      expect(
        (await refused(developer, 'PUT', base, { tradeName: 'X', description: '', switches: { virtualTerminalMenuEnabled: true }, version: 1 })).status,
      ).toBe(409);
      expect((await refused(developer, 'PUT', `${base}/card`, { ...saved, paymentMethod: undefined, version: 1 })).status).toBe(409);
    });

    it('checks the settings', async () => {
      const created = await create(developer);
      const base = `${m1a}/configurations/${created.configurationId}`;
      const body = { enabled: true, displayName: 'iDEAL', threeDSecurePolicy: null, minimumAmount: 10, maximumAmount: 5, currencies: ['EUR'], version: 1 };
      expect(await refused(developer, 'PUT', `${base}/ideal`, body)).toEqual({ status: 400, messages: ['Maximum amount should be above 10'] });
      expect(await refused(developer, 'PUT', `${base}/ideal`, { ...body, maximumAmount: null, threeDSecurePolicy: 'always' })).toEqual({
        status: 400,
        messages: ['3-D Secure policy is invalid'],
      });
      expect(await refused(developer, 'PUT', `${base}/card`, { ...body, maximumAmount: null })).toEqual({
        status: 400,
        messages: ['3-D Secure policy is required'],
      });
      expect((await refused(developer, 'PUT', `${base}/ideal`, { ...body, maximumAmount: null, currencies: ['JPY'] })).messages[0]).toContain(
        'does not take JPY',
      );
      expect(await refused(developer, 'PUT', `${base}/ideal`, { ...body, maximumAmount: null, currencies: [] })).toEqual({
        status: 400,
        messages: ['Use at least one currency'],
      });
    });

    it('answers 404 for a name that is no payment method, and across tenants', async () => {
      expect((await refused(developer, 'GET', `${m1a}/configurations/C-M1a/cash`)).status).toBe(404);
      expect((await refused(developer, 'GET', `${m1a}/configurations/C-M1a/cardx`)).status).toBe(404);
      expect((await refused(users.owner, 'GET', `${m1a}/configurations/C-M1a/card`)).status).toBe(404);
      expect((await refused(users.finance, 'PUT', '/businesses/B2/merchants/M2a/configurations/C-M2a/card', {})).status).toBe(403);
    });
  });

  describe('hosted pages', () => {
    const design = { ...defaultHostedPageDesign, texts: { ...defaultHostedPageDesign.texts, description: 'Thank you for shopping' } };

    it('creates, reads, updates and deletes under the shared version', async () => {
      const created = await create(developer);
      const page = hostedPageAnswer.assert(
        await json(developer, 'POST', `${m1a}/hosted-pages`, { configurationId: created.configurationId, name: 'Checkout', design, version: 1 }, 201),
      );
      expect(page).toMatchObject({ configurationId: created.configurationId, name: 'Checkout', version: 2 });
      const list = hostedPageList.assert(await json(developer, 'GET', `${m1a}/hosted-pages?configurationid=${created.configurationId}`));
      expect(list.results.map((row) => row.reference)).toEqual([page.reference]);
      const detail = configurationDetail.assert(await json(developer, 'GET', `${m1a}/configurations/${created.configurationId}`));
      expect(detail.version).toBe(2);
      expect(detail.hostedPages.map((row) => row.reference)).toEqual([page.reference]);

      const changed = { ...design, colours: { ...design.colours, brand: '#AA0000' } };
      const saved = hostedPageAnswer.assert(
        await json(developer, 'PUT', `${m1a}/hosted-pages/${page.reference}`, { name: 'Checkout', design: changed, version: 2 }),
      );
      expect(saved).toMatchObject({ version: 3, design: { colours: { brand: '#AA0000' } } });
      // A configuration save with the version read before the page changed is stale, and vice versa.
      expect(
        (
          await refused(developer, 'PUT', `${m1a}/configurations/${created.configurationId}`, {
            tradeName: 'X',
            description: '',
            switches: { virtualTerminalMenuEnabled: true },
            version: 2,
          })
        ).status,
      ).toBe(409);
      expect((await refused(developer, 'PUT', `${m1a}/hosted-pages/${page.reference}`, { name: 'Checkout', design, version: 2 })).status).toBe(409);
      expect((await refused(developer, 'DELETE', `${m1a}/hosted-pages/${page.reference}?version=2`)).status).toBe(409);
      await json(developer, 'DELETE', `${m1a}/hosted-pages/${page.reference}?version=3`, undefined, 204);
      expect((await refused(developer, 'PUT', `${m1a}/hosted-pages/${page.reference}`, { name: 'Checkout', design, version: 4 })).status).toBe(404);
      expect(configurationDetail.assert(await json(developer, 'GET', `${m1a}/configurations/${created.configurationId}`)).version).toBe(4);
      const events = (await database.db.select().from(schema.auditEvents)).map((row) => row.event);
      expect(events).toEqual(expect.arrayContaining(['HostedPageCreated', 'HostedPageUpdated', 'HostedPageDeleted']));
    });

    it('checks texts, colours, URLs and the logo reference', async () => {
      const body = (overrides: Partial<typeof design>) => ({ configurationId: 'C-M1a', name: 'Page', design: { ...design, ...overrides }, version: 1 });
      expect(await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ texts: { ...design.texts, title: '' } }))).toEqual({
        status: 400,
        messages: ['Title is required'],
      });
      expect((await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ texts: { ...design.texts, title: 'x'.repeat(61) } }))).status).toBe(400);
      expect(await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ colours: { ...design.colours, text: 'red' } }))).toEqual({
        status: 400,
        messages: ['Text colour is invalid'],
      });
      expect(
        await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ returnUrls: { success: 'javascript:alert(1)', cancel: '', failure: '' } })),
      ).toEqual({ status: 400, messages: ['Success return URL is invalid'] });
      expect(await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ logoImageReference: 'IMG00000000000000000000000000000000' }))).toEqual({
        status: 400,
        messages: ['Logo is invalid'],
      });
      expect((await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ font: 'Comic Sans' as never }))).status).toBe(400);
      expect((await refused(developer, 'POST', `${m1a}/hosted-pages`, body({ paymentMethodOrder: ['card', 'card'] }))).status).toBe(400);
    });

    it('keeps pages to their tenant and permission', async () => {
      expect((await refused(users.owner, 'GET', `${m1a}/hosted-pages`)).status).toBe(404);
      expect(
        (await refused(users.owner, 'POST', '/businesses/B3/merchants/M3a/hosted-pages', { configurationId: 'C-M1a', name: 'Stolen', design, version: 1 }))
          .status,
      ).toBe(404);
      expect((await refused(users.readonly, 'POST', `${m1a}/hosted-pages`, { configurationId: 'C-M1a', name: 'Page', design, version: 1 })).status).toBe(403);
      expect((await refused(developer, 'GET', `${m1a}/hosted-pages?colour=red`)).status).toBe(400);
    });
  });
});
