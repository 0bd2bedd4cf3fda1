// GET /user/notifications and /user/notifications/{reference}: who sees what, newest first, drafts never, and
// opening one marks it read for the caller only (the bell's count drops by one).
import { describe, expect, it } from 'vitest';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const { users } = fixture;

type ListAnswer = {
  results: { reference: string; title: string; publishedUtc: string | null; lastEditedUtc: string | null; unread: boolean }[];
  numberOfResults: number;
};

describe.each(databaseKinds)('the user’s notifications on %s', (kind) => {
  const harness = useFixtureApp(kind);

  async function list(userId: string, query = ''): Promise<ListAnswer> {
    const response = await harness.call(userId, 'GET', `/user/notifications${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as ListAnswer;
  }
  async function unreadCount(userId: string): Promise<number> {
    const response = await harness.call(userId, 'GET', '/user/notifications/status');
    return ((await response.json()) as { totalUnreadCount: number }).totalUnreadCount;
  }

  it('lists only published all-users notifications to an external user', async () => {
    const answer = await list(users.owner);
    expect(answer.results.map((row) => row.reference)).toEqual(['N1']);
    expect(answer.numberOfResults).toBe(1);
    expect(answer.results[0]).toEqual({
      reference: 'N1',
      title: 'Maintenance window',
      publishedUtc: '2026-01-01T00:00:00.000Z',
      lastEditedUtc: expect.any(String),
      unread: true,
    });
  });

  it('lists internal-only notifications to an internal user too, newest first, never a draft', async () => {
    const answer = await list(users.admin);
    expect(answer.results.map((row) => row.reference)).toEqual(['N2', 'N1']);
    expect(answer.numberOfResults).toBe(2);
  });

  it('lists what the status call counts as unread', async () => {
    for (const userId of [users.owner, users.admin, users.partner]) {
      const answer = await list(userId);
      expect(answer.results.filter((row) => row.unread)).toHaveLength(await unreadCount(userId));
    }
  });

  it('pages', async () => {
    const first = await list(users.admin, '?pagenumber=1&pagesize=10');
    expect(first.results).toHaveLength(2);
    const beyond = await list(users.admin, '?pagenumber=2&pagesize=10');
    expect(beyond.results).toEqual([]);
    expect(beyond.numberOfResults).toBe(2);
  });

  it('opens a notification, marks it read and the unread count drops by one; only for the caller', async () => {
    const before = await unreadCount(users.finance);
    const otherBefore = await unreadCount(users.merchantOnly);
    const response = await harness.call(users.finance, 'GET', '/user/notifications/N1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      reference: 'N1',
      title: 'Maintenance window',
      content: '{}',
      publishedUtc: '2026-01-01T00:00:00.000Z',
      lastEditedUtc: expect.any(String),
    });
    expect(await unreadCount(users.finance)).toBe(before - 1);
    expect((await list(users.finance)).results.find((row) => row.reference === 'N1')?.unread).toBe(false);
    // Opening it again changes nothing.
    expect((await harness.call(users.finance, 'GET', '/user/notifications/N1')).status).toBe(200);
    expect(await unreadCount(users.finance)).toBe(before - 1);
    // Another user's read state is their own.
    expect(await unreadCount(users.merchantOnly)).toBe(otherBefore);
    expect((await list(users.merchantOnly)).results.find((row) => row.reference === 'N1')?.unread).toBe(true);
  });

  it('answers 404 for an internal-only notification to an external user, a draft and an unknown reference', async () => {
    const before = await unreadCount(users.owner);
    for (const reference of ['N2', 'N3', 'NOPE', 'x'.repeat(200)]) {
      const response = await harness.call(users.owner, 'GET', `/user/notifications/${reference}`);
      expect(response.status).toBe(404);
    }
    expect(await unreadCount(users.owner)).toBe(before);
    expect((await harness.call(users.admin, 'GET', '/user/notifications/N2')).status).toBe(200);
    expect((await harness.call(users.admin, 'GET', '/user/notifications/N3')).status).toBe(404);
  });

  it('refuses bad paging and undeclared parameters', async () => {
    for (const query of ['?pagenumber=0', '?pagenumber=abc', '?pagesize=7', '?sort=title', '?status=[eq]draft']) {
      const response = await harness.call(users.owner, 'GET', `/user/notifications${query}`);
      expect(response.status, query).toBe(400);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await harness.call(null, 'GET', '/user/notifications')).status).toBe(401);
    expect((await harness.call(null, 'GET', '/user/notifications/N1')).status).toBe(401);
  });
});
