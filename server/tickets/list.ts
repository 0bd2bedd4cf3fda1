// The support tickets overview's list: tickets with the names shown beside them (ticketRows), the whitelist of filters
// and sorts (ticketResource) and the scope of an addressed context (ticketScopeWhere). The routes
// (server/api/tickets.ts), the bulk jobs (server/bulk/areas.ts) and the tickets export (server/reports/area-exports.ts)
// read from here.
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FilterClause } from '../../src/contract/list-query.ts';
import { ticketListSpec } from '../../src/contract/tickets.ts';
import type { Db } from '../db/client.ts';
import { businesses, merchants, tickets, users } from '../db/schema.ts';
import { assertResourceMatchesSpec, likeLiteral, type ListResource } from '../http/list-sql.ts';
import { updatedByRequester } from './replies.ts';

const t = tickets;
const creator = alias(users, 'ticket_creator');
const assignee = alias(users, 'ticket_assignee');

/** Tickets with their business, merchant, creator and assignee names, as the list and the export read them. */
export function ticketRows(db: Db) {
  return db
    .select({
      ticket: t,
      partnerId: businesses.partnerId,
      businessName: businesses.name,
      merchantName: merchants.name,
      creator: { id: creator.id, givenName: creator.givenName, familyName: creator.familyName },
      assignee: { id: assignee.id, givenName: assignee.givenName, familyName: assignee.familyName },
    })
    .from(t)
    .innerJoin(businesses, eq(businesses.id, t.businessId))
    .leftJoin(merchants, eq(merchants.id, t.merchantId))
    .leftJoin(creator, eq(creator.id, t.createdBy))
    .leftJoin(assignee, eq(assignee.id, t.assigneeId));
}

// ---------------------------------------------------------------------------------------------------
// The list's whitelist

const priorityRank = sql`CASE ${t.priority} WHEN 'High' THEN 3 WHEN 'Medium' THEN 2 WHEN 'Low' THEN 1 ELSE 0 END`;
const statusRank = sql`CASE ${t.status} WHEN 'Open' THEN 0 WHEN 'InProgress' THEN 1 WHEN 'OnHold' THEN 2 ELSE 3 END`;

function assigneeCondition(clauses: FilterClause[]): SQL | undefined {
  const values = clauses.filter((clause) => clause.operator === 'eq').map((clause) => clause.value);
  if (values.length === 0) return undefined;
  const ids = values.filter((value) => value.toLowerCase() !== 'none');
  return or(values.length > ids.length ? isNull(t.assigneeId) : undefined, ids.length > 0 ? inArray(t.assigneeId, ids) : undefined);
}

function searchCondition(clauses: FilterClause[]): SQL | undefined {
  const term = clauses.find((clause) => clause.operator === 'eq')?.value.trim();
  if (!term) return undefined;
  const pattern = `%${likeLiteral(term.toLowerCase())}%`;
  return or(sql`lower(${t.subject}) LIKE ${pattern}`, sql`lower(${t.id}) LIKE ${pattern}`);
}

export const ticketResource: ListResource = {
  spec: ticketListSpec,
  filters: {
    status: { type: 'equals', column: t.status },
    type: { type: 'equals', column: t.type },
    priority: { type: 'equals', column: t.priority },
    assignee: { type: 'custom', condition: (clauses) => assigneeCondition(clauses) },
    createdutc: { type: 'date', column: t.createdUtc },
    lastupdatedutc: { type: 'date', column: t.lastUpdatedUtc },
    searchterm: { type: 'custom', condition: (clauses) => searchCondition(clauses) },
    updatedbyrequester: { type: 'custom', condition: (clauses) => (clauses.some((clause) => clause.value === 'true') ? updatedByRequester : undefined) },
  },
  sorts: {
    createdUtc: [
      { expression: t.createdUtc, descending: false },
      { expression: t.id, descending: false },
    ],
    lastUpdatedUtc: [
      { expression: t.lastUpdatedUtc, descending: false },
      { expression: t.id, descending: false },
    ],
    priority: [
      { expression: priorityRank, descending: false },
      { expression: t.lastUpdatedUtc, descending: true, fixedDirection: true },
      { expression: t.id, descending: false },
    ],
    status: [
      { expression: statusRank, descending: false },
      { expression: t.lastUpdatedUtc, descending: true, fixedDirection: true },
      { expression: t.id, descending: false },
    ],
    subject: [
      { expression: sql`lower(${t.subject})`, descending: false },
      { expression: t.id, descending: false },
    ],
  },
};
assertResourceMatchesSpec(ticketResource);

// ---------------------------------------------------------------------------------------------------
// Scope

export type TicketScope =
  | { level: 'all' }
  | { level: 'business'; businessId: string }
  | { level: 'merchant'; businessId: string; merchantId: string }
  | { level: 'grants'; partnerIds: string[]; businessIds: string[]; merchantIds: string[] };

export function ticketScopeWhere(db: Db, scope: TicketScope): SQL | undefined {
  switch (scope.level) {
    case 'all':
      return undefined;
    case 'business':
      return eq(t.businessId, scope.businessId);
    case 'merchant':
      return and(eq(t.businessId, scope.businessId), eq(t.merchantId, scope.merchantId));
    case 'grants':
      return (
        or(
          scope.partnerIds.length > 0
            ? inArray(t.businessId, db.select({ id: businesses.id }).from(businesses).where(inArray(businesses.partnerId, scope.partnerIds)))
            : undefined,
          scope.businessIds.length > 0 ? inArray(t.businessId, scope.businessIds) : undefined,
          scope.merchantIds.length > 0 ? inArray(t.merchantId, scope.merchantIds) : undefined,
        ) ?? sql`false`
      );
  }
}
