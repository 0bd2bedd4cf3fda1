// The support desk's queue: replies move a ticket (staff's public reply → OnHold and taken by the replier; the
// requester's → Open and flagged), the queue's views filter on it, both sides' bells hear of replies (internal
// notes never reach the merchant), and ticket ids are TCK00041-style numbers, unique under concurrent creation.
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { ticketDetail, ticketList } from '../../../src/contract/ticket-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;
const staff = configurationUsers;

type Inbox = { results: { reference: string; title: string; unread: boolean }[]; numberOfResults: number };

describe.each(databaseKinds)('the ticket queue on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];

  const create = async (userId: string, path: string, subject: string) => {
    const response = await call(userId, 'POST', path, { type: 'general', subject, description: 'd' });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { ticketId: string }).ticketId;
  };
  const detail = async (userId: string, ticketId: string) => {
    const response = await call(userId, 'GET', `/tickets/${ticketId}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return ticketDetail.assert(await response.json());
  };
  const reply = async (userId: string, ticketId: string, text: string, internal = false) => {
    const response = await call(userId, 'POST', `/tickets/${ticketId}/comments`, { text, internal });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  const list = async (userId: string, query: string) => {
    const response = await call(userId, 'GET', `/tickets?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return ticketList.assert(await response.json());
  };
  const inbox = async (userId: string): Promise<Inbox> => (await (await call(userId, 'GET', '/user/notifications?pageSize=100')).json()) as Inbox;
  const unread = async (userId: string) =>
    ((await (await call(userId, 'GET', '/user/notifications/status')).json()) as { totalUnreadCount: number }).totalUnreadCount;
  const titlesAbout = async (userId: string, ticketId: string) =>
    (await inbox(userId)).results.filter((row) => row.title.includes(ticketId)).map((row) => row.title);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('reply state transitions and assignment', () => {
    it('a staff reply sets OnHold and assigns the replier when nobody handles it', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Payout missing');
      expect(await detail(users.owner, ticketId)).toMatchObject({ status: 'Open', assignee: null, version: 1 });
      await reply(staff.service, ticketId, 'We are checking the payout.');
      const after = await detail(staff.service, ticketId);
      expect(after).toMatchObject({ status: 'OnHold', assignee: { userId: staff.service }, version: 2, updatedByRequester: false });
      const [audited] = await database.db
        .select()
        .from(schema.auditEvents)
        .where(eq(schema.auditEvents.event, 'TicketCommentCreated'))
        .then((rows) => rows.filter((row) => (row.metaData as { ticketId?: string }).ticketId === ticketId));
      expect(audited?.metaData).toMatchObject({ changes: { status: { from: 'Open', to: 'OnHold' }, assigneeId: { from: null, to: staff.service } } });
    });

    it('a staff reply keeps someone else’s assignment; an internal note changes nothing', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Refund question');
      await reply(staff.service, ticketId, 'Taking this one.');
      await reply(staff.implementations, ticketId, 'Checked the refund batch.', true);
      expect(await detail(staff.service, ticketId)).toMatchObject({ status: 'OnHold', assignee: { userId: staff.service }, version: 2 });
      await reply(staff.implementations, ticketId, 'Here is what happened.');
      expect(await detail(staff.service, ticketId)).toMatchObject({ status: 'OnHold', assignee: { userId: staff.service } });
    });

    it('an internal note on an unassigned ticket neither assigns nor moves it', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Quiet note');
      await reply(staff.service, ticketId, 'Waiting for finance.', true);
      expect(await detail(staff.service, ticketId)).toMatchObject({ status: 'Open', assignee: null, version: 1 });
    });

    it('a requester reply reopens the ticket (Closed too) and flags it until writing staff open or answer it', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Reopen me');
      await reply(staff.service, ticketId, 'Fixed, closing.');
      const closing = await detail(staff.service, ticketId);
      const closed = await call(staff.service, 'PUT', `/tickets/${ticketId}`, {
        type: closing.type,
        priority: closing.priority,
        status: 'Closed',
        subject: closing.subject,
        description: closing.description,
        assigneeId: staff.service,
        version: closing.version,
      });
      expect(closed.status).toBe(200);
      await reply(users.owner, ticketId, 'It is broken again.');
      // The flag is the staff's queue state: the requester is not told of it, and neither their view nor the
      // read-only staff's clears it.
      expect(await detail(users.owner, ticketId)).toMatchObject({ status: 'Open', updatedByRequester: false });
      expect((await list(users.owner, 'searchterm=[eq]Reopen me')).results[0]).toMatchObject({ ticketId, updatedByRequester: false });
      expect(await detail(users.readonly, ticketId)).toMatchObject({ updatedByRequester: true });
      const flagged = await list(staff.service, 'updatedbyrequester=[eq]true');
      expect(flagged.results.find((row) => row.ticketId === ticketId)).toMatchObject({ status: 'Open', updatedByRequester: true });
      // Writing staff open it: seen.
      expect(await detail(staff.service, ticketId)).toMatchObject({ updatedByRequester: false });
      expect((await list(staff.service, 'updatedbyrequester=[eq]true')).results.map((row) => row.ticketId)).not.toContain(ticketId);
      // The requester writes again; staff answer without opening it first: cleared again, and OnHold.
      await reply(users.owner, ticketId, 'Any news?');
      expect((await list(staff.service, 'updatedbyrequester=[eq]true')).results.map((row) => row.ticketId)).toContain(ticketId);
      await reply(staff.service, ticketId, 'Yes: deployed a fix.');
      const answered = (await list(staff.service, 'searchterm=[eq]Reopen me')).results.find((row) => row.ticketId === ticketId);
      expect(answered).toMatchObject({ status: 'OnHold', updatedByRequester: false });
    });
  });

  describe('the queue’s views', () => {
    let mine: string;
    let theirs: string;
    let unassigned: string;
    let waiting: string;
    beforeAll(async () => {
      mine = await create(users.finance, '/businesses/B2/tickets', 'View mine');
      await reply(staff.service, mine, 'On it.');
      theirs = await create(users.finance, '/businesses/B2/tickets', 'View theirs');
      await reply(staff.implementations, theirs, 'On it too.');
      unassigned = await create(users.finance, '/businesses/B2/tickets', 'View unassigned');
      waiting = await create(users.finance, '/businesses/B2/tickets', 'View waiting');
      await reply(staff.service, waiting, 'Please send the invoice.');
      await reply(users.finance, waiting, 'Sent.');
    });
    const idsOf = async (query: string) => (await list(staff.service, `${query}&searchterm=[eq]View&pageSize=100`)).results.map((row) => row.ticketId).sort();

    it('Mine: the caller’s assigned tickets', async () => {
      expect(await idsOf(`assignee=[eq]${staff.service}`)).toEqual([mine, waiting].sort());
    });
    it('Unassigned: nobody handles them', async () => {
      expect(await idsOf('assignee=[eq]none')).toEqual([unassigned]);
    });
    it('Open: status Open (the requester’s reply reopened one)', async () => {
      expect(await idsOf('status=[eq]Open')).toEqual([unassigned, waiting].sort());
    });
    it('Updated by requester: only flagged tickets; any other value is refused', async () => {
      expect(await idsOf('updatedbyrequester=[eq]true')).toEqual([waiting]);
      expect((await call(staff.service, 'GET', '/tickets?updatedbyrequester=[eq]false')).status).toBe(400);
      expect(await idsOf('assignee=[eq]none&updatedbyrequester=[eq]true')).toEqual([]);
    });
    it('the filter is scoped like the list: another tenant sees none of them', async () => {
      expect((await list(users.owner, 'updatedbyrequester=[eq]true')).results.map((row) => row.ticketId)).not.toContain(waiting);
      expect((await call(users.owner, 'GET', '/businesses/B2/tickets?updatedbyrequester=[eq]true')).status).toBe(404);
    });
  });

  describe('bells on both sides', () => {
    it('a requester reply rings the assignee only; unassigned, the whole writing staff queue (never read-only staff)', async () => {
      const assigned = await create(users.owner, '/businesses/B3/tickets', 'Bell assigned');
      await reply(staff.service, assigned, 'Hello from support.');
      const before = await unread(staff.service);
      await reply(users.owner, assigned, 'Thanks, one more thing.');
      expect(await unread(staff.service)).toBe(before + 1);
      expect(await titlesAbout(staff.service, assigned)).toEqual([`Reply from the requester on ${assigned}: Bell assigned`]);
      expect(await titlesAbout(staff.implementations, assigned)).toEqual([]);
      expect(await titlesAbout(users.admin, assigned)).toEqual([]);

      const open = await create(users.owner, '/businesses/B3/tickets', 'Bell queue');
      await reply(users.owner, open, 'Nobody answered yet.');
      for (const userId of [staff.service, staff.implementations, users.admin]) {
        expect(await titlesAbout(userId, open)).toEqual([`Reply from the requester on ${open}: Bell queue`]);
      }
      expect(await titlesAbout(users.readonly, open)).toEqual([]);
      // The author never hears of their own words, and other tenants never of the ticket.
      expect(await titlesAbout(users.owner, open)).toEqual([]);
      expect(await titlesAbout(users.finance, open)).toEqual([]);
    });

    it('a staff reply rings the requester and the merchant side’s users who read tickets there, with a link to the ticket', async () => {
      const ticketId = await create(users.finance, '/businesses/B2/merchants/M2a/tickets', 'Bell merchant');
      const before = await unread(users.finance);
      await reply(staff.service, ticketId, 'We refunded the payment.');
      expect(await unread(users.finance)).toBe(before + 1);
      const [row] = (await inbox(users.finance)).results.filter((item) => item.title.includes(ticketId));
      expect(row).toMatchObject({ title: `Support replied on ${ticketId}: Bell merchant`, unread: true });
      const opened = (await (await call(users.finance, 'GET', `/user/notifications/${row?.reference}`)).json()) as { content: string };
      expect(opened.content).toContain('We refunded the payment.');
      expect(opened.content).toContain(`/tickets/${ticketId}`);
      expect(await unread(users.finance)).toBe(before);
      // The partner's owner reads B2's tickets: told too. B3's owner and the replier: not.
      expect(await titlesAbout(users.partner, ticketId)).toHaveLength(1);
      expect(await titlesAbout(users.owner, ticketId)).toEqual([]);
      expect(await titlesAbout(staff.service, ticketId)).toEqual([]);
    });

    it('an internal note never reaches the merchant’s bell, nor can they open it by reference', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Bell note');
      await reply(staff.service, ticketId, 'Public hello.');
      const before = await unread(users.owner);
      await reply(staff.implementations, ticketId, 'Secret: the acquirer lost the batch.', true);
      expect(await unread(users.owner)).toBe(before);
      expect(JSON.stringify(await inbox(users.owner))).not.toContain('Internal note');
      const [note] = (await inbox(staff.service)).results.filter((item) => item.title === `Internal note on ${ticketId}: Bell note`);
      expect(note).toBeDefined();
      expect((await call(users.owner, 'GET', `/user/notifications/${note?.reference}`)).status).toBe(404);
      expect((await call(users.owner, 'PUT', `/user/notifications/${note?.reference}/read-state`, { read: true })).status).toBe(404);
      // Mark all as read touches only what the caller reads.
      expect((await call(users.owner, 'PUT', '/user/notifications/read-state', { read: true })).status).toBe(204);
      const reads = await database.db
        .select()
        .from(schema.notificationReads)
        .where(and(eq(schema.notificationReads.userId, users.owner), eq(schema.notificationReads.reference, note?.reference ?? '')));
      expect(reads).toEqual([]);
    });

    it('announces each reply’s notification on the live events stream (the bell re-reads its count)', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', 'Bell live');
      const [last] = await database.db
        .select({ id: schema.portalEvents.id })
        .from(schema.portalEvents)
        .orderBy(schema.portalEvents.id)
        .then((rows) => rows.slice(-1));
      await reply(users.owner, ticketId, 'Ping.');
      const events = await database.db
        .select()
        .from(schema.portalEvents)
        .where(gt(schema.portalEvents.id, last?.id ?? 0));
      expect(events.map((event) => event.kind)).toContain('notifications');
    });

    it('keeps personal notifications out of the authors’ list', async () => {
      const response = await call(users.admin, 'GET', '/notifications?pageSize=100');
      expect(response.status).toBe(200);
      const titles = ((await response.json()) as { results: { title: string }[] }).results.map((row) => row.title);
      expect(titles.filter((title) => title.includes(' on TCK'))).toEqual([]);
    });
  });

  describe('ticket ids', () => {
    it('are TCK and five digits, continuing past a number already taken, unique under concurrent creation', async () => {
      const first = await create(users.owner, '/businesses/B3/tickets', 'Numbered');
      expect(first).toMatch(/^TCK\d{5}$/);
      const next = `TCK${String(Number(first.slice(3)) + 1).padStart(5, '0')}`;
      // A row written another way holds the next number: creation skips it.
      await database.db.insert(schema.tickets).values({
        id: next,
        businessId: 'B3',
        merchantId: null,
        createdBy: users.owner,
        type: 'general',
        status: 'Open',
        priority: 'Unknown',
        subject: 'imported',
        description: 'd',
      });
      // Twelve at once, from two tenants (each user may have ten requests in flight).
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          index % 2 === 0
            ? create(users.owner, '/businesses/B3/tickets', `Concurrent ${index}`)
            : create(users.finance, '/businesses/B2/tickets', `Concurrent ${index}`),
        ),
      );
      expect(new Set(created).size).toBe(12);
      expect(created).not.toContain(next);
      for (const id of created) {
        expect(id).toMatch(/^TCK\d{5}$/);
        expect(Number(id.slice(3))).toBeGreaterThan(Number(first.slice(3)));
      }
    });
  });
});
