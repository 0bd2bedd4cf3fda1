// Notifications authoring (Portal.Notifications.Create at root level), the publication workflow and schedule, the
// audience, and the reader's 'Mark as unread' / 'Mark all as read' kept per user on the server.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../server/db/schema.ts';
import { authoredNotification, authoredNotificationList } from '../../../src/contract/notification-schemas.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;

const content = (text: string) =>
  JSON.stringify({
    blocks: [
      { type: 'heading', level: 1, inlines: [{ text: 'Heads up' }] },
      {
        type: 'text',
        inlines: [
          { text: text, bold: true },
          { text: ' see ', italic: true },
          { text: 'the guide', href: 'https://example.com/guide' },
        ],
      },
      { type: 'richList', ordered: true, items: [[{ text: 'one' }], [{ text: 'two' }]] },
    ],
  });

describe.each(databaseKinds)('notifications authoring on %s', (kind) => {
  const harness = useFixtureApp(kind);
  const body = (overrides: Record<string, unknown> = {}) => ({
    title: 'New fees',
    content: content('Fees change.'),
    viewRestriction: 'allUsers',
    status: 'draft',
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}) => {
    const response = await harness.call(users.admin, 'POST', '/notifications', body(overrides));
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { reference: string }).reference;
  };
  const read = async (reference: string) => authoredNotification.assert(await (await harness.call(users.admin, 'GET', `/notifications/${reference}`)).json());
  const inbox = async (userId: string) =>
    ((await (await harness.call(userId, 'GET', '/user/notifications?pagesize=100')).json()) as { results: { reference: string; unread: boolean }[] }).results;
  const unread = async (userId: string) =>
    ((await (await harness.call(userId, 'GET', '/user/notifications/status')).json()) as { totalUnreadCount: number }).totalUnreadCount;

  it('lets only root authors in: 403 for everyone else on every call', async () => {
    const reference = await create();
    for (const userId of [users.owner, users.partner, users.readonly, users.nobody]) {
      expect((await harness.call(userId, 'GET', '/notifications')).status, userId).toBe(403);
      expect((await harness.call(userId, 'POST', '/notifications', body())).status, userId).toBe(403);
      expect((await harness.call(userId, 'GET', `/notifications/${reference}`)).status, userId).toBe(403);
      expect((await harness.call(userId, 'PUT', `/notifications/${reference}`, { ...body(), version: 1 })).status, userId).toBe(403);
      expect((await harness.call(userId, 'DELETE', `/notifications/${reference}`)).status, userId).toBe(403);
    }
  });

  it('creates a draft nobody reads, lists every status to authors, and audits it', async () => {
    const reference = await create();
    expect(await read(reference)).toMatchObject({
      reference,
      title: 'New fees',
      status: 'draft',
      publishedUtc: null,
      version: 1,
      audience: null,
      readCount: 0,
    });
    const list = authoredNotificationList.assert(await (await harness.call(users.admin, 'GET', '/notifications?status=[eq]draft&pagesize=100')).json());
    expect(list.results.map((row) => row.reference)).toContain(reference);
    expect(list.results.every((row) => row.status === 'draft')).toBe(true);
    expect((await inbox(users.owner)).map((row) => row.reference)).not.toContain(reference);
    const audits = await harness.database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'NotificationCreated'));
    expect(audits.some((row) => (row.metaData as { reference?: string }).reference === reference)).toBe(true);
  });

  it('publishes through the workflow, stamps publishedUtc, refuses skipping back, and answers 409 to a stale version', async () => {
    const reference = await create();
    const unreadBefore = await unread(users.owner);
    const ready = await harness.call(users.admin, 'PUT', `/notifications/${reference}`, { ...body({ status: 'readyForPublication' }), version: 1 });
    expect(ready.status).toBe(200);
    const published = await harness.call(users.admin, 'PUT', `/notifications/${reference}`, { ...body({ status: 'published' }), version: 2 });
    expect(published.status).toBe(200);
    expect(authoredNotification.assert(await published.json())).toMatchObject({ status: 'published', publishedUtc: expect.any(String), version: 3 });
    expect(await unread(users.owner)).toBe(unreadBefore + 1);
    expect((await harness.call(users.admin, 'PUT', `/notifications/${reference}`, { ...body({ status: 'draft' }), version: 3 })).status).toBe(400);
    expect((await harness.call(users.admin, 'PUT', `/notifications/${reference}`, { ...body({ status: 'unpublished' }), version: 2 })).status).toBe(409);
    expect((await harness.call(users.admin, 'PUT', `/notifications/${reference}`, { ...body({ status: 'unpublished' }), version: 3 })).status).toBe(200);
    expect(await unread(users.owner)).toBe(unreadBefore);
  });

  it('publishes a scheduled notification at its time, not before', async () => {
    const later = await create({ status: 'readyForPublication', publishAtUtc: new Date(Date.now() + 3_600_000).toISOString() });
    const due = await create({ status: 'readyForPublication', publishAtUtc: new Date(Date.now() - 1000).toISOString() });
    const references = (await inbox(users.owner)).map((row) => row.reference);
    expect(references).toContain(due);
    expect(references).not.toContain(later);
    expect(await read(due)).toMatchObject({ status: 'published', publishedUtc: expect.any(String) });
    expect((await harness.call(users.admin, 'POST', '/notifications', body({ status: 'draft', publishAtUtc: new Date().toISOString() }))).status).toBe(400);
  });

  it('shows a notification with an audience only to that partner’s or business’s users (and to internal users)', async () => {
    const reference = await create({ status: 'published', audience: { partnerIds: [], businessIds: ['B3'] } });
    expect((await inbox(users.owner)).map((row) => row.reference)).toContain(reference);
    expect((await inbox(users.partner)).map((row) => row.reference)).not.toContain(reference);
    expect((await harness.call(users.partner, 'GET', `/user/notifications/${reference}`)).status).toBe(404);
    expect((await inbox(users.admin)).map((row) => row.reference)).toContain(reference);
    const viaPartner = await create({ status: 'published', audience: { partnerIds: ['P1'], businessIds: [] } });
    expect((await inbox(users.partner)).map((row) => row.reference)).toContain(viaPartner);
    expect((await inbox(users.merchantOnly)).map((row) => row.reference)).not.toContain(viaPartner);
    expect((await harness.call(users.admin, 'POST', '/notifications', body({ audience: { partnerIds: ['P404'], businessIds: [] } }))).status).toBe(400);
  });

  it('refuses malformed bodies and content that is not a safe document', async () => {
    for (const bad of [
      body({ content: '<p>raw html</p>' }),
      body({ content: JSON.stringify({ blocks: [{ type: 'text', inlines: [{ text: 'x', href: 'javascript:alert(1)' }] }] }) }),
      body({ content: JSON.stringify({ root: { children: [] } }) }),
      body({ title: '' }),
      body({ status: 'archived' }),
      body({ viewRestriction: 'everyone' }),
      body({ extra: true }),
      body({ status: 'unpublished' }),
    ]) {
      const response = await harness.call(users.admin, 'POST', '/notifications', bad);
      expect(response.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    expect((await harness.call(users.admin, 'PUT', '/notifications/N404', { ...body(), version: 1 })).status).toBe(404);
  });

  it('deletes a notification', async () => {
    const reference = await create({ status: 'published' });
    expect((await harness.call(users.admin, 'DELETE', `/notifications/${reference}`)).status).toBe(204);
    expect((await harness.call(users.admin, 'GET', `/notifications/${reference}`)).status).toBe(404);
    expect((await harness.call(users.owner, 'GET', `/user/notifications/${reference}`)).status).toBe(404);
  });

  describe('read state per user', () => {
    let reference: string;
    beforeAll(async () => {
      reference = await create({ status: 'published' });
    });

    it('marks one as unread again, for the caller only', async () => {
      await harness.call(users.owner, 'GET', `/user/notifications/${reference}`);
      await harness.call(users.finance, 'GET', `/user/notifications/${reference}`);
      const before = await unread(users.owner);
      expect((await harness.call(users.owner, 'PUT', `/user/notifications/${reference}/read-state`, { read: false })).status).toBe(204);
      expect(await unread(users.owner)).toBe(before + 1);
      expect((await inbox(users.finance)).find((row) => row.reference === reference)?.unread).toBe(false);
      expect((await harness.call(users.owner, 'PUT', '/user/notifications/N2/read-state', { read: false })).status).toBe(404);
      expect((await harness.call(users.owner, 'PUT', `/user/notifications/${reference}/read-state`, { read: 'no' })).status).toBe(400);
      expect((await harness.call(users.owner, 'PUT', `/user/notifications/${reference}/read-state`, { read: true })).status).toBe(204);
      expect(await unread(users.owner)).toBe(before);
      await harness.call(users.owner, 'PUT', `/user/notifications/${reference}/read-state`, { read: false });
    });

    it('marks all as read', async () => {
      expect(await unread(users.owner)).toBeGreaterThan(0);
      expect((await harness.call(users.owner, 'PUT', '/user/notifications/read-state', { read: false })).status).toBe(400);
      expect((await harness.call(users.owner, 'PUT', '/user/notifications/read-state', { read: true })).status).toBe(204);
      expect(await unread(users.owner)).toBe(0);
      expect((await inbox(users.owner)).every((row) => !row.unread)).toBe(true);
      expect(await unread(users.finance)).toBeGreaterThan(0);
    });
  });
});
