// The queue of beneficiaries awaiting their four-eyes approval, across every business the caller reads
// (context-free). Read only: approving stays on the beneficiary itself (PUT …/beneficiaries/{id}/status in
// beneficiaries.ts), with all its rules (someone else, no open alert, an independent approver, two-factor).
//
// | method | path                    | permission            | answer                                  |
// |--------|-------------------------|-----------------------|-----------------------------------------|
// | GET    | /beneficiary-approvals  | Mapi.Beneficiary.Read | { results, numberOfResults, businesses } (list convention; filters businessid, created, agedays, openalerts; sort age, business) |
//
// Scope: a root role holding Mapi.Beneficiary.Read reads every business; otherwise the businesses of the caller's
// business grants, and of their partner grants, whose role holds it (merchant grants do not: the per-business
// beneficiaries call refuses them too). No such grant: 403. A business filter outside that scope matches nothing:
// another tenant's rows never appear, and an empty answer says nothing about whether that business exists.
import { and, asc, count, eq, exists, gt, inArray, lte, not, or, sql, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import { beneficiaryApprovalListSpec, pendingApprovalStatus } from '../../src/contract/beneficiaries.ts';
import type { BeneficiaryApproval } from '../../src/contract/beneficiary-schemas.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type { Db } from '../db/client.ts';
import { now } from '../clock.ts';
import { beneficiaries, businesses, screeningAlerts, users } from '../db/schema.ts';
import type { Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { displayName } from '../risk/screen-beneficiary.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import {
  assertResourceMatchesSpec,
  filterCondition,
  orderByOf,
  orderKeysOf,
  parseListRequest,
  singleValuedQuery,
  type ListResource,
} from '../http/list-sql.ts';

const b = beneficiaries;
const a = screeningAlerts;
const day = 86_400_000;
/** The business filter's choices: enough for any one person's businesses with something waiting. */
const businessChoicesLimit = 500;

/** Has an open screening alert (as a sub-select, so the filter and the count agree). */
const hasOpenAlert = (db: Db) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(a)
      .where(and(eq(a.beneficiaryId, b.id), eq(a.status, 'open'))),
  );

/** agedays [gte]N: waited at least N whole days (created at or before now − N days); [lte]N: at most N. */
function ageCondition(clauses: FilterClause[], at: Date): SQL | undefined {
  const parts = clauses.map((clause) => {
    const days = Number(clause.value);
    if (clause.operator === 'gte') return lte(b.createdUtc, new Date(at.getTime() - days * day));
    if (clause.operator === 'lte') return gt(b.createdUtc, new Date(at.getTime() - (days + 1) * day));
    throw badRequest(`filter agedays does not accept [${clause.operator}]`);
  });
  return parts.length === 0 ? undefined : and(...parts);
}

function approvalResource(db: Db, at: Date): ListResource {
  return {
    spec: beneficiaryApprovalListSpec,
    filters: {
      businessid: { type: 'equals', column: b.businessId },
      created: { type: 'date', column: b.createdUtc },
      agedays: { type: 'custom', condition: (clauses) => ageCondition(clauses, at) },
      openalerts: {
        type: 'custom',
        condition: (clauses) => {
          const wanted = [...new Set(clauses.map((clause) => clause.value))];
          if (wanted.length !== 1) return wanted.length === 0 ? undefined : sql`false`;
          return wanted[0] === 'true' ? hasOpenAlert(db) : not(hasOpenAlert(db));
        },
      },
    },
    sorts: {
      // Ascending age is the newest first; the default (descending) puts the longest waiting first.
      age: [
        { expression: b.createdUtc, descending: true },
        { expression: b.id, descending: true },
      ],
      business: [
        { expression: sql`lower(${businesses.name})`, descending: false },
        { expression: businesses.id, descending: false },
        { expression: b.createdUtc, descending: false, fixedDirection: true },
        { expression: b.id, descending: false, fixedDirection: true },
      ],
    },
  };
}

