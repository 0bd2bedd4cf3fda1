// Configurations of a merchant, their payment-method settings and their hosted payment pages.
// {m} = /businesses/{businessId}/merchants/{merchantId}
//
// | method | path                                        | permission                 | answer                                        |
// |--------|---------------------------------------------|----------------------------|-----------------------------------------------|
// | GET    | {m}/configurations                          | Mapi.Configurations.Read   | { results, numberOfResults } (sort tradeName, |
// |        |                                             |                            | configurationId; filter tradename)            |
// | POST   | {m}/configurations                          | Mapi.Configurations.Update | 201 detail (version 1)                        |
// | GET    | {m}/configurations/{id}                     | Mapi.Configurations.Read   | detail: switches, version, hostedPages,       |
// |        |                                             |                            | paymentMethods [{ paymentMethod, configuration }] |
// | PUT    | {m}/configurations/{id}                     | Mapi.Configurations.Update | detail; body carries the version read         |
// | DELETE | {m}/configurations/{id}?version=n           | Mapi.Configurations.Update | 204; refused (400) while it has payment jobs  |
// | GET    | {m}/configurations/{id}/{paymentmethod}     | Mapi.Configurations.Read   | the method's settings and the version         |
// | PUT    | {m}/configurations/{id}/{paymentmethod}     | Mapi.Configurations.Update | the same after saving                         |
// | GET    | {m}/hosted-pages[?configurationid=…]        | Mapi.Configurations.Read   | { results, numberOfResults }                  |
// | GET    | {m}/hosted-pages/{ref}                      | Mapi.Configurations.Read   | the page with its configuration's version     |
// | POST   | {m}/hosted-pages                            | Mapi.Configurations.Update | 201 the page; body: configurationId, version  |
// | PUT    | {m}/hosted-pages/{ref}                      | Mapi.Configurations.Update | the page                                      |
// | DELETE | {m}/hosted-pages/{ref}?version=n            | Mapi.Configurations.Update | 204                                           |
// {paymentmethod} is a payment method's name lower-cased (creditcard-style: card, ideal, paypal, klarnapaylater…).
//
// The shared version (spec): a configuration, its payment-method settings and its hosted pages share the
// configuration's version. Every write sends the version it read; the write raises it by one in the same database
// transaction; a stale version answers 409 'Someone updated this view' and changes nothing. A merchant the caller
// cannot reach, and a configuration or page of another merchant, answer 404. Every write is audited.
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import {
  configurationCreateBody,
  configurationUpdateBody,
  hostedPageCreateBody,
  hostedPageUpdateBody,
  paymentMethodUpdateBody,
  configurationList as configurationListSchema,
  type ConfigurationDetail,
  type ConfigurationListItem,
  type HostedPageAnswer,
  type PaymentMethodAnswer,
  type PaymentMethodSettings,
} from '../../src/contract/configuration-schemas.ts';
import {
  amountScaleFactor,
  cardLikeMethods,
  checkConfigurationEdit,
  checkHostedPage,
  checkPaymentMethodEdit,
  configurationListSpec,
  defaultConfigurationSwitches,
  paymentMethodLabels,
  paymentMethodPathNames,
  paymentMethodPathPattern,
  type HostedPageDesign,
} from '../../src/contract/configurations.ts';
import { paymentMethods, type PaymentMethod } from '../../src/contract/enumerations.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { Db } from '../db/client.ts';
import { configurationPaymentMethods, configurations, hostedPages, images, paymentJobs } from '../db/schema.ts';
import { resolveContext } from '../policy/principal.ts';
import { recordAudit, type AuditPlace } from '../audit/record.ts';
import type { Principal } from '../policy/principal.ts';
import { recordEvent } from '../events/event-bus.ts';
import { idParam } from './businesses.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { ContextList } from '../http/context-list.ts';
import { likeLiteral, singleValuedQuery, type ListResource } from '../http/list-sql.ts';
import { assertResourceMatchesSpec } from '../http/list-sql.ts';

const merchantPath = '/businesses/:businessId/merchants/:merchantId';

