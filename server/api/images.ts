// Images (spec: context document, section 7): logos of businesses, merchants and configurations' hosted pages.
//
// | method | path                                                   | permission                 | answer                      |
// |--------|--------------------------------------------------------|----------------------------|-----------------------------|
// | POST   | /businesses/{b}/images                                 | Mapi.Business.Update       | 201 { imageReference, … }   |
// | POST   | /businesses/{b}/merchants/{m}/images                   | Mapi.Configurations.Update | 201                         |
// | POST   | /businesses/{b}/merchants/{m}/configurations/{c}/images | Mapi.Configurations.Update | 201                         |
// | DELETE | the same path + /{imageReference}                      | the same                   | 204; another owner's → 404  |
// | GET    | /api/portal/images/{imageReference} (public)           | none: the reference is an  | the bytes, Content-Type     |
// |        |                                                        | unguessable 128-bit name   | from the bytes, cached 1 y  |
// The body is { data: base64, mimeType: image/jpeg | image/png }. The server believes the bytes, not the label: the
// type is read from the file's signature (file-type), so a renamed executable is refused; at most 5,242,880
// bytes; at most 8,000 px a side; decoded and re-encoded by sharp, which drops EXIF, XMP and ICC metadata
// (rotated upright first, so a phone picture does not lie on its side). Stored in the FileStore under images/.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { Hono, type Context } from 'hono';
import sharp, { type Sharp } from 'sharp';
import { imageUploadBody } from '../../src/contract/configuration-schemas.ts';
import { imageMessages, imageMimeTypes, maxImageBytes, maxImageDimension } from '../../src/contract/configurations.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { FileStore } from '../files/file-store.ts';
import { configurations, images } from '../db/schema.ts';
import { resolveContext } from '../policy/principal.ts';
import { recordAudit } from '../audit/record.ts';
import { idParam } from './businesses.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, notFound } from '../http/errors.ts';

/** Bodies of image uploads may be this large: base64 of 5,242,880 bytes is 6,990,508 characters, plus the JSON around it. */
export const maxImageBodyBytes = 7_100_000;
const referencePattern = /^IMG[0-9A-F]{32}$/;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

export type ImageCheckResult = { bytes: Buffer; mimeType: (typeof imageMimeTypes)[number]; width: number; height: number };

/** The bytes' own type, size and dimensions; re-encoded without metadata. Throws a 400 ApiError naming the problem. */
export async function checkImage(data: Buffer): Promise<ImageCheckResult> {
  if (data.length === 0) throw badRequest(imageMessages.chooseImage);
  if (data.length > maxImageBytes) throw badRequest(imageMessages.tooLarge('5 MB'));
  const detected = await fileTypeFromBuffer(data);
  const mimeType = imageMimeTypes.find((type) => type === detected?.mime);
  if (!mimeType) throw badRequest(imageMessages.invalidType);
  let pipeline: Sharp;
  let width: number;
  let height: number;
  try {
    pipeline = sharp(data, { limitInputPixels: maxImageDimension * maxImageDimension, failOn: 'error' }).rotate();
    const metadata = await pipeline.metadata();
    // Orientations 5 to 8 swap the sides once rotated upright.
    const swapped = (metadata.orientation ?? 1) >= 5;
    width = (swapped ? metadata.height : metadata.width) ?? 0;
    height = (swapped ? metadata.width : metadata.height) ?? 0;
  } catch {
    throw badRequest(imageMessages.invalidFormat);
  }
  if (width < 1 || height < 1 || width > maxImageDimension || height > maxImageDimension) {
    throw badRequest(`Image dimensions should be between 1 and ${maxImageDimension} pixels a side`);
  }
  try {
    // sharp keeps no metadata unless asked (withMetadata): the output carries pixels only.
    const bytes =
      mimeType === 'image/png' ? await pipeline.png({ compressionLevel: 9 }).toBuffer() : await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    return { bytes, mimeType, width, height };
  } catch {
    throw badRequest(imageMessages.invalidFormat);
  }
}

type Owner = { businessId: string; merchantId: string | null; configurationId: string | null };