/** The businesses whose beneficiaries the caller reads: undefined = all (root), null = none (403). */
export function approvalScope(principal: Principal): SQL | undefined | null {
  const grants = principal.grants.filter((grant) => permissionsOfRoles([grant.role]).has('Mapi.Beneficiary.Read'));
  if (grants.some((grant) => grant.level === 'root')) return undefined;
  const partnerIds = grants
    .filter((grant) => grant.level === 'partner')
    .map((grant) => grant.partnerId)
    .filter((id): id is string => id !== null);
  const businessIds = grants
    .filter((grant) => grant.level === 'business')
    .map((grant) => grant.businessId)
    .filter((id): id is string => id !== null);
  if (partnerIds.length + businessIds.length === 0) return null;
  return (
    or(
      partnerIds.length > 0 ? inArray(businesses.partnerId, partnerIds) : undefined,
      businessIds.length > 0 ? inArray(b.businessId, businessIds) : undefined,
    ) ?? sql`false`
  );
}

export function beneficiaryApprovalRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  // The resource's whitelist matches its spec (checked once, with a clock value that is never used for a query).
  assertResourceMatchesSpec(approvalResource(db, new Date(0)));

  routes.get('/beneficiary-approvals', async (c) => {
    const principal = c.get('principal');
    const scope = approvalScope(principal);
    if (scope === null) throw forbidden();
    const query = parseListRequest(singleValuedQuery(c), beneficiaryApprovalListSpec);
    const at = now();
    const resource = approvalResource(db, at);
    const sort = query.sort[0] ?? { field: 'age', descending: true };
    const pending = and(eq(b.status, pendingApprovalStatus), scope);
    const where = and(pending, filterCondition(resource, query.filters, c.get('timeZone')));
    const [rows, [total], choices] = await Promise.all([
      db
        .select({ beneficiary: b, businessName: businesses.name, givenName: users.givenName, familyName: users.familyName })
        .from(b)
        .innerJoin(businesses, eq(businesses.id, b.businessId))
        .leftJoin(users, eq(users.id, b.createdBy))
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(resource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(b).innerJoin(businesses, eq(businesses.id, b.businessId)).where(where),
      // The filter's choices ignore the filters: a business stays pickable after another is picked.
      db
        .select({ businessId: businesses.id, businessName: businesses.name, pending: count() })
        .from(b)
        .innerJoin(businesses, eq(businesses.id, b.businessId))
        .where(pending)
        .groupBy(businesses.id, businesses.name)
        .orderBy(asc(sql`lower(${businesses.name})`), asc(businesses.id))
        .limit(businessChoicesLimit),
    ]);
    const ids = rows.map((row) => row.beneficiary.id);
    const open =
      ids.length === 0
        ? []
        : await db
            .select({ id: a.beneficiaryId, value: count() })
            .from(a)
            .where(and(inArray(a.beneficiaryId, ids), eq(a.status, 'open')))
            .groupBy(a.beneficiaryId);
    const openOf = new Map(open.map((row) => [row.id, Number(row.value)]));
    const results: BeneficiaryApproval[] = rows.map(({ beneficiary: row, businessName, givenName, familyName }) => ({
      beneficiaryId: row.id,
      name: displayName(row),
      kind: row.kind,
      businessId: row.businessId,
      businessName,
      createdUtc: row.createdUtc.toISOString(),
      createdBy: givenName ? `${givenName} ${familyName ?? ''}`.trim() : row.createdBy,
      ageDays: Math.max(0, Math.floor((at.getTime() - row.createdUtc.getTime()) / day)),
      openAlerts: openOf.get(row.id) ?? 0,
      status: row.status,
      changedByCaller: row.createdBy === principal.userId || row.lastChangedBy === principal.userId,
    }));
    return c.json({
      results,
      numberOfResults: Number(total?.value ?? 0),
      businesses: choices.map((choice) => ({ businessId: choice.businessId, businessName: choice.businessName, pending: Number(choice.pending) })),
    });
  });

  return routes;
}