export const configurationResource: ListResource = {
  spec: configurationListSpec,
  filters: {
    tradename: {
      type: 'custom',
      condition: (clauses) => {
        const term = clauses[0]?.value.trim();
        return term ? sql`lower(${configurations.tradeName}) LIKE ${`%${likeLiteral(term.toLowerCase())}%`}` : undefined;
      },
    },
  },
  sorts: {
    tradeName: [
      { expression: configurations.tradeName, descending: false },
      { expression: configurations.id, descending: false },
    ],
    configurationId: [{ expression: configurations.id, descending: false }],
  },
};
assertResourceMatchesSpec(configurationResource);

type ConfigurationRow = typeof configurations.$inferSelect;
type MethodRow = typeof configurationPaymentMethods.$inferSelect;

/** A method without a saved row: switched off, named as the enumeration labels it, 3-D Secure always for cards. */
export function defaultMethodSettings(method: PaymentMethod, merchantCurrencies: readonly string[]): PaymentMethodSettings {
  return {
    paymentMethod: method,
    enabled: false,
    displayName: paymentMethodLabels[method],
    threeDSecurePolicy: cardLikeMethods.includes(method) ? 'always' : null,
    minimumAmount: null,
    maximumAmount: null,
    currencies: [...merchantCurrencies],
  };
}

function methodSettingsOf(row: MethodRow): PaymentMethodSettings {
  return {
    paymentMethod: row.paymentMethod as PaymentMethod,
    enabled: row.enabled,
    displayName: row.displayName,
    threeDSecurePolicy: row.threeDSecurePolicy,
    minimumAmount: row.minimumAmountMilli === null ? null : row.minimumAmountMilli / amountScaleFactor,
    maximumAmount: row.maximumAmountMilli === null ? null : row.maximumAmountMilli / amountScaleFactor,
    currencies: row.currencies,
  };
}

function switchesOf(row: ConfigurationRow) {
  return { ...defaultConfigurationSwitches, ...row.switches };
}

/** The version a DELETE names in its query (?version=N): 400 when missing or malformed. */
export function versionParam(c: Context<AppEnv>): number {
  const raw = c.req.query('version');
  if (raw === undefined) throw badRequest('version is required');
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest('version is invalid');
  return Number(raw);
}

/** The shared version rule: raises the configuration's version if it still is `version`, else 409 (or 404 if gone). */
export async function raiseVersion(tx: Db, configurationId: string, version: number): Promise<number> {
  const [row] = await tx
    .update(configurations)
    .set({ version: sql`${configurations.version} + 1` })
    .where(and(eq(configurations.id, configurationId), eq(configurations.version, version)))
    .returning({ version: configurations.version });
  if (row) return row.version;
  const [exists] = await tx.select({ id: configurations.id }).from(configurations).where(eq(configurations.id, configurationId));
  throw exists ? conflict() : notFound();
}

const newReference = (prefix: string) => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

