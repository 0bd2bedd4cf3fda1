// The working context a record belongs to, for a link that names a record (a transaction, a payment job, a support
// ticket) opened without a context: the shell applies the record's business and merchant (and the payment job's
// configuration) instead of asking the person to pick one first.
//
// | method | path                                                                      | who                                      | answer |
// |--------|---------------------------------------------------------------------------|------------------------------------------|--------|
// | GET    | /context/records/transactions/{reference}                                 | Mapi.Transactions.Read where it belongs  | { business, merchant?, configuration? } |
// | GET    | /context/records/configurations/{configurationId}/payment-jobs/{reference}| Portal.PaymentJobs.Read where it belongs | { business, merchant, configuration } |
// | GET    | /context/records/tickets/{ticketId}                                       | Portal.Tickets.Read where it belongs     | { business, merchant? } |
//
// The permission is read in the record's own context (its partner, business and merchant), as the record's own
// screen reads it. A record the caller may not read answers 404 exactly like one that does not exist (no 403:
// existence is not revealed). The paths mirror the screens' own paths (/transactions/{reference},
// /configurations/{configurationId}/payments/{reference}, /tickets/{ticketId}).
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { RecordContext } from '../../src/contract/context-responses.ts';
import { businesses, configurations, merchants, paymentJobs, tickets, transactions } from '../db/schema.ts';
import { permissionsIn, type Principal } from '../policy/principal.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { notFound } from '../http/errors.ts';

const maxIdLength = 64;

function idParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  // Longer or empty ids cannot exist: 404 without a query.
  if (value === '' || value.length > maxIdLength) throw notFound();
  return value;
}

type Owner = { businessId: string; merchantId: string | null; configurationId: string | null };

export function recordContextRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  /** The record's context as the caller may see it, or 404 (no such record, or not readable there). */
  async function contextOf(principal: Principal, owner: Owner | undefined, permission: PermissionName): Promise<RecordContext> {
    if (!owner) throw notFound();
    const [business] = await db
      .select({ id: businesses.id, name: businesses.name, partnerId: businesses.partnerId })
      .from(businesses)
      .where(eq(businesses.id, owner.businessId))
      .limit(1);
    if (!business) throw notFound();
    const granted = permissionsIn(principal, { partnerId: business.partnerId, businessId: business.id, merchantId: owner.merchantId });
    if (!granted.has(permission)) throw notFound();
    const answer: RecordContext = { business: { id: business.id, title: business.name } };
    if (owner.merchantId) {
      const [merchant] = await db
        .select({ id: merchants.id, name: merchants.name })
        .from(merchants)
        .where(and(eq(merchants.id, owner.merchantId), eq(merchants.businessId, business.id)))
        .limit(1);
      if (!merchant) throw notFound();
      answer.merchant = { id: merchant.id, title: merchant.name };
    }
    if (owner.configurationId && owner.merchantId) {
      const [configuration] = await db
        .select({ id: configurations.id, tradeName: configurations.tradeName, switches: configurations.switches })
        .from(configurations)
        .where(and(eq(configurations.id, owner.configurationId), eq(configurations.merchantId, owner.merchantId)))
        .limit(1);
      if (configuration) answer.configuration = { id: configuration.id, title: configuration.tradeName, switches: { ...configuration.switches } };
    }
    return answer;
  }

  routes.get('/context/records/transactions/:reference', async (c) => {
    const reference = idParam(c, 'reference');
    const [owner] = await db
      .select({ businessId: transactions.businessId, merchantId: transactions.merchantId, configurationId: transactions.configurationId })
      .from(transactions)
      .where(eq(transactions.reference, reference))
      .limit(1);
    return c.json(await contextOf(c.get('principal'), owner, 'Mapi.Transactions.Read'));
  });

  routes.get('/context/records/configurations/:configurationId/payment-jobs/:paymentJobReference', async (c) => {
    const configurationId = idParam(c, 'configurationId');
    const reference = idParam(c, 'paymentJobReference');
    // The job must be of the configuration its link names: a link mixing two records opens neither.
    const [owner] = await db
      .select({ businessId: paymentJobs.businessId, merchantId: paymentJobs.merchantId, configurationId: paymentJobs.configurationId })
      .from(paymentJobs)
      .where(and(eq(paymentJobs.reference, reference), eq(paymentJobs.configurationId, configurationId)))
      .limit(1);
    return c.json(await contextOf(c.get('principal'), owner, 'Portal.PaymentJobs.Read'));
  });

  routes.get('/context/records/tickets/:ticketId', async (c) => {
    const ticketId = idParam(c, 'ticketId');
    const [owner] = await db.select({ businessId: tickets.businessId, merchantId: tickets.merchantId }).from(tickets).where(eq(tickets.id, ticketId)).limit(1);
    return c.json(await contextOf(c.get('principal'), owner ? { ...owner, configurationId: null } : undefined, 'Portal.Tickets.Read'));
  });

  return routes;
}
