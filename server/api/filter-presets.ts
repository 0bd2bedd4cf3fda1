// Filter presets in the database. The paths and
// shapes are in src/contract/filter-presets.ts.
//
// | method | path                                  | who                                                   | answer                     |
// |--------|---------------------------------------|-------------------------------------------------------|----------------------------|
// | GET    | /filter-presets?page&businessId       | anyone signed in; businessId must be reachable (404)  | { results } mine, my roles', the business's |
// | POST   | /filter-presets                       | anyone (personal); internal staff holding it (role)   | 201 the preset             |
// | GET    | /businesses/{b}/filter-presets?page   | b reachable (else 404)                                | { results } shared with b  |
// | POST   | /businesses/{b}/filter-presets        | b reachable; isDefault: b's Owner or a Technical admin | 201 the preset             |
// | PUT    | /filter-presets/{id}                  | its owner or an admin (403); unseen: 404              | the preset; 409 stale      |
// | DELETE | /filter-presets/{id}?version          | its owner or an admin (403); unseen: 404              | 204; 409 stale             |
//
// An admin of a preset: a Technical admin, or for a business-shared preset an Owner of that business. Shared
// presets are read-only to everyone else they are shared with. Every write is audited (FilterPresetCreated,
// FilterPresetChanged, FilterPresetRemoved) in its own database transaction; a preset of a business another
// tenant holds is never seen, changed or removed (404).
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { businessPresetBody, personalPresetBody, presetPagePattern, presetUpdateBody, type StoredPreset } from '../../src/contract/filter-presets.ts';
import { recordAudit } from '../audit/record.ts';
import { filterPresets, users } from '../db/schema.ts';
import { isInternal, resolveContext, type Principal } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import type { DbWriter } from '../db/client.ts';

const p = filterPresets;
const idPattern = /^FP[0-9A-F]{16}$/;
const newId = () => `FP${randomBytes(8).toString('hex').toUpperCase()}`;
type Row = typeof filterPresets.$inferSelect;

const isTechnicalAdmin = (principal: Principal) => principal.rootRoles.includes('TechnicalAdmin');
const isBusinessOwner = (principal: Principal, businessId: string) =>
  principal.grants.some((grant) => grant.role === 'Owner' && grant.level === 'business' && grant.businessId === businessId);

/** The owner, a Technical admin, or for a business-shared preset an Owner of its business. */
export function mayEdit(principal: Principal, row: Pick<Row, 'ownerId' | 'businessId'>): boolean {
  return row.ownerId === principal.userId || isTechnicalAdmin(principal) || (row.businessId !== null && isBusinessOwner(principal, row.businessId));
}

function pageParam(c: Context<AppEnv>): string {
  const page = c.req.query('page') ?? '';
  if (!presetPagePattern.test(page)) throw badRequest("'page' must name a page, such as transactions");
  return page;
}