function hostedPageAnswerOf(row: typeof hostedPages.$inferSelect, version: number): HostedPageAnswer {
  return {
    reference: row.reference,
    configurationId: row.configurationId,
    name: row.name,
    design: row.design as HostedPageAnswer['design'],
    version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A configuration's writes (its payment methods and hosted pages share its version) are audited and announced. */
async function auditConfiguration(
  tx: Db,
  principal: Principal,
  event: string,
  place: AuditPlace & { merchantId: string },
  metaData: Record<string, unknown> & { configurationId: string },
): Promise<void> {
  await recordAudit(tx, principal, event, place, metaData);
  await recordEvent(tx, 'record', {
    resource: 'configuration',
    resourceId: metaData.configurationId,
    businessId: place.businessId,
    merchantId: place.merchantId,
  });
}

/** A merchant's configurations (its calls come from this declaration, server/http/context-list.ts). */
export const configurationList: ContextList<ConfigurationListItem> = {
  path: 'configurations',
  contexts: ['merchant'],
  permission: 'Mapi.Configurations.Read',
  resource: configurationResource,
  within: (scope) => (scope.kind === 'merchant' ? eq(configurations.merchantId, scope.merchantId) : sql`false`),
  rows: async (db, page) => {
    const rows = await db
      .select()
      .from(configurations)
      .where(page.where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset);
    const ids = rows.map((row) => row.id);
    const enabled =
      ids.length === 0
        ? []
        : await db
            .select({ configurationId: configurationPaymentMethods.configurationId, paymentMethod: configurationPaymentMethods.paymentMethod })
            .from(configurationPaymentMethods)
            .where(and(inArray(configurationPaymentMethods.configurationId, ids), eq(configurationPaymentMethods.enabled, true)));
    const pageCounts =
      ids.length === 0
        ? []
        : await db
            .select({ configurationId: hostedPages.configurationId, value: count() })
            .from(hostedPages)
            .where(inArray(hostedPages.configurationId, ids))
            .groupBy(hostedPages.configurationId);
    return rows.map((row) => ({
      configurationId: row.id,
      tradeName: row.tradeName,
      description: row.description,
      switches: switchesOf(row),
      version: row.version,
      enabledPaymentMethods: paymentMethods.filter((method) => enabled.some((entry) => entry.configurationId === row.id && entry.paymentMethod === method)),
      hostedPageCount: pageCounts.find((entry) => entry.configurationId === row.id)?.value ?? 0,
    }));
  },
  count: async (db, where) => (await db.select({ value: count() }).from(configurations).where(where))[0]?.value ?? 0,
  openApi: { tag: 'Configurations', summaries: { merchant: 'Configurations of a merchant' }, response: configurationListSchema },
};

export function configurationRoutes({ database }: Deps) {
  const routes = new Hono<AppEnv>();
  const { db } = database;

  async function reachMerchant(c: Context<AppEnv>, permission: PermissionName) {
    const resolved = await resolveContext(database, c.get('principal'), idParam(c, 'businessId'), idParam(c, 'merchantId'));
    if (!resolved?.merchant) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { business: resolved.business, merchant: resolved.merchant };
  }

  async function findConfiguration(tx: Db, merchantId: string, configurationId: string): Promise<ConfigurationRow> {
    if (configurationId === '' || configurationId.length > 64) throw notFound();
    const [row] = await tx
      .select()
      .from(configurations)
      .where(and(eq(configurations.id, configurationId), eq(configurations.merchantId, merchantId)));
    if (!row) throw notFound();
    return row;
  }

  async function detailOf(tx: Db, row: ConfigurationRow, merchantCurrencies: readonly string[]): Promise<ConfigurationDetail> {
    const saved = await tx.select().from(configurationPaymentMethods).where(eq(configurationPaymentMethods.configurationId, row.id));
    const pages = await tx
      .select({ reference: hostedPages.reference, name: hostedPages.name, updatedAt: hostedPages.updatedAt })
      .from(hostedPages)
      .where(eq(hostedPages.configurationId, row.id))
      .orderBy(asc(hostedPages.name), asc(hostedPages.reference));
    return {
      configurationId: row.id,
      businessId: row.businessId,
      merchantId: row.merchantId,
      tradeName: row.tradeName,
      description: row.description,
      switches: switchesOf(row),
      version: row.version,
      hostedPages: pages.map((page) => ({ ...page, updatedAt: page.updatedAt.toISOString() })),
      paymentMethods: paymentMethods.map((method) => {
        const found = saved.find((candidate) => candidate.paymentMethod === method);
        return { paymentMethod: method, configuration: found ? methodSettingsOf(found) : defaultMethodSettings(method, merchantCurrencies) };
      }),
    };
  }

  // ── configurations ──
  routes.post(`${merchantPath}/configurations`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const body = await readBody(c, configurationCreateBody);
    const edit = { tradeName: body.tradeName.trim(), description: body.description.trim() };
    const problems = Object.values(checkConfigurationEdit(edit));
    if (problems.length > 0) throw badRequest(problems);
    const methods = [...new Set(body.paymentMethods ?? [])];
    const detail = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(configurations)
        .values({
          id: newReference('CFG'),
          merchantId: merchant.id,
          businessId: business.id,
          tradeName: edit.tradeName,
          description: edit.description,
          switches: { ...defaultConfigurationSwitches, ...body.switches },
          version: 1,
        })
        .returning();
      if (!row) throw new Error('configuration insert returned nothing');
      if (methods.length > 0) {
        await tx.insert(configurationPaymentMethods).values(
          methods.map((method) => {
            const settings = defaultMethodSettings(method, merchant.currencies);
            return {
              configurationId: row.id,
              paymentMethod: method,
              enabled: true,
              displayName: settings.displayName,
              threeDSecurePolicy: settings.threeDSecurePolicy,
              currencies: settings.currencies,
            };
          }),
        );
      }
      await auditConfiguration(
        tx,
        c.get('principal'),
        'ConfigurationCreated',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: row.id,
          tradeName: row.tradeName,
          paymentMethods: methods,
        },
      );
      return detailOf(tx, row, merchant.currencies);
    });
    return c.json(detail, 201);
  });

  routes.get(`${merchantPath}/configurations/:configurationId`, async (c) => {
    const { merchant } = await reachMerchant(c, 'Mapi.Configurations.Read');
    const row = await findConfiguration(db, merchant.id, c.req.param('configurationId') ?? '');
    return c.json(await detailOf(db, row, merchant.currencies));
  });

  routes.put(`${merchantPath}/configurations/:configurationId`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const existing = await findConfiguration(db, merchant.id, c.req.param('configurationId') ?? '');
    const body = await readBody(c, configurationUpdateBody);
    const edit = { tradeName: body.tradeName.trim(), description: body.description.trim() };
    const problems = Object.values(checkConfigurationEdit(edit));
    if (problems.length > 0) throw badRequest(problems);
    const detail = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(configurations)
        .set({
          tradeName: edit.tradeName,
          description: edit.description,
          switches: { ...switchesOf(existing), ...body.switches },
          version: sql`${configurations.version} + 1`,
        })
        .where(and(eq(configurations.id, existing.id), eq(configurations.version, body.version)))
        .returning();
      if (!row) {
        const [still] = await tx.select({ id: configurations.id }).from(configurations).where(eq(configurations.id, existing.id));
        throw still ? conflict() : notFound();
      }
      await auditConfiguration(
        tx,
        c.get('principal'),
        'ConfigurationUpdated',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: row.id,
          before: { tradeName: existing.tradeName, description: existing.description, switches: existing.switches },
          after: { ...edit, switches: row.switches },
          version: row.version,
        },
      );
      return detailOf(tx, row, merchant.currencies);
    });
    return c.json(detail);
  });

  routes.delete(`${merchantPath}/configurations/:configurationId`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const existing = await findConfiguration(db, merchant.id, c.req.param('configurationId') ?? '');
    const version = versionParam(c);
    const [job] = await db
      .select({ reference: paymentJobs.reference })
      .from(paymentJobs)
      .where(and(eq(paymentJobs.merchantId, merchant.id), eq(paymentJobs.configurationId, existing.id)))
      .limit(1);
    if (job) throw badRequest('This configuration has payments and cannot be deleted. Switch its payment methods off instead.');
    await db.transaction(async (tx) => {
      const [row] = await tx
        .delete(configurations)
        .where(and(eq(configurations.id, existing.id), eq(configurations.version, version)))
        .returning({ id: configurations.id });
      if (!row) {
        const [still] = await tx.select({ id: configurations.id }).from(configurations).where(eq(configurations.id, existing.id));
        throw still ? conflict() : notFound();
      }
      // Its images stay in the file store until the sweeper of unreferenced images (not built) or a DELETE removes them.
      await tx.update(images).set({ configurationId: null }).where(eq(images.configurationId, existing.id));
      await auditConfiguration(
        tx,
        c.get('principal'),
        'ConfigurationDeleted',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: existing.id,
          tradeName: existing.tradeName,
          version,
        },
      );
    });
    return c.body(null, 204);
  });

  // ── hosted pages (registered before the payment-method routes: 'hosted-pages' is no payment method anyway) ──
  routes.get(`${merchantPath}/hosted-pages`, async (c) => {
    const { merchant } = await reachMerchant(c, 'Mapi.Configurations.Read');
    const params = singleValuedQuery(c);
    const unknown = Object.keys(params).filter((name) => name.toLowerCase() !== 'configurationid');
    if (unknown.length > 0) throw badRequest(unknown.map((name) => `'${name.slice(0, 40)}' is not a parameter of this list`));
    const configurationId = Object.entries(params).find(([name]) => name.toLowerCase() === 'configurationid')?.[1];
    const rows = await db
      .select({ page: hostedPages, version: configurations.version })
      .from(hostedPages)
      .innerJoin(configurations, eq(configurations.id, hostedPages.configurationId))
      .where(and(eq(hostedPages.merchantId, merchant.id), configurationId !== undefined ? eq(hostedPages.configurationId, configurationId) : undefined))
      .orderBy(asc(hostedPages.name), asc(hostedPages.reference))
      .limit(500);
    return c.json({ results: rows.map((row) => hostedPageAnswerOf(row.page, row.version)), numberOfResults: rows.length });
  });

  async function findHostedPage(tx: Db, merchantId: string, reference: string) {
    if (reference === '' || reference.length > 64) throw notFound();
    const [row] = await tx
      .select({ page: hostedPages, version: configurations.version })
      .from(hostedPages)
      .innerJoin(configurations, eq(configurations.id, hostedPages.configurationId))
      .where(and(eq(hostedPages.reference, reference), eq(hostedPages.merchantId, merchantId)));
    if (!row) throw notFound();
    return row;
  }

  async function checkLogo(tx: Db, design: HostedPageDesign, businessId: string): Promise<void> {
    if (design.logoImageReference === null) return;
    const [image] = await tx
      .select({ reference: images.reference })
      .from(images)
      .where(and(eq(images.reference, design.logoImageReference), eq(images.businessId, businessId)));
    if (!image) throw badRequest('Logo is invalid');
  }

  routes.get(`${merchantPath}/hosted-pages/:reference`, async (c) => {
    const { merchant } = await reachMerchant(c, 'Mapi.Configurations.Read');
    const row = await findHostedPage(db, merchant.id, c.req.param('reference'));
    return c.json(hostedPageAnswerOf(row.page, row.version));
  });

  routes.post(`${merchantPath}/hosted-pages`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const body = await readBody(c, hostedPageCreateBody);
    const configuration = await findConfiguration(db, merchant.id, body.configurationId);
    const design = body.design as HostedPageDesign;
    const problems = Object.values(checkHostedPage(body.name.trim(), design));
    if (problems.length > 0) throw badRequest(problems);
    const answer = await db.transaction(async (tx) => {
      await checkLogo(tx, design, business.id);
      const version = await raiseVersion(tx, configuration.id, body.version);
      const [row] = await tx
        .insert(hostedPages)
        .values({
          reference: newReference('HPP'),
          configurationId: configuration.id,
          businessId: business.id,
          merchantId: merchant.id,
          name: body.name.trim(),
          design,
        })
        .returning();
      if (!row) throw new Error('hosted page insert returned nothing');
      await auditConfiguration(
        tx,
        c.get('principal'),
        'HostedPageCreated',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: configuration.id,
          reference: row.reference,
          version,
        },
      );
      return hostedPageAnswerOf(row, version);
    });
    return c.json(answer, 201);
  });

  routes.put(`${merchantPath}/hosted-pages/:reference`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const existing = await findHostedPage(db, merchant.id, c.req.param('reference'));
    const body = await readBody(c, hostedPageUpdateBody);
    const design = body.design as HostedPageDesign;
    const problems = Object.values(checkHostedPage(body.name.trim(), design));
    if (problems.length > 0) throw badRequest(problems);
    const answer = await db.transaction(async (tx) => {
      await checkLogo(tx, design, business.id);
      const version = await raiseVersion(tx, existing.page.configurationId, body.version);
      const [row] = await tx
        .update(hostedPages)
        .set({ name: body.name.trim(), design, updatedAt: new Date() })
        .where(eq(hostedPages.reference, existing.page.reference))
        .returning();
      if (!row) throw notFound();
      await auditConfiguration(
        tx,
        c.get('principal'),
        'HostedPageUpdated',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: row.configurationId,
          reference: row.reference,
          version,
        },
      );
      return hostedPageAnswerOf(row, version);
    });
    return c.json(answer);
  });

  routes.delete(`${merchantPath}/hosted-pages/:reference`, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const existing = await findHostedPage(db, merchant.id, c.req.param('reference'));
    const version = versionParam(c);
    await db.transaction(async (tx) => {
      const raised = await raiseVersion(tx, existing.page.configurationId, version);
      await tx.delete(hostedPages).where(eq(hostedPages.reference, existing.page.reference));
      await auditConfiguration(
        tx,
        c.get('principal'),
        'HostedPageDeleted',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: existing.page.configurationId,
          reference: existing.page.reference,
          version: raised,
        },
      );
    });
    return c.body(null, 204);
  });

  // ── payment-method settings (the method's lower-cased name; anything else is no route here) ──
  const methodPath = `${merchantPath}/configurations/:configurationId/:paymentMethod{(?:${paymentMethodPathPattern})}`;
  const methodOf = (c: Context<AppEnv>): PaymentMethod => {
    const method = paymentMethodPathNames[c.req.param('paymentMethod') ?? ''];
    if (!method) throw notFound();
    return method;
  };

  async function methodAnswer(
    tx: Db,
    configuration: ConfigurationRow,
    method: PaymentMethod,
    currencies: readonly string[],
    version: number,
  ): Promise<PaymentMethodAnswer> {
    const [row] = await tx
      .select()
      .from(configurationPaymentMethods)
      .where(and(eq(configurationPaymentMethods.configurationId, configuration.id), eq(configurationPaymentMethods.paymentMethod, method)));
    return { ...(row ? methodSettingsOf(row) : defaultMethodSettings(method, currencies)), version };
  }

  routes.get(methodPath, async (c) => {
    const { merchant } = await reachMerchant(c, 'Mapi.Configurations.Read');
    const method = methodOf(c);
    const configuration = await findConfiguration(db, merchant.id, c.req.param('configurationId') ?? '');
    return c.json(await methodAnswer(db, configuration, method, merchant.currencies, configuration.version));
  });

  routes.put(methodPath, async (c) => {
    const { business, merchant } = await reachMerchant(c, 'Mapi.Configurations.Update');
    const method = methodOf(c);
    const configuration = await findConfiguration(db, merchant.id, c.req.param('configurationId') ?? '');
    const body = await readBody(c, paymentMethodUpdateBody);
    const edit = { ...body, displayName: body.displayName.trim(), currencies: [...new Set(body.currencies.map((currency) => currency.toUpperCase()))] };
    const problems = Object.values(checkPaymentMethodEdit(method, edit));
    const foreign = edit.currencies.filter((currency) => !merchant.currencies.includes(currency));
    if (foreign.length > 0) problems.push(`Currencies is invalid: the merchant does not take ${foreign.join(', ')}`);
    if (problems.length > 0) throw badRequest(problems);
    const answer = await db.transaction(async (tx) => {
      const version = await raiseVersion(tx, configuration.id, body.version);
      const values = {
        enabled: edit.enabled,
        displayName: edit.displayName,
        threeDSecurePolicy: edit.threeDSecurePolicy,
        minimumAmountMilli: edit.minimumAmount === null ? null : Math.round(edit.minimumAmount * amountScaleFactor),
        maximumAmountMilli: edit.maximumAmount === null ? null : Math.round(edit.maximumAmount * amountScaleFactor),
        currencies: edit.currencies,
      };
      await tx
        .insert(configurationPaymentMethods)
        .values({ configurationId: configuration.id, paymentMethod: method, ...values })
        .onConflictDoUpdate({ target: [configurationPaymentMethods.configurationId, configurationPaymentMethods.paymentMethod], set: values });
      await auditConfiguration(
        tx,
        c.get('principal'),
        'PaymentMethodConfigured',
        { businessId: business.id, merchantId: merchant.id },
        {
          configurationId: configuration.id,
          paymentMethod: method,
          settings: { ...edit, version: undefined },
          version,
        },
      );
      return methodAnswer(tx, configuration, method, merchant.currencies, version);
    });
    return c.json(answer);
  });

  return routes;
}
