import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyApiKey, warnExpiringApiKeys } from '../../../server/api/api-keys.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { apiKeyCreated, apiKeyList, apiKeyReplacementCompleted, imageUploadAnswer } from '../../../src/contract/configuration-schemas.ts';
import { maxImageBytes } from '../../../src/contract/configurations.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, grantStepUp, insertFixtureWorld } from '../support.ts';
import { configurationUsers, insertConfigurationUsers } from './configuration-fixtures.ts';

const { users } = fixture;
const { developer, implementations } = configurationUsers;
const configurationPath = '/businesses/B1/merchants/M1a/configurations/C-M1a';

/** A JPEG with EXIF orientation 6 (lying on its side) and a camera make in its metadata. */
async function phoneJpeg(width = 40, height = 20): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'Leaky 1' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
const png = () =>
  sharp({ create: { width: 30, height: 10, channels: 4, background: '#ff000080' } })
    .png()
    .toBuffer();

describe.each(databaseKinds)('images and API keys on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createTestApp>['app'];
  let call: ReturnType<typeof createTestApp>['call'];
  const folder = mkdtempSync(join(tmpdir(), 'portal-images-'));
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertConfigurationUsers(database);
    ({ app, call } = createTestApp(database, { files: createFolderStore(folder) }));
  });
  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function refused(userId: string, method: string, path: string, body?: unknown) {
    const response = await call(userId, method, path, body);
    const messages =
      response.status >= 400 ? ((await response.json()) as { errorReport: { errors: { message: string }[] } }).errorReport.errors.map((e) => e.message) : [];
    return { status: response.status, messages };
  }
  const upload = (userId: string, path: string, bytes: Buffer, mimeType = 'image/jpeg') =>
    call(userId, 'POST', `${path}/images`, { data: bytes.toString('base64'), mimeType });

  describe('images', () => {
    it('stores a JPEG upright without its metadata and serves it publicly with a long cache lifetime', async () => {
      const response = await upload(developer, configurationPath, await phoneJpeg());
      expect(response.status, await response.clone().text()).toBe(201);
      const answer = imageUploadAnswer.assert(await response.json());
      expect(answer).toMatchObject({ mimeType: 'image/jpeg', width: 20, height: 40 });
      expect(answer.imageReference).toMatch(/^IMG[0-9A-F]{32}$/);
      const served = await app.request(`/api/portal/images/${answer.imageReference}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await served.arrayBuffer());
      const metadata = await sharp(bytes).metadata();
      expect(metadata).toMatchObject({ width: 20, height: 40 });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      expect(bytes.includes(Buffer.from('SecretCam'))).toBe(false);
      const [audit] = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.event, 'ImageUploaded'));
      expect(audit).toMatchObject({ businessId: 'B1', merchantId: 'M1a', userId: developer });
    });

    it('takes the type from the bytes: a renamed executable or text is refused, a PNG labelled JPEG too', async () => {
      const executable = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(200, 1)]);
      expect(await refused(developer, 'POST', `${configurationPath}/images`, { data: executable.toString('base64'), mimeType: 'image/png' })).toEqual({
        status: 400,
        messages: ['Invalid file type, allowed: .jpg, .jpeg, .png'],
      });
      const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200)]);
      expect((await refused(developer, 'POST', `${configurationPath}/images`, { data: elf.toString('base64'), mimeType: 'image/jpeg' })).status).toBe(400);
      expect(
        (await refused(developer, 'POST', `${configurationPath}/images`, { data: Buffer.from('hello, world').toString('base64'), mimeType: 'image/png' }))
          .status,
      ).toBe(400);
      expect((await refused(developer, 'POST', `${configurationPath}/images`, { data: (await png()).toString('base64'), mimeType: 'image/jpeg' })).status).toBe(
        400,
      );
      expect((await refused(developer, 'POST', `${configurationPath}/images`, { data: (await png()).toString('base64'), mimeType: 'image/gif' })).status).toBe(
        400,
      );
      expect((await refused(developer, 'POST', `${configurationPath}/images`, { data: '!!!not base64!!!', mimeType: 'image/png' })).status).toBe(400);
    });

    it('accepts exactly 5,242,880 bytes of size check and refuses one byte more', async () => {
      const header = await png();
      const atLimit = Buffer.concat([header, Buffer.alloc(maxImageBytes - header.length)]);
      // At the limit the size passes; the padded PNG still decodes (trailing bytes after IEND are ignored).
      const accepted = await upload(developer, configurationPath, atLimit, 'image/png');
      expect(accepted.status, await accepted.clone().text()).toBe(201);
      const over = Buffer.concat([atLimit, Buffer.alloc(1)]);
      expect(await refused(developer, 'POST', `${configurationPath}/images`, { data: over.toString('base64'), mimeType: 'image/png' })).toEqual({
        status: 400,
        messages: ['The file exceeded the maximum file size of 5 MB'],
      });
    });

    it("deletes only its own owner's image, then serves 404", async () => {
      const answer = imageUploadAnswer.assert(await (await upload(developer, configurationPath, await png(), 'image/png')).json());
      expect((await refused(developer, 'DELETE', `/businesses/B1/merchants/M1b/images/${answer.imageReference}`)).status).toBe(404);
      expect((await refused(users.owner, 'DELETE', `${configurationPath}/images/${answer.imageReference}`)).status).toBe(404);
      expect((await call(developer, 'DELETE', `${configurationPath}/images/${answer.imageReference}`)).status).toBe(204);
      expect((await app.request(`/api/portal/images/${answer.imageReference}`)).status).toBe(404);
      expect((await app.request('/api/portal/images/../../etc/passwd')).status).toBe(404);
    });

    it('checks the permission and tenant of every owner level', async () => {
      const bytes = await png();
      expect((await upload(users.readonly, configurationPath, bytes, 'image/png')).status).toBe(403);
      expect((await upload(users.owner, configurationPath, bytes, 'image/png')).status).toBe(404);
      expect((await upload(users.owner, '/businesses/B3/merchants/M3a/configurations/C-M1a', bytes, 'image/png')).status).toBe(404);
      expect((await upload(developer, '/businesses/B1', bytes, 'image/png')).status).toBe(403);
      expect((await upload(configurationUsers.service, '/businesses/B1', bytes, 'image/png')).status).toBe(201);
      expect((await upload(users.owner, '/businesses/B3/merchants/M3a', bytes, 'image/png')).status).toBe(201);
    });
  });

  describe('API keys', () => {
    it('is for Implementations and Technical admin, and Owner and External developer on their own merchants', async () => {
      expect((await refused(developer, 'GET', `${configurationPath}/api-keys`)).status).toBe(200);
      expect((await refused(developer, 'GET', '/businesses/B3/merchants/M3a/configurations/C-M3a/api-keys')).status).toBe(404);
      // Without a step-up, even a holder is refused a new key.
      expect((await refused(users.partner, 'POST', `${configurationPath}/api-keys`, { name: 'Shop', description: '', expiresAt: null })).status).toBe(403);
      expect((await refused(users.merchantOnly, 'GET', '/businesses/B1/merchants/M1b/configurations/C-M1b/api-keys')).status).toBe(403);
      expect((await refused(users.readonly, 'GET', `${configurationPath}/api-keys`)).status).toBe(403);
      expect((await refused(implementations, 'GET', '/businesses/B1/merchants/M1a/configurations/C-M1b/api-keys')).status).toBe(404);
      expect((await refused(users.admin, 'GET', `${configurationPath}/api-keys`)).status).toBe(200);
    });

    it('shows a key once, stores only its hash, and replaces it in two steps; the old key is refused afterwards', async () => {
      await grantStepUp(database, implementations);
      const response = await call(implementations, 'POST', `${configurationPath}/api-keys`, { name: 'Web shop', description: 'Production', expiresAt: null });
      expect(response.status, await response.clone().text()).toBe(201);
      const created = apiKeyCreated.assert(await response.json());
      expect(created.secret).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
      expect(created.apiKey).toMatchObject({ name: 'Web shop', status: 'active', prefix: created.secret.slice(0, 14), replacesId: null });
      const rows = await database.db.select().from(schema.apiKeys);
      expect(JSON.stringify(rows)).not.toContain(created.secret);
      const audits = await database.db.select().from(schema.auditEvents);
      expect(JSON.stringify(audits)).not.toContain(created.secret);
      expect(await verifyApiKey(database, created.secret)).toMatchObject({ configurationId: 'C-M1a', merchantId: 'M1a' });

      const base = `${configurationPath}/api-keys/${created.apiKey.id}`;
      expect((await refused(implementations, 'POST', `${base}/replacement/complete`, { oldKeyStops: 'now' })).status).toBe(400);
      const replacement = apiKeyCreated.assert(await (await call(implementations, 'POST', `${base}/replacement`)).json());
      expect(replacement.apiKey.replacesId).toBe(created.apiKey.id);
      expect((await refused(implementations, 'POST', `${base}/replacement`)).messages[0]).toContain('already waiting');
      // Between the steps both keys work.
      expect(await verifyApiKey(database, created.secret)).not.toBeNull();
      expect(await verifyApiKey(database, replacement.secret)).not.toBeNull();
      const completed = apiKeyReplacementCompleted.assert(
        await (await call(implementations, 'POST', `${base}/replacement/complete`, { oldKeyStops: '1h' })).json(),
      );
      expect(completed.replacement.replacesId).toBeNull();
      const stops = Date.parse(completed.replaced.expiresAt ?? '');
      expect(Math.abs(stops - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      // Within the hour the old key still works; after it, it is refused and the new one is not.
      expect(await verifyApiKey(database, created.secret)).not.toBeNull();
      expect(await verifyApiKey(database, created.secret, new Date(Date.now() + 3_600_000 + 1000))).toBeNull();
      expect(await verifyApiKey(database, replacement.secret, new Date(Date.now() + 3_600_000 + 1000))).not.toBeNull();
      const events = (await database.db.select().from(schema.auditEvents)).map((row) => row.event);
      expect(events).toEqual(expect.arrayContaining(['ApiKeyCreated', 'ApiKeyReplacementStarted', 'ApiKeyReplacementCompleted']));
    });

    it('stops the old key at once with now, and revokes at any time', async () => {
      await grantStepUp(database, users.admin);
      const created = apiKeyCreated.assert(
        await (await call(users.admin, 'POST', `${configurationPath}/api-keys`, { name: 'POS', description: '', expiresAt: null })).json(),
      );
      const base = `${configurationPath}/api-keys/${created.apiKey.id}`;
      const replacement = apiKeyCreated.assert(await (await call(users.admin, 'POST', `${base}/replacement`)).json());
      await call(users.admin, 'POST', `${base}/replacement/complete`, { oldKeyStops: 'now' });
      expect(await verifyApiKey(database, created.secret)).toBeNull();
      expect((await call(users.admin, 'DELETE', `${configurationPath}/api-keys/${replacement.apiKey.id}`)).status).toBe(204);
      expect(await verifyApiKey(database, replacement.secret)).toBeNull();
      const list = apiKeyList.assert(await (await call(users.admin, 'GET', `${configurationPath}/api-keys`)).json());
      expect(list.results.find((key) => key.id === replacement.apiKey.id)?.status).toBe('revoked');
      expect(list.results.find((key) => key.id === created.apiKey.id)?.status).toBe('expired');
      expect((await refused(users.admin, 'POST', `${base}/replacement`)).status).toBe(400);
    });

    it('validates names and expiry dates', async () => {
      expect(await refused(implementations, 'POST', `${configurationPath}/api-keys`, { name: '', description: '', expiresAt: null })).toEqual({
        status: 400,
        messages: ['Name is required'],
      });
      expect(
        await refused(implementations, 'POST', `${configurationPath}/api-keys`, { name: 'Old', description: '', expiresAt: '2001-01-01T00:00:00Z' }),
      ).toEqual({ status: 400, messages: ['Expiry date is in the past'] });
      expect((await refused(implementations, 'POST', `${configurationPath}/api-keys`, { name: 'x'.repeat(61), description: '', expiresAt: null })).status).toBe(
        400,
      );
      expect(
        (await refused(implementations, 'POST', `${configurationPath}/api-keys/KEY0000000000000000/replacement/complete`, { oldKeyStops: '2w' })).status,
      ).toBe(400);
      expect((await refused(implementations, 'DELETE', `${configurationPath}/api-keys/KEY0000000000000000`)).status).toBe(404);
    });

    it('warns the business owners once, 7 days before a key expires', async () => {
      await database.db.insert(schema.userRoles).values({ userId: users.owner, role: 'Owner', level: 'business', businessId: 'B1' });
      const in5Days = new Date(Date.now() + 5 * 86_400_000).toISOString();
      const in30Days = new Date(Date.now() + 30 * 86_400_000).toISOString();
      await call(implementations, 'POST', `${configurationPath}/api-keys`, { name: 'Expiring soon', description: '', expiresAt: in5Days });
      await call(implementations, 'POST', `${configurationPath}/api-keys`, { name: 'Expiring later', description: '', expiresAt: in30Days });
      expect(await warnExpiringApiKeys(database, 'https://portal.example')).toBe(1);
      expect(await warnExpiringApiKeys(database, 'https://portal.example')).toBe(0);
      const mails = await database.db.select().from(schema.outboundEmails);
      expect(mails.map((mail) => mail.recipient)).toEqual(['owner@fixture.test']);
      expect(mails[0]?.subject).toContain("API key 'Expiring soon' expires");
      expect(mails[0]?.text).toContain('https://portal.example/configurations/C-M1a?tab=apiKeys');
    });
  });
});
