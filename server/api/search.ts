// GET /search?term=: the palette's record look-up over transactions, payment jobs, businesses and merchants
// the caller may see. References match exactly (case-insensitive); names and ids match as substrings.
import { type } from 'arktype';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { businesses, merchants, paymentJobs, transactions } from '../db/schema.ts';
import { isInternal, scopeCondition } from '../policy/principal.ts';
import type { AppEnv, Deps } from './env.ts';
import { badRequest } from './errors.ts';

const searchQuery = type({ term: '0 < string <= 100', '+': 'reject' });
const perKind = 5;

export type SearchResult = {
  kind: 'transaction' | 'paymentJob' | 'business' | 'merchant';
  id: string;
  title: string;
  description: string;
  path: string;
  context: { business?: { id: string; title: string }; merchant?: { id: string; title: string } };
};

function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function searchRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  routes.get('/search', async (c) => {
    const parsed = searchQuery(c.req.query());
    if (parsed instanceof type.errors) throw badRequest(parsed.map((error) => error.message));
    const term = parsed.term.trim();
    const principal = c.get('principal');
    const pattern = likePattern(term);
    const results: SearchResult[] = [];

    // Businesses and merchants: the same trigram-indexed expression as the context search.
    const visibleBusinessIds = [...principal.businessIds, ...principal.partnerBusinessIds];
    const businessScope = isInternal(principal) ? undefined : visibleBusinessIds.length > 0 ? inArray(businesses.id, visibleBusinessIds) : sql`false`;
    const businessRows = await db.select().from(businesses)
      .where(and(sql`(lower(${businesses.name}) || ' ' || lower(${businesses.id})) LIKE ${pattern}`, businessScope))
      .orderBy(asc(businesses.name)).limit(perKind);
    for (const business of businessRows) {
      results.push({ kind: 'business', id: business.id, title: business.name, description: `Business ${business.id}`, path: `/business/${business.id}`, context: { business: { id: business.id, title: business.name } } });
    }
    const merchantRows = await db.select({ merchant: merchants, businessName: businesses.name }).from(merchants)
      .innerJoin(businesses, eq(businesses.id, merchants.businessId))
      .where(and(sql`(lower(${merchants.name}) || ' ' || lower(${merchants.id})) LIKE ${pattern}`, scopeCondition(principal, { businessId: merchants.businessId, merchantId: merchants.id })))
      .orderBy(asc(merchants.name)).limit(perKind);
    for (const { merchant, businessName } of merchantRows) {
      results.push({
        kind: 'merchant', id: merchant.id, title: merchant.name, description: `Merchant ${merchant.id} of ${businessName}`,
        path: `/business/${merchant.businessId}/merchants/${merchant.id}`,
        context: { business: { id: merchant.businessId, title: businessName }, merchant: { id: merchant.id, title: merchant.name } },
      });
    }

    // References are opaque and upper-case; only a plausible reference is looked up (primary-key probes).
    if (/^[A-Za-z0-9-]{4,40}$/.test(term)) {
      const reference = term.toUpperCase();
      const transactionRows = await db.select({ row: transactions, merchantName: merchants.name, businessName: businesses.name }).from(transactions)
        .innerJoin(merchants, eq(merchants.id, transactions.merchantId)).innerJoin(businesses, eq(businesses.id, transactions.businessId))
        .where(and(eq(transactions.reference, reference), scopeCondition(principal, transactions)));
      for (const { row, merchantName, businessName } of transactionRows) {
        results.push({
          kind: 'transaction', id: row.reference, title: `Transaction ${row.reference}`, description: `${row.status} · ${row.currency} ${(row.amountMinor / 100).toFixed(2)} · ${merchantName}`,
          path: `/transactions/${row.reference}`,
          context: { business: { id: row.businessId, title: businessName }, merchant: { id: row.merchantId, title: merchantName } },
        });
      }
      const jobRows = await db.select({ row: paymentJobs, merchantName: merchants.name, businessName: businesses.name }).from(paymentJobs)
        .innerJoin(merchants, eq(merchants.id, paymentJobs.merchantId)).innerJoin(businesses, eq(businesses.id, paymentJobs.businessId))
        .where(and(or(eq(paymentJobs.reference, reference), eq(paymentJobs.orderNumber, term), eq(paymentJobs.orderNumber, reference)), scopeCondition(principal, paymentJobs))).limit(perKind);
      for (const { row, merchantName, businessName } of jobRows) {
        results.push({
          kind: 'paymentJob', id: row.reference, title: `Payment job ${row.reference}`, description: `Order ${row.orderNumber} · ${row.status} · ${merchantName}`,
          path: `/configurations/${row.configurationId}/payments/${row.reference}`,
          context: { business: { id: row.businessId, title: businessName }, merchant: { id: row.merchantId, title: merchantName } },
        });
      }
    }
    return c.json({ results });
  });
  return routes;
}