export function filterPresetRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  async function reachableBusiness(principal: Principal, businessId: string): Promise<string> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(businessId)) throw notFound();
    const resolved = await resolveContext(database, principal, businessId);
    if (!resolved) throw notFound();
    return resolved.business.id;
  }

  /**
   * A business whose presets the caller may list under its path, share or set as its default: a business page's
   * reach (a role at root, partner or business level, spec). A merchant-level role reads the presets shared on its
   * business through GET /filter-presets?businessId=… but shares none with people it cannot see (the tenant-isolation
   * suite caught a merchant user sharing with another business of its grants): 404 as for any unreachable business.
   */
  async function shareableBusiness(principal: Principal, businessId: string): Promise<string> {
    const id = await reachableBusiness(principal, businessId);
    if (!isInternal(principal) && !principal.businessIds.includes(id) && !principal.partnerBusinessIds.includes(id)) throw notFound();
    return id;
  }

  /** Who sees a preset: its owner; everyone on its business (reachable); the holders of its role. */
  async function visible(principal: Principal, row: Row): Promise<boolean> {
    if (row.ownerId === principal.userId) return true;
    if (row.sharing === 'business' && row.businessId) return (await resolveContext(database, principal, row.businessId)) !== null;
    if (row.sharing === 'role' && row.role) return principal.rootRoles.includes(row.role) || isTechnicalAdmin(principal);
    return false;
  }

  async function answerOf(principal: Principal, rows: Row[]): Promise<StoredPreset[]> {
    const ownerIds = [...new Set(rows.map((row) => row.ownerId))];
    const owners =
      ownerIds.length === 0
        ? []
        : await db.select({ id: users.id, givenName: users.givenName, familyName: users.familyName }).from(users).where(inArray(users.id, ownerIds));
    const nameOf = new Map(owners.map((owner) => [owner.id, `${owner.givenName} ${owner.familyName}`.trim()]));
    return rows.map((row) => ({
      id: row.id,
      page: row.page,
      name: row.name,
      filters: row.filters,
      relativeDate: (row.relativeDate ?? null) as StoredPreset['relativeDate'],
      sharing: row.sharing,
      businessId: row.businessId,
      role: row.role,
      isDefault: row.isDefault,
      ownerName: nameOf.get(row.ownerId) ?? 'Unknown user',
      editable: mayEdit(principal, row),
      version: row.version,
      updatedUtc: row.updatedUtc.toISOString(),
    }));
  }

  const audit = (tx: DbWriter, principal: Principal, event: string, row: Pick<Row, 'id' | 'page' | 'name' | 'sharing' | 'businessId' | 'role' | 'version'>) =>
    recordAudit(
      tx,
      principal,
      event,
      { businessId: row.businessId, merchantId: null },
      { presetId: row.id, page: row.page, name: row.name, sharing: row.sharing, role: row.role, version: row.version },
    );

  /** One default per page and business: setting one clears the others (same transaction). */
  async function clearDefault(tx: DbWriter, page: string, businessId: string, except: string | null) {
    await tx
      .update(p)
      .set({ isDefault: false, version: sql`${p.version} + 1`, updatedUtc: new Date() })
      .where(and(eq(p.page, page), eq(p.businessId, businessId), eq(p.isDefault, true), except ? sql`${p.id} <> ${except}` : undefined));
  }

  const ordering = [desc(p.isDefault), asc(sql`lower(${p.name})`), asc(p.id)];

  routes.get('/filter-presets', async (c) => {
    const principal = c.get('principal');
    const page = pageParam(c);
    const businessParam = c.req.query('businessId');
    const businessId = businessParam === undefined || businessParam === '' ? null : await reachableBusiness(principal, businessParam);
    const roles = isTechnicalAdmin(principal) ? null : principal.rootRoles;
    const seen: (SQL | undefined)[] = [
      and(eq(p.sharing, 'personal'), eq(p.ownerId, principal.userId)),
      businessId ? and(eq(p.sharing, 'business'), eq(p.businessId, businessId)) : undefined,
      isInternal(principal) ? and(eq(p.sharing, 'role'), roles === null ? undefined : roles.length > 0 ? inArray(p.role, roles) : sql`false`) : undefined,
      // A role preset stays with its owner even if they no longer hold the role.
      and(eq(p.sharing, 'role'), eq(p.ownerId, principal.userId)),
    ];
    const rows = await db
      .select()
      .from(p)
      .where(and(eq(p.page, page), or(...seen.filter((part): part is SQL => part !== undefined))))
      .orderBy(...ordering)
      .limit(200);
    return c.json({ results: await answerOf(principal, rows) });
  });

  routes.post('/filter-presets', async (c) => {
    const principal = c.get('principal');
    const body = await readBody(c, personalPresetBody);
    const sharing = body.sharing ?? 'personal';
    if (sharing === 'role') {
      if (!body.role) throw badRequest("A preset shared with a role names the role ('role').");
      // Internal staff only, and only a role they hold (nobody shares beyond what they hold) unless a Technical admin.
      if (!isInternal(principal) || (!principal.rootRoles.includes(body.role) && !isTechnicalAdmin(principal))) throw forbidden();
    } else if (body.role) throw badRequest("'role' goes with sharing 'role' only.");
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(p)
        .values({
          id: newId(),
          page: body.page,
          name: body.name.trim(),
          filters: body.filters,
          relativeDate: body.relativeDate ?? null,
          sharing,
          ownerId: principal.userId,
          businessId: null,
          role: sharing === 'role' ? (body.role ?? null) : null,
        })
        .returning();
      if (!inserted) throw new Error('preset not inserted');
      await audit(tx, principal, 'FilterPresetCreated', inserted);
      return inserted;
    });
    const [answer] = await answerOf(principal, [row]);
    return c.json(answer, 201);
  });

  routes.get('/businesses/:businessId/filter-presets', async (c) => {
    const principal = c.get('principal');
    const businessId = await shareableBusiness(principal, c.req.param('businessId'));
    const page = pageParam(c);
    const rows = await db
      .select()
      .from(p)
      .where(and(eq(p.page, page), eq(p.sharing, 'business'), eq(p.businessId, businessId)))
      .orderBy(...ordering)
      .limit(200);
    return c.json({ results: await answerOf(principal, rows) });
  });

  routes.post('/businesses/:businessId/filter-presets', async (c) => {
    const principal = c.get('principal');
    const businessId = await shareableBusiness(principal, c.req.param('businessId'));
    const body = await readBody(c, businessPresetBody);
    if (body.isDefault && !isTechnicalAdmin(principal) && !isBusinessOwner(principal, businessId)) throw forbidden();
    const row = await db.transaction(async (tx) => {
      if (body.isDefault) await clearDefault(tx, body.page, businessId, null);
      const [inserted] = await tx
        .insert(p)
        .values({
          id: newId(),
          page: body.page,
          name: body.name.trim(),
          filters: body.filters,
          relativeDate: body.relativeDate ?? null,
          sharing: 'business',
          ownerId: principal.userId,
          businessId,
          isDefault: body.isDefault ?? false,
        })
        .returning();
      if (!inserted) throw new Error('preset not inserted');
      await audit(tx, principal, 'FilterPresetCreated', inserted);
      return inserted;
    });
    const [answer] = await answerOf(principal, [row]);
    return c.json(answer, 201);
  });

  /**
   * The preset if the caller sees it (else 404) and may change it (else 403): checked before the write's transaction
   * (the reach look-ups use the pool; the embedded database has one connection), then locked and read again inside it.
   */
  async function checkEditable(principal: Principal, id: string): Promise<void> {
    if (!idPattern.test(id)) throw notFound();
    const [row] = await db.select().from(p).where(eq(p.id, id));
    if (!row || !(await visible(principal, row))) throw notFound();
    if (!mayEdit(principal, row)) throw forbidden();
  }
  async function lockedRow(tx: DbWriter, id: string): Promise<Row> {
    const [row] = await tx.select().from(p).where(eq(p.id, id)).for('update');
    if (!row) throw notFound();
    return row;
  }

  routes.put('/filter-presets/:presetId', async (c) => {
    const principal = c.get('principal');
    const id = c.req.param('presetId');
    if (!idPattern.test(id)) throw notFound();
    const body = await readBody(c, presetUpdateBody);
    await checkEditable(principal, id);
    const row = await db.transaction(async (tx) => {
      const current = await lockedRow(tx, id);
      if (current.version !== body.version) throw conflict();
      if (body.isDefault !== undefined && body.isDefault !== current.isDefault) {
        if (current.sharing !== 'business' || !current.businessId) throw badRequest('Only a preset shared with a business can be its default.');
        if (!isTechnicalAdmin(principal) && !isBusinessOwner(principal, current.businessId)) throw forbidden();
        if (body.isDefault) await clearDefault(tx, current.page, current.businessId, current.id);
      }
      const [updated] = await tx
        .update(p)
        .set({
          name: body.name.trim(),
          filters: body.filters,
          relativeDate: body.relativeDate ?? null,
          isDefault: body.isDefault ?? current.isDefault,
          version: sql`${p.version} + 1`,
          updatedUtc: new Date(),
        })
        .where(and(eq(p.id, id), eq(p.version, body.version)))
        .returning();
      if (!updated) throw conflict();
      await audit(tx, principal, 'FilterPresetChanged', updated);
      return updated;
    });
    const [answer] = await answerOf(principal, [row]);
    return c.json(answer);
  });

  routes.delete('/filter-presets/:presetId', async (c) => {
    const principal = c.get('principal');
    const id = c.req.param('presetId');
    if (!idPattern.test(id)) throw notFound();
    const versionText = c.req.query('version') ?? '';
    if (!/^\d{1,9}$/.test(versionText)) throw badRequest("'version' is required: the version of the preset you are removing");
    const version = Number(versionText);
    await checkEditable(principal, id);
    await db.transaction(async (tx) => {
      const current = await lockedRow(tx, id);
      if (current.version !== version) throw conflict();
      await tx.delete(p).where(and(eq(p.id, id), eq(p.version, version)));
      await audit(tx, principal, 'FilterPresetRemoved', current);
    });
    return c.body(null, 204);
  });

  return routes;
}
