import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import type { FileStore } from '../../../server/files/file-store.ts';
import { ticketComment, ticketCommentPage, ticketDetail, ticketList } from '../../../src/contract/ticket-schemas.ts';
import { maxAttachmentBytes, uploadMessages } from '../../../src/contract/tickets.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld, tokenFor } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;

/** A 1×1 PNG, a minimal PDF and a JPEG header: real signatures, so the type comes from the bytes. */
const pngBytes = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const htmlBytes = Buffer.from('<html><body><script>alert(1)</script></body></html>', 'utf8');
const csvBytes = Buffer.from('date,reference,amount\n2026-11-01,TX1A0001,12.50\n', 'utf8');

type Errors = { errorReport: { errors: { message: string }[] } };
const messagesOf = async (response: Response) => ((await response.json()) as Errors).errorReport.errors.map((error) => error.message);

describe.each(databaseKinds)('tickets on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let app: ReturnType<typeof createTestApp>['app'];
  let files: FileStore;
  let folder: string;

  const upload = (userId: string, path: string, bytes: Buffer, name: string, mime = 'application/octet-stream') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: mime }), name);
    return app.request(`/api/portal${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(userId)}` }, body: form });
  };
  const create = async (userId: string, path: string, body: Record<string, unknown>) => {
    const response = await call(userId, 'POST', path, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { ticketId: string }).ticketId;
  };
  const detail = async (userId: string, path: string) => {
    const response = await call(userId, 'GET', path);
    expect(response.status, await response.clone().text()).toBe(200);
    return ticketDetail.assert(await response.json());
  };
  const comment = async (userId: string, path: string, text: string, internal = false) => {
    const response = await call(userId, 'POST', `${path}/comments`, { text, internal });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { ticketCommentId: string }).ticketCommentId;
  };
  const outbox = async () => database.db.select().from(schema.outboundEmails);
  const auditOf = async (event: string) => await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, event));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    // Support staff who write (Customer service, Implementations): the read-only role is never an assignee.
    await insertConfigurationUsers(database);
    folder = await mkdtemp(join(tmpdir(), 'tickets-files-'));
    files = createFolderStore(folder);
    ({ call, app } = createTestApp(database, { files }));
  });
  afterAll(async () => {
    await database?.close();
    await rm(folder, { recursive: true, force: true });
  });

  describe('creating and reading', () => {
    it('creates a ticket in a business and answers its id; the requester reads it, Open with priority Unknown', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/tickets', {
        type: 'bug',
        subject: '  Export fails  ',
        description: 'The export stops at 10%.',
      });
      expect(ticketId).toMatch(/^TCK\d{5,}$/);
      const ticket = await detail(users.owner, `/businesses/B3/tickets/${ticketId}`);
      expect(ticket).toMatchObject({
        ticketId,
        businessId: 'B3',
        merchantId: null,
        type: 'bug',
        status: 'Open',
        priority: 'Unknown',
        subject: 'Export fails',
        description: 'The export stops at 10%.',
        createdBy: { userId: users.owner, name: 'u-owner Test' },
        assignee: null,
        version: 1,
        attachments: [],
        allAttachments: [],
        commentCount: 0,
      });
      expect(await auditOf('TicketCreated')).toEqual(
        expect.arrayContaining([expect.objectContaining({ userId: users.owner, businessId: 'B3', metaData: expect.objectContaining({ ticketId }) })]),
      );
    });

    it('creates a merchant ticket linked to a transaction of that merchant, and refuses another tenant’s transaction', async () => {
      const ticketId = await create(users.owner, '/businesses/B3/merchants/M3a/tickets', {
        type: 'dispute',
        priority: 'High',
        subject: 'Chargeback',
        description: 'See the payment.',
        linkedTransactionReference: 'TX3A0001',
        linkedPaymentJobReference: 'PJ3A0001',
      });
      expect(await detail(users.owner, `/businesses/B3/merchants/M3a/tickets/${ticketId}`)).toMatchObject({
        merchantId: 'M3a',
        merchantName: 'Gamma Deli',
        linkedTransactionReference: 'TX3A0001',
        linkedPaymentJobReference: 'PJ3A0001',
      });
      const foreign = await call(users.owner, 'POST', '/businesses/B3/merchants/M3a/tickets', {
        type: 'dispute',
        subject: 'x',
        description: 'y',
        linkedTransactionReference: 'TX1A0001',
      });
      expect(foreign.status).toBe(400);
    });

    it('answers 400 naming the problems of a malformed body, and a body on the context-free path', async () => {
      const bad = await call(users.owner, 'POST', '/businesses/B3/tickets', { type: 'complaint', subject: '', description: 'x', extra: 1 });
      expect(bad.status).toBe(400);
      expect((await messagesOf(bad)).join(' ')).toMatch(/type|subject|extra/);
      const notJson = await call(users.owner, 'POST', '/businesses/B3/tickets', 'type=bug', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(notJson.status).toBe(400);
      const contextFree = await call(users.admin, 'POST', '/tickets', { type: 'bug', subject: 'x', description: 'y' });
      expect(contextFree.status).toBe(400);
      expect(await messagesOf(contextFree)).toEqual(['Business ID is required.']);
    });

    it('refuses a role without ticket permissions (403) and a business out of reach (404)', async () => {
      expect((await call(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/tickets')).status).toBe(403);
      expect((await call(users.merchantOnly, 'POST', '/businesses/B1/merchants/M1b/tickets', { type: 'bug', subject: 'x', description: 'y' })).status).toBe(
        403,
      );
      expect((await call(users.owner, 'GET', '/businesses/B1/tickets')).status).toBe(404);
      expect((await call(users.owner, 'POST', '/businesses/B1/tickets', { type: 'bug', subject: 'x', description: 'y' })).status).toBe(404);
      expect((await call(users.nobody, 'GET', '/tickets')).status).toBe(403);
    });

    it('answers 404 for another tenant’s ticket on every path and method', async () => {
      const ticketId = await create(users.partner, '/businesses/B1/tickets', { type: 'general', subject: 'Alpha question', description: 'Private to B1' });
      for (const path of [`/businesses/B3/tickets/${ticketId}`, `/tickets/${ticketId}`, `/businesses/B1/tickets/${ticketId}`]) {
        expect((await call(users.owner, 'GET', path)).status, path).toBe(404);
        expect((await call(users.owner, 'DELETE', path)).status, path).toBe(404);
        expect((await call(users.owner, 'GET', `${path}/comments`)).status, path).toBe(404);
        expect((await call(users.owner, 'POST', `${path}/comments`, { text: 'hello' })).status, path).toBe(404);
      }
      expect((await upload(users.owner, `/businesses/B1/tickets/${ticketId}/attachments`, pngBytes, 'a.png')).status).toBe(404);
      // A merchant path does not reach a business-level ticket of the same business.
      expect((await call(users.partner, 'GET', `/businesses/B1/merchants/M1a/tickets/${ticketId}`)).status).toBe(404);
    });
  });

  describe('the list', () => {
    let ids: string[] = [];
    beforeAll(async () => {
      ids = [
        await create(users.finance, '/businesses/B2/tickets', { type: 'bug', priority: 'Low', subject: 'Beta bug', description: 'd' }),
        await create(users.finance, '/businesses/B2/merchants/M2a/tickets', {
          type: 'featureRequest',
          priority: 'High',
          subject: 'Beta wish',
          description: 'd',
        }),
        await create(users.finance, '/businesses/B2/tickets', { type: 'informationRequest', priority: 'Medium', subject: 'Beta question', description: 'd' }),
      ];
    });

    it('lists a business (its merchants’ tickets too), a merchant, and everything for staff', async () => {
      const business = ticketList.assert(await (await call(users.finance, 'GET', '/businesses/B2/tickets')).json());
      expect(business.results.map((row) => row.ticketId).sort()).toEqual([...ids].sort());
      expect(business.numberOfResults).toBe(3);
      const merchant = ticketList.assert(await (await call(users.finance, 'GET', '/businesses/B2/merchants/M2a/tickets')).json());
      expect(merchant.results.map((row) => row.ticketId)).toEqual([ids[1]]);
      const all = ticketList.assert(await (await call(users.admin, 'GET', '/tickets?pagesize=100')).json());
      expect(all.results.map((row) => row.ticketId)).toEqual(expect.arrayContaining(ids));
      const mine = ticketList.assert(await (await call(users.finance, 'GET', '/tickets?pagesize=100')).json());
      expect(new Set(mine.results.map((row) => row.businessId))).toEqual(new Set(['B2']));
      const viaPartner = ticketList.assert(await (await call(users.partner, 'GET', '/partners/P1/tickets?pagesize=100')).json());
      expect(viaPartner.results.map((row) => row.ticketId)).toEqual(expect.arrayContaining(ids));
      expect((await call(users.owner, 'GET', '/partners/P1/tickets')).status).toBe(404);
      expect((await call(users.partner, 'POST', '/partners/P1/tickets', { type: 'bug', subject: 'x', description: 'y' })).status).toBe(400);
      const partner = ticketList.assert(await (await call(users.partner, 'GET', '/tickets?pagesize=100')).json());
      expect(partner.results.map((row) => row.ticketId)).toEqual(expect.arrayContaining(ids));
      expect(partner.results.every((row) => ['B1', 'B2'].includes(row.businessId))).toBe(true);
    });

    it('filters on status, type, priority, assignee and dates, and sorts by priority', async () => {
      const q = (params: Record<string, string>) => `/businesses/B2/tickets?${new URLSearchParams(params).toString()}`;
      const idsOf = async (params: Record<string, string>) =>
        ticketList.assert(await (await call(users.finance, 'GET', q(params))).json()).results.map((row) => row.ticketId);
      expect(await idsOf({ type: '[eq]bug' })).toEqual([ids[0]]);
      expect(await idsOf({ priority: '[eq]high' })).toEqual([ids[1]]);
      expect((await idsOf({ status: '[eq]Open' })).length).toBe(3);
      expect(await idsOf({ status: '[eq]Closed' })).toEqual([]);
      expect((await idsOf({ assignee: '[eq]none' })).length).toBe(3);
      expect(await idsOf({ assignee: `[eq]${users.admin}` })).toEqual([]);
      expect((await idsOf({ createdutc: '[gte]2020-01-01[and][lte]2099-01-01' })).length).toBe(3);
      expect(await idsOf({ createdutc: '[lte]2020-01-01' })).toEqual([]);
      expect(await idsOf({ searchterm: '[eq]wish' })).toEqual([ids[1]]);
      expect(await idsOf({ OrderingField: 'priority', OrderingDirection: 'Descending' })).toEqual([ids[1], ids[2], ids[0]]);
      const refused = await call(users.finance, 'GET', q({ status: '[eq]Lost', colour: 'red' }));
      expect(refused.status).toBe(400);
      expect((await messagesOf(refused)).join(' ')).toMatch(/status.*colour|colour.*status/s);
    });
  });

  describe('updates, versions and workflow', () => {
    it('lets staff change status, priority and assignee, with 409 on a stale version, and mails requester and assignee', async () => {
      const path = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'general', subject: 'Bank account change', description: 'New account' })}`;
      const before = await detail(users.admin, path);
      const body = {
        type: before.type,
        priority: 'High',
        status: 'InProgress',
        subject: before.subject,
        description: before.description,
        assigneeId: configurationUsers.service,
        version: before.version,
      };
      const mailsBefore = (await outbox()).length;
      const updated = await call(users.admin, 'PUT', path, body);
      expect(updated.status, await updated.clone().text()).toBe(200);
      expect(ticketDetail.assert(await updated.json())).toMatchObject({
        status: 'InProgress',
        priority: 'High',
        assignee: { userId: configurationUsers.service },
        version: 2,
      });
      const stale = await call(users.admin, 'PUT', path, { ...body, status: 'OnHold' });
      expect(stale.status).toBe(409);
      expect((await detail(users.admin, path)).status).toBe('InProgress');
      const mails = (await outbox()).slice(mailsBefore);
      expect(mails.map((mail) => [mail.recipient, mail.template]).sort()).toEqual([
        ['owner@fixture.test', 'ticketUpdate'],
        ['service@fixture.test', 'ticketAssigned'],
      ]);
      expect(mails.find((mail) => mail.template === 'ticketUpdate')?.text).toContain('In progress');
      expect((await auditOf('TicketUpdated')).at(-1)?.metaData).toMatchObject({ changes: { status: { from: 'Open', to: 'InProgress' } } });
    });

    it('refuses a requester changing the assignee or the workflow, but lets them edit what they wrote and close it', async () => {
      const path = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'general', subject: 'Typo', description: 'Frist' })}`;
      const ticket = await detail(users.owner, path);
      const base = {
        type: ticket.type,
        priority: ticket.priority,
        status: ticket.status,
        subject: ticket.subject,
        description: ticket.description,
        assigneeId: null,
        version: ticket.version,
      };
      expect((await call(users.owner, 'PUT', path, { ...base, status: 'InProgress' })).status).toBe(403);
      expect((await call(users.owner, 'PUT', path, { ...base, assigneeId: users.admin })).status).toBe(403);
      const edited = await call(users.owner, 'PUT', path, { ...base, description: 'First', status: 'Closed' });
      expect(edited.status).toBe(200);
      expect(await detail(users.owner, path)).toMatchObject({ description: 'First', status: 'Closed', version: 2 });
    });

    it('refuses an assignee who is not support staff, and a malformed update', async () => {
      const path = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'general', subject: 's', description: 'd' })}`;
      const ticket = await detail(users.admin, path);
      const base = {
        type: ticket.type,
        priority: ticket.priority,
        status: ticket.status,
        subject: ticket.subject,
        description: ticket.description,
        assigneeId: null,
        version: ticket.version,
      };
      expect((await call(users.admin, 'PUT', path, { ...base, assigneeId: users.owner })).status).toBe(400);
      expect((await call(users.admin, 'PUT', path, { ...base, version: 'one' })).status).toBe(400);
      expect((await call(users.admin, 'PUT', path, { ...base, status: 'Reopened' })).status).toBe(400);
    });

    it('deletes a ticket (the requester or staff), its comments and its files; others may not', async () => {
      const path = `/businesses/B1/tickets/${await create(users.partner, '/businesses/B1/tickets', { type: 'bug', subject: 'Delete me', description: 'd' })}`;
      const stored = await upload(users.partner, `${path}/attachments`, pngBytes, 'shot.png');
      expect(stored.status).toBe(201);
      await comment(users.partner, path, 'a comment');
      const [row] = await database.db.select().from(schema.ticketAttachments).where(eq(schema.ticketAttachments.fileName, 'shot.png'));
      expect(await files.head(row?.storageKey ?? '')).not.toBeNull();
      expect((await call(users.merchantOnly, 'DELETE', path)).status).toBe(403);
      expect((await call(users.owner, 'DELETE', path)).status).toBe(404);
      expect((await call(users.partner, 'DELETE', path)).status).toBe(204);
      expect((await call(users.partner, 'GET', path)).status).toBe(404);
      expect(await files.head(row?.storageKey ?? '')).toBeNull();
      expect(await auditOf('TicketDeleted')).toHaveLength(1);
    });
  });

  describe('comments and internal notes', () => {
    let path: string;
    beforeAll(async () => {
      path = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'bug', subject: 'Report bug', description: 'Screenshot attached' })}`;
    });

    it('keeps internal notes from the requester on every path, and mails only the public reply', async () => {
      const mailsBefore = (await outbox()).length;
      const noteId = await comment(users.admin, path, 'Looks like the cache; do not tell them yet', true);
      const replyId = await comment(users.admin, path, 'We are looking into it.');
      const staffView = ticketCommentPage.assert(await (await call(users.admin, 'GET', `${path}/comments`)).json());
      expect(staffView.results.map((row) => [row.ticketCommentId, row.internal])).toEqual([
        [noteId, true],
        [replyId, false],
      ]);
      const ownerView = ticketCommentPage.assert(await (await call(users.owner, 'GET', `${path}/comments`)).json());
      expect(ownerView.results.map((row) => row.ticketCommentId)).toEqual([replyId]);
      expect(ownerView.numberOfResults).toBe(1);
      expect(JSON.stringify(ownerView)).not.toContain('cache');
      expect((await call(users.owner, 'GET', `${path}/comments/${noteId}`)).status).toBe(404);
      expect((await call(users.owner, 'DELETE', `${path}/comments/${noteId}`)).status).toBe(404);
      expect((await detail(users.owner, path)).commentCount).toBe(1);
      expect(ticketComment.assert(await (await call(users.admin, 'GET', `${path}/comments/${noteId}`)).json())).toMatchObject({
        internal: true,
        author: { staff: true },
      });
      const mails = (await outbox()).slice(mailsBefore);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ recipient: 'owner@fixture.test', template: 'ticketUpdate' });
      expect(mails[0]?.text).toContain('We are looking into it.');
      expect(mails[0]?.text).not.toContain('cache');
    });

    it('refuses an internal note from someone who is not staff', async () => {
      const refused = await call(users.owner, 'POST', `${path}/comments`, { text: 'sneaky', internal: true });
      expect(refused.status).toBe(403);
    });

    it('hides an internal note’s attachments from the requester', async () => {
      const noteId = await comment(users.admin, path, 'internal evidence', true);
      const stored = await upload(users.admin, `${path}/comments/${noteId}/attachments`, pdfBytes, 'internal.pdf');
      expect(stored.status).toBe(201);
      const { ticketAttachmentId } = (await stored.json()) as { ticketAttachmentId: string };
      expect((await detail(users.admin, path)).allAttachments.map((file) => file.ticketAttachmentId)).toContain(ticketAttachmentId);
      expect((await detail(users.owner, path)).allAttachments.map((file) => file.ticketAttachmentId)).not.toContain(ticketAttachmentId);
      expect((await call(users.owner, 'GET', `${path}/comments/${noteId}/attachments/${ticketAttachmentId}`)).status).toBe(404);
    });

    it('pages comments newest last, 20 at a time, with older batches before a comment', async () => {
      const many = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'general', subject: 'Long thread', description: 'd' })}`;
      const written: string[] = [];
      for (let n = 1; n <= 45; n += 1) written.push(await comment(users.owner, many, `message ${n}`));
      const latest = ticketCommentPage.assert(await (await call(users.owner, 'GET', `${many}/comments`)).json());
      expect(latest.results.map((row) => row.text)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 26}`));
      expect(latest).toMatchObject({ numberOfResults: 45, hasOlder: true });
      const older = ticketCommentPage.assert(await (await call(users.owner, 'GET', `${many}/comments?before=${latest.results[0]?.ticketCommentId}`)).json());
      expect(older.results.map((row) => row.text)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 6}`));
      const oldest = ticketCommentPage.assert(await (await call(users.owner, 'GET', `${many}/comments?before=${older.results[0]?.ticketCommentId}`)).json());
      expect(oldest.results.map((row) => row.text)).toEqual(['message 1', 'message 2', 'message 3', 'message 4', 'message 5']);
      expect(oldest.hasOlder).toBe(false);
      expect((await call(users.owner, 'GET', `${many}/comments?before=nope`)).status).toBe(400);
      expect((await call(users.owner, 'GET', `${many}/comments?pagesize=10`)).status).toBe(400);
    });

    it('lets the author edit a comment with its version (409 when stale) and nobody else', async () => {
      const commentId = await comment(users.owner, path, 'Frist');
      const update = await call(users.owner, 'PUT', `${path}/comments/${commentId}`, { text: 'First', version: 1 });
      expect(update.status).toBe(200);
      expect(ticketComment.assert(await update.json())).toMatchObject({ text: 'First', version: 2, editable: true });
      expect((await call(users.owner, 'PUT', `${path}/comments/${commentId}`, { text: 'Again', version: 1 })).status).toBe(409);
      expect((await call(users.admin, 'PUT', `${path}/comments/${commentId}`, { text: 'Staff rewrite', version: 2 })).status).toBe(403);
      expect((await call(users.owner, 'PUT', `${path}/comments/${commentId}`, { text: '', version: 2 })).status).toBe(400);
      expect((await call(users.admin, 'DELETE', `${path}/comments/${commentId}`)).status).toBe(204);
    });
  });

  describe('attachments', () => {
    let path: string;
    let disputePath: string;
    beforeAll(async () => {
      path = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'bug', subject: 'With files', description: 'd' })}`;
      disputePath = `/businesses/B3/tickets/${await create(users.owner, '/businesses/B3/tickets', { type: 'dispute', subject: 'Dispute', description: 'd' })}`;
    });

    it('stores an image by its bytes and serves it back with Content-Disposition', async () => {
      const response = await upload(users.owner, `${path}/attachments`, pngBytes, 'Screenshot of the settlement report.png', 'text/html');
      expect(response.status, await response.clone().text()).toBe(201);
      const attachment = (await response.json()) as { ticketAttachmentId: string; mimeType: string; size: number; removable: boolean };
      expect(attachment).toMatchObject({ mimeType: 'image/png', size: pngBytes.length, removable: true });
      const download = await call(users.admin, 'GET', `${path}/attachments/${attachment.ticketAttachmentId}`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('image/png');
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="Screenshot of the settlement report.png"');
      expect(Buffer.from(await download.arrayBuffer()).equals(pngBytes)).toBe(true);
      expect((await detail(users.owner, path)).attachments.map((file) => file.filename)).toContain('Screenshot of the settlement report.png');
      expect(await auditOf('TicketAttachmentAdded')).not.toHaveLength(0);
    });

    it('offers a hostile file name back only as a safe Content-Disposition', async () => {
      const stored = await upload(users.owner, `${path}/attachments`, pngBytes, '..\\..\\evil"\r\nSet-Cookie: x=1 résumé.png');
      expect(stored.status).toBe(201);
      const { ticketAttachmentId } = (await stored.json()) as { ticketAttachmentId: string };
      const download = await call(users.owner, 'GET', `${path}/attachments/${ticketAttachmentId}`);
      const header = download.headers.get('content-disposition') ?? '';
      expect(header).toMatch(/^attachment; filename="[^"\\\r\n]*"; filename\*=UTF-8''/);
      expect(header).not.toMatch(/[\r\n]|\\/);
      expect(download.headers.get('set-cookie')).toBeNull();
    });

    it('refuses what is not an image or PDF by its bytes, whatever its name says', async () => {
      const html = await upload(users.owner, `${path}/attachments`, htmlBytes, 'notes.html', 'text/html');
      expect(html.status).toBe(415);
      expect(await messagesOf(html)).toEqual([uploadMessages.notImageOrPdf]);
      const disguised = await upload(users.owner, `${path}/attachments`, htmlBytes, 'photo.png', 'image/png');
      expect(disguised.status).toBe(415);
      expect(await messagesOf(disguised)).toEqual([uploadMessages.invalidFormat]);
      const mismatch = await upload(users.owner, `${path}/attachments`, pdfBytes, 'photo.png', 'image/png');
      expect(await messagesOf(mismatch)).toEqual([uploadMessages.invalidFormat]);
      const csvOnBug = await upload(users.owner, `${path}/attachments`, csvBytes, 'evidence.csv', 'text/csv');
      expect(csvOnBug.status).toBe(415);
    });

    it('accepts CSV for disputes only, and PDFs anywhere', async () => {
      const csv = await upload(users.owner, `${disputePath}/attachments`, csvBytes, 'evidence.csv', 'text/csv');
      expect(csv.status, await csv.clone().text()).toBe(201);
      expect(((await csv.json()) as { mimeType: string }).mimeType).toBe('text/csv');
      const pdf = await upload(users.owner, `${disputePath}/attachments`, pdfBytes, 'delivery-note.pdf', 'application/pdf');
      expect(pdf.status).toBe(201);
      const exe = await upload(users.owner, `${disputePath}/attachments`, Buffer.from('MZ\u0090\u0000binary', 'latin1'), 'tool.exe');
      expect(await messagesOf(exe)).toEqual([uploadMessages.invalidTypeForDispute]);
    });

    it('takes exactly 5 MB, refuses 5 MB + 1 byte with the spec’s message, and stores nothing of it', async () => {
      const exact = Buffer.concat([pngBytes, Buffer.alloc(maxAttachmentBytes - pngBytes.length)]);
      const accepted = await upload(users.owner, `${path}/attachments`, exact, 'exact.png');
      expect(accepted.status, await accepted.clone().text()).toBe(201);
      const rowsBefore = (await database.db.select().from(schema.ticketAttachments)).length;
      const over = await upload(users.owner, `${path}/attachments`, Buffer.concat([exact, Buffer.alloc(1)]), 'over.png');
      expect(over.status).toBe(413);
      expect(await messagesOf(over)).toEqual([uploadMessages.tooLarge]);
      const far = await upload(users.owner, `${path}/attachments`, Buffer.alloc(maxAttachmentBytes * 2), 'far.png');
      expect(far.status).toBe(413);
      expect(await messagesOf(far)).toEqual([uploadMessages.tooLarge]);
      expect((await database.db.select().from(schema.ticketAttachments)).length).toBe(rowsBefore);
    });

    it('answers a request without the file field or not multipart with the spec’s message', async () => {
      const form = new FormData();
      form.append('other', 'x');
      const missing = await app.request(`/api/portal${path}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenFor(users.owner)}` },
        body: form,
      });
      expect(missing.status).toBe(400);
      expect(await messagesOf(missing)).toEqual([uploadMessages.unreadable]);
      const json = await call(users.owner, 'POST', `${path}/attachments`, { file: 'x' });
      expect(await messagesOf(json)).toEqual([uploadMessages.unreadable]);
    });

    it('lets only the uploader or staff remove an attachment', async () => {
      const staffFile = (await (await upload(users.admin, `${path}/attachments`, pngBytes, 'staff.png')).json()) as {
        ticketAttachmentId: string;
        removable: boolean;
      };
      const ownerView = await detail(users.owner, path);
      expect(ownerView.attachments.find((file) => file.ticketAttachmentId === staffFile.ticketAttachmentId)?.removable).toBe(false);
      expect((await call(users.owner, 'DELETE', `${path}/attachments/${staffFile.ticketAttachmentId}`)).status).toBe(403);
      const ownFile = (await (await upload(users.owner, `${path}/attachments`, pngBytes, 'mine.png')).json()) as { ticketAttachmentId: string };
      expect((await call(users.owner, 'DELETE', `${path}/attachments/${ownFile.ticketAttachmentId}`)).status).toBe(204);
      expect((await call(users.admin, 'DELETE', `${path}/attachments/${staffFile.ticketAttachmentId}`)).status).toBe(204);
      expect((await call(users.admin, 'GET', `${path}/attachments/${staffFile.ticketAttachmentId}`)).status).toBe(404);
      expect(await auditOf('TicketAttachmentRemoved')).toHaveLength(2);
    });
  });

  it('lists assignees for staff only', async () => {
    const staff = (await (await call(users.admin, 'GET', '/ticket-assignees')).json()) as { results: { userId: string }[] };
    // Staff who may work a ticket: the internal read-only role reads internal notes but is no assignee.
    expect(staff.results.map((row) => row.userId).sort()).toEqual([users.admin, configurationUsers.implementations, configurationUsers.service].sort());
    expect((await call(users.owner, 'GET', '/ticket-assignees')).status).toBe(403);
  });
});
