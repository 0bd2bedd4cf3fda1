// Roles that mean what they say: the internal read-only role reads tickets (internal notes included) and
// writes nothing; Owner and External developer manage their own merchants' API keys; a new key, like a replacement,
// needs a step-up.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, grantStepUp, insertFixtureWorld, tokenFor } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from '../api/configuration-fixtures.ts';

const { users } = fixture;
const { developer, implementations } = configurationUsers;
const at = new Date('2026-11-02T09:00:00Z');

describe.each(databaseKinds)('roles that mean what they say on %s', (kind) => {
  let database: Database;
  let harness: ReturnType<typeof createTestApp>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    harness = createTestApp(database);
    const { db } = database;
    // A ticket of B3 raised by its owner, with an internal note and a comment of the read-only user (as if written
    // before read-only stopped writing), each with a file.
    await db.insert(schema.tickets).values({
      id: 'TCKRO0000000000001',
      businessId: 'B3',
      merchantId: null,
      createdBy: users.owner,
      type: 'general',
      status: 'Open',
      priority: 'Low',
      subject: 'Read only probe',
      description: 'x',
      createdUtc: at,
      lastUpdatedUtc: at,
      version: 1,
      assigneeId: null,
    });
    await db.insert(schema.ticketComments).values([
      { id: 'TCCRONOTE', ticketId: 'TCKRO0000000000001', authorId: users.admin, text: 'Staff only', internal: true, createdUtc: at, lastUpdatedUtc: at },
      { id: 'TCCROOWN', ticketId: 'TCKRO0000000000001', authorId: users.readonly, text: 'Mine', internal: false, createdUtc: at, lastUpdatedUtc: at },
    ]);
    await db.insert(schema.ticketAttachments).values([
      {
        id: 'TCAROTICKET',
        ticketId: 'TCKRO0000000000001',
        commentId: null,
        fileName: 'a.pdf',
        mimeType: 'application/pdf',
        size: 1,
        storageKey: 'tickets/x/a',
        uploadedBy: users.readonly,
        createdUtc: at,
      },
      {
        id: 'TCAROCOMMENT',
        ticketId: 'TCKRO0000000000001',
        commentId: 'TCCROOWN',
        fileName: 'b.pdf',
        mimeType: 'application/pdf',
        size: 1,
        storageKey: 'tickets/x/b',
        uploadedBy: users.readonly,
        createdUtc: at,
      },
    ]);
  });
  afterAll(async () => database?.close());

  describe('the internal read-only role', () => {
    const base = '/businesses/B3/tickets/TCKRO0000000000001';

    it('reads the ticket and its internal notes', async () => {
      const detail = await harness.call(users.readonly, 'GET', base);
      expect(detail.status).toBe(200);
      const comments = await harness.call(users.readonly, 'GET', `${base}/comments`);
      const { results } = (await comments.json()) as { results: { ticketCommentId: string; text: string; editable: boolean }[] };
      expect(results.map((comment) => comment.text)).toContain('Staff only');
      // Its own old comment is not offered for editing: it may not write.
      expect(results.find((comment) => comment.ticketCommentId === 'TCCROOWN')?.editable).toBe(false);
    });

    it('is refused every ticket write: notes, replies, priority, deletes, files', async () => {
      const form = () => {
        const body = new FormData();
        body.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'probe.pdf');
        return body;
      };
      const upload = (path: string) =>
        harness.app.request(`/api/portal${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(users.readonly)}` }, body: form() });
      for (const prefix of [base, '/tickets/TCKRO0000000000001']) {
        const attempts: [string, Response][] = [
          ['internal note', await harness.call(users.readonly, 'POST', `${prefix}/comments`, { text: 'A note', internal: true })],
          ['public reply', await harness.call(users.readonly, 'POST', `${prefix}/comments`, { text: 'A reply' })],
          [
            'priority',
            await harness.call(users.readonly, 'PUT', prefix, {
              type: 'general',
              priority: 'High',
              status: 'Open',
              subject: 'Read only probe',
              description: 'x',
              assigneeId: null,
              version: 1,
            }),
          ],
          ['edit own comment', await harness.call(users.readonly, 'PUT', `${prefix}/comments/TCCROOWN`, { text: 'Edited', version: 1 })],
          ['delete own comment', await harness.call(users.readonly, 'DELETE', `${prefix}/comments/TCCROOWN`)],
          ['delete a note', await harness.call(users.readonly, 'DELETE', `${prefix}/comments/TCCRONOTE`)],
          ['delete own ticket file', await harness.call(users.readonly, 'DELETE', `${prefix}/attachments/TCAROTICKET`)],
          ['delete own comment file', await harness.call(users.readonly, 'DELETE', `${prefix}/comments/TCCROOWN/attachments/TCAROCOMMENT`)],
          ['delete the ticket', await harness.call(users.readonly, 'DELETE', prefix)],
          ['attach to the ticket', await upload(`${prefix}/attachments`)],
          ['attach to own comment', await upload(`${prefix}/comments/TCCROOWN/attachments`)],
        ];
        expect(attempts.map(([what, response]) => `${what} ${response.status}`)).toEqual(attempts.map(([what]) => `${what} 403`));
      }
      expect((await harness.call(users.readonly, 'POST', '/businesses/B3/tickets', { type: 'general', subject: 'New', description: 'x' })).status).toBe(403);
      const [ticket] = await database.db.select().from(schema.tickets).where(eq(schema.tickets.id, 'TCKRO0000000000001'));
      expect(ticket).toMatchObject({ priority: 'Low', version: 1 });
      expect(
        (await database.db.select().from(schema.ticketComments).where(eq(schema.ticketComments.ticketId, 'TCKRO0000000000001'))).map((row) => row.id).sort(),
      ).toEqual(['TCCRONOTE', 'TCCROOWN']);
      expect(await database.db.select().from(schema.ticketAttachments).where(eq(schema.ticketAttachments.ticketId, 'TCKRO0000000000001'))).toHaveLength(2);
    });

    it('is not offered as an assignee, and cannot be assigned a ticket', async () => {
      const assignees = await harness.call(users.admin, 'GET', '/ticket-assignees');
      const { results } = (await assignees.json()) as { results: { userId: string }[] };
      expect(results.map((row) => row.userId)).toContain(users.admin);
      expect(results.map((row) => row.userId)).not.toContain(users.readonly);
      const assigned = await harness.call(users.admin, 'POST', '/businesses/B3/tickets', {
        type: 'general',
        subject: 'Assign',
        description: 'x',
        assigneeId: users.readonly,
      });
      expect(assigned.status).toBe(400);
    });

    it('still lets the technical admin do each of those writes (the refusals are about the role)', async () => {
      const note = await harness.call(users.admin, 'POST', `${base}/comments`, { text: 'A note', internal: true });
      expect(note.status).toBe(201);
      const deleted = await harness.call(users.admin, 'DELETE', `${base}/comments/TCCROOWN`);
      expect(deleted.status).toBe(204);
    });
  });

  describe('API keys', () => {
    const keys = (businessId: string, merchantId: string) => `/businesses/${businessId}/merchants/${merchantId}/configurations/C-${merchantId}/api-keys`;
    const newKey = { name: 'Shop', description: '', expiresAt: null };

    it('lets an Owner and an External developer manage their own merchants’ keys, after a step-up', async () => {
      for (const [userId, businessId, merchantId] of [
        [users.owner, 'B3', 'M3a'],
        [developer, 'B1', 'M1a'],
        [implementations, 'B3', 'M3b'],
      ] as const) {
        expect((await harness.call(userId, 'GET', keys(businessId, merchantId))).status, userId).toBe(200);
        const withoutStepUp = await harness.call(userId, 'POST', keys(businessId, merchantId), newKey);
        expect(withoutStepUp.status, userId).toBe(403);
        expect(withoutStepUp.headers.get('www-authenticate') ?? '').toContain('insufficient_user_authentication');
        await grantStepUp(database, userId);
        const created = await harness.call(userId, 'POST', keys(businessId, merchantId), newKey);
        expect(created.status, userId).toBe(201);
        const { apiKey } = (await created.json()) as { apiKey: { id: string } };
        expect((await harness.call(userId, 'POST', `${keys(businessId, merchantId)}/${apiKey.id}/replacement`)).status, userId).toBe(201);
        expect((await harness.call(userId, 'DELETE', `${keys(businessId, merchantId)}/${apiKey.id}`)).status, userId).toBe(204);
      }
      expect(await database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.createdBy, users.owner))).toHaveLength(2);
    });

    it('keeps other businesses’ keys and the other roles out', async () => {
      await grantStepUp(database, users.owner);
      await grantStepUp(database, users.finance);
      await grantStepUp(database, users.readonly);
      // Another business's merchant: not there at all.
      expect((await harness.call(users.owner, 'POST', keys('B1', 'M1a'), newKey)).status).toBe(404);
      expect((await harness.call(developer, 'GET', keys('B3', 'M3a'))).status).toBe(404);
      // Finance and Internal read only reach the merchant but hold no key management.
      expect((await harness.call(users.finance, 'POST', keys('B2', 'M2a'), newKey)).status).toBe(403);
      expect((await harness.call(users.readonly, 'POST', keys('B3', 'M3a'), newKey)).status).toBe(403);
      expect((await harness.call(users.merchantOnly, 'GET', keys('B1', 'M1b'))).status).toBe(403);
    });
  });
});
