// The users overview's rows (GET /user/users, /partners/{partnerId}/users): whom a caller may read now, narrowed by the
// overview's filters, and the status a user is listed with. The routes (server/api/users.ts, partner-users.ts), the
// bulk jobs (server/bulk/areas.ts) and the users export (server/reports/area-exports.ts) read from here.
import { and, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ParsedListQuery } from '../../src/contract/list-query.ts';
import type { UserListItem } from '../../src/contract/user-schemas.ts';
import { sqlNow } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { userRoles, users } from '../db/schema.ts';
import { forbidden } from '../http/errors.ts';
import { likeLiteral } from '../http/list-sql.ts';
import type { Principal } from '../policy/principal.ts';
import { holdsRootPermission, partnersOfBusinesses, permissionInBusiness, permissionInPartner } from './user-access.ts';

const u = users;

type UserRow = typeof users.$inferSelect;

export const statusOf = (row: Pick<UserRow, 'status' | 'lockoutEndDateUtc'>, now = new Date()): UserListItem['status'] =>
  row.lockoutEndDateUtc && row.lockoutEndDateUtc > now ? 'locked' : row.status;

/** The role rows whose users the caller may read (null: every user, a root reader); 403 when none. */
export async function readableGrantCondition(db: Db, principal: Principal): Promise<SQL | null> {
  if (holdsRootPermission(principal, 'Mapi.Users.Read')) return null;
  const candidateBusinesses = [...new Set([...principal.businessIds, ...principal.partnerBusinessIds])];
  const partnerOf = await partnersOfBusinesses(db, candidateBusinesses);
  const businessIds = candidateBusinesses.filter((id) => permissionInBusiness(principal, 'Mapi.Users.Read', id, partnerOf.get(id) ?? null));
  const partnerIds = principal.partnerIds.filter((id) => permissionInPartner(principal, 'Mapi.Users.Read', id));
  if (businessIds.length === 0 && partnerIds.length === 0) throw forbidden();
  const parts: SQL[] = [];
  if (businessIds.length > 0) parts.push(inArray(userRoles.businessId, businessIds));
  if (partnerIds.length > 0) parts.push(and(eq(userRoles.level, 'partner'), inArray(userRoles.partnerId, partnerIds)) as SQL);
  return or(...parts) as SQL;
}

/** The users overview's rows (GET /user/users, /partners/{id}/users): who the caller may read, narrowed by the filters. */
export async function userListWhere(
  db: Db,
  principal: Principal,
  filters: ParsedListQuery['filters'],
  extra: { partnerId?: string } = {},
): Promise<{ readable: SQL | null; where: SQL | undefined }> {
  const query = { filters };
  const readable = extra.partnerId
    ? (and(eq(userRoles.level, 'partner'), eq(userRoles.partnerId, extra.partnerId)) as SQL)
    : await readableGrantCondition(db, principal);
  const roleRow = (condition?: SQL) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(userRoles)
        .where(and(eq(userRoles.userId, u.id), readable ?? undefined, condition)),
    );
  const conditions: (SQL | undefined)[] = [readable ? roleRow() : undefined];
  const first = (name: string) => query.filters[name]?.[0]?.value;
  const name = first('name');
  if (name) conditions.push(sql`lower(${u.givenName} || ' ' || ${u.familyName}) LIKE ${`%${likeLiteral(name.toLowerCase())}%`}`);
  const email = first('email');
  if (email) conditions.push(sql`lower(${u.email}) LIKE ${`%${likeLiteral(email.toLowerCase())}%`}`);
  const role = first('role');
  if (role) conditions.push(roleRow(eq(userRoles.role, role)));
  const business = first('business');
  if (business) conditions.push(roleRow(eq(userRoles.businessId, business)));
  const merchant = first('merchant');
  if (merchant) conditions.push(roleRow(eq(userRoles.merchantId, merchant)));
  const locked = first('locked');
  const lockedSql = sql`(${u.lockoutEndDateUtc} IS NOT NULL AND ${u.lockoutEndDateUtc} > ${sqlNow()})`;
  if (locked === 'true') conditions.push(lockedSql);
  if (locked === 'false') conditions.push(sql`NOT ${lockedSql}`);
  const status = first('status');
  if (status === 'locked') conditions.push(lockedSql);
  else if (status) conditions.push(and(eq(u.status, status as 'active' | 'invited'), sql`NOT ${lockedSql}`));
  const internal = first('internal');
  if (internal) conditions.push(eq(u.internal, internal === 'true'));
  // Internal users are not listed to those who only see business or partner users.
  if (readable) conditions.push(eq(u.internal, false));
  const where = and(...conditions);
  return { readable, where };
}