export function imageRoutes({ database, files }: Deps) {
  const routes = new Hono<AppEnv>();
  const { db } = database;

  async function ownerOf(c: Context<AppEnv>, level: 'business' | 'merchant' | 'configuration'): Promise<Owner> {
    const principal = c.get('principal');
    const businessId = idParam(c, 'businessId');
    const resolved =
      level === 'business'
        ? await resolveContext(database, principal, businessId)
        : await resolveContext(database, principal, businessId, idParam(c, 'merchantId'));
    if (!resolved || (level !== 'business' && !resolved.merchant)) throw notFound();
    const permission: PermissionName = level === 'business' ? 'Mapi.Business.Update' : 'Mapi.Configurations.Update';
    requirePermission(resolved.permissions, permission);
    if (level !== 'configuration') return { businessId, merchantId: resolved.merchant?.id ?? null, configurationId: null };
    const configurationId = idParam(c, 'configurationId');
    const [configuration] = await db
      .select({ id: configurations.id })
      .from(configurations)
      .where(and(eq(configurations.id, configurationId), eq(configurations.merchantId, resolved.merchant?.id ?? '')));
    if (!configuration) throw notFound();
    return { businessId, merchantId: resolved.merchant?.id ?? null, configurationId };
  }

  const ownerCondition = (owner: Owner): SQL =>
    and(
      eq(images.businessId, owner.businessId),
      owner.merchantId === null ? isNull(images.merchantId) : eq(images.merchantId, owner.merchantId),
      owner.configurationId === null ? isNull(images.configurationId) : eq(images.configurationId, owner.configurationId),
    ) as SQL;

  const paths = [
    { level: 'business' as const, path: '/businesses/:businessId/images' },
    { level: 'merchant' as const, path: '/businesses/:businessId/merchants/:merchantId/images' },
    { level: 'configuration' as const, path: '/businesses/:businessId/merchants/:merchantId/configurations/:configurationId/images' },
  ];
  for (const { level, path } of paths) {
    routes.post(path, async (c) => {
      const owner = await ownerOf(c, level);
      const body = await readBody(c, imageUploadBody);
      if (!base64Pattern.test(body.data) || body.data.length % 4 === 1) throw badRequest(imageMessages.invalidFormat);
      const checked = await checkImage(Buffer.from(body.data, 'base64'));
      if (checked.mimeType !== body.mimeType) throw badRequest(imageMessages.invalidType);
      const reference = `IMG${randomBytes(16).toString('hex').toUpperCase()}`;
      const filePath = `images/${reference}`;
      await files.put(filePath, Readable.from([checked.bytes]), { contentType: checked.mimeType });
      try {
        await db.transaction(async (tx) => {
          await tx.insert(images).values({
            reference,
            ...owner,
            mimeType: checked.mimeType,
            width: checked.width,
            height: checked.height,
            byteSize: checked.bytes.length,
            filePath,
            createdBy: c.get('principal').userId,
          });
          await recordAudit(
            tx,
            c.get('principal'),
            'ImageUploaded',
            { businessId: owner.businessId, merchantId: owner.merchantId },
            {
              imageReference: reference,
              configurationId: owner.configurationId,
              byteSize: checked.bytes.length,
            },
          );
        });
      } catch (error) {
        await files.delete(filePath).catch(() => undefined);
        throw error;
      }
      return c.json(
        { imageReference: reference, mimeType: checked.mimeType, width: checked.width, height: checked.height, byteSize: checked.bytes.length },
        201,
      );
    });

    routes.delete(`${path}/:imageReference`, async (c) => {
      const owner = await ownerOf(c, level);
      const reference = c.req.param('imageReference');
      if (!referencePattern.test(reference)) throw notFound();
      const row = await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(images)
          .where(and(eq(images.reference, reference), ownerCondition(owner)))
          .returning();
        if (!deleted) throw notFound();
        await recordAudit(
          tx,
          c.get('principal'),
          'ImageDeleted',
          { businessId: owner.businessId, merchantId: owner.merchantId },
          {
            imageReference: reference,
            configurationId: owner.configurationId,
          },
        );
        return deleted;
      });
      await files.delete(row.filePath).catch(() => undefined);
      return c.body(null, 204);
    });
  }
  return routes;
}

/** GET /api/portal/images/{imageReference}: public (shopper pages and img tags send no bearer). */
export function publicImageRoutes({ database, files }: Pick<Deps, 'database' | 'files'>) {
  const routes = new Hono();
  routes.get('/api/portal/images/:imageReference', async (c) => {
    const reference = c.req.param('imageReference');
    const notFoundAnswer = () =>
      c.json({ errorReport: { errors: [{ message: 'The requested record was not found.', translatedMessage: 'The requested record was not found.' }] } }, 404);
    if (!referencePattern.test(reference)) return notFoundAnswer();
    const [row] = await database.db.select().from(images).where(eq(images.reference, reference));
    if (!row) return notFoundAnswer();
    const stored = await serveFile(files, row.filePath);
    if (!stored) return notFoundAnswer();
    c.header('Content-Type', row.mimeType);
    c.header('Content-Length', String(stored.length));
    // A reference names one set of bytes forever (a new upload gets a new one): cache it for a year.
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Security-Policy', "default-src 'none'");
    return c.body(new Uint8Array(stored));
  });
  return routes;
}

async function serveFile(files: FileStore, key: string): Promise<Buffer | null> {
  const file = await files.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
