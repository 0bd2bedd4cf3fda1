// Customers of a merchant: the stored customers a merchant keeps (virtual terminal, saved cards) and the
// data items held about each, with erasure and export for data-subject requests.
//
// {context} = /businesses/{businessId}/merchants/{merchantId}. An unreachable business or merchant, or a customer
// of another merchant, answers 404; a reachable one without the permission 403. The list is also read across a
// business's or a partner's merchants (the spec's {context} is any of the three); a customer stays the merchant's,
// so its record, data and changes are only under the merchant.
//
// | method | path                                  | permission             | answer                                          |
// |--------|---------------------------------------|------------------------|-------------------------------------------------|
// | GET    | {context}/customers                   | Mapi.Customers.Read    | { results, numberOfResults } (list convention)  |
// | GET    | /businesses/{businessId}/customers    | Mapi.Customers.Read    | the same list across the business's merchants; each row names its merchant |
// | GET    | /partners/{partnerId}/customers       | Mapi.Customers.Read    | the same list across the partner's businesses' merchants |
// | GET    | {context}/customers/{id}              | Mapi.Customers.Read    | the customer with version and saved card count  |
// | POST   | {context}/customers                   | Mapi.Customers.Update  | 201 the customer; 409 when the reference exists; 400 a field's problem (checkCustomerEdit) |
// | PUT    | {context}/customers/{id}              | Mapi.Customers.Update  | the customer; 409 on a stale version            |
// | DELETE | {context}/customers/{id}              | Mapi.Customers.Update  | 204; the customer, its data and its saved cards' vault rows erased; audited CustomerErased |
// | GET    | {context}/customers/{id}/data         | Mapi.Customers.Read    | { results: [{ dataId, kind, description, createdUtc }] } |
// | DELETE | {context}/customers/{id}/data/{dataId}| Mapi.Customers.Update  | 204; a saved card's vault row erased too; audited CustomerDataErased |
// | GET    | {context}/customers/{id}/export       | Mapi.Customers.Read    | JSON file (Content-Disposition): the record and every data item, no card number or token; audited CustomerDataExported |
//
// List parameters: pagenumber, pagesize, sort (name, created, reference; leading minus for descending), filters
// searchterm ([eq], every word at the start of a word of the name, or anywhere in the email or reference) and created ([gte]/[lte]).
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { customerBody, customerUpdateBody, type CustomerAddressBody } from '../../src/contract/customer-schemas.ts';
import { checkCustomerEdit, customerListSpec } from '../../src/contract/customers.ts';
import {
  customerList as customerListSchema,
  type Customer,
  type CustomerBody,
  type CustomerDataItem,
  type CustomerListItem,
} from '../../src/contract/customer-schemas.ts';
import { countryCodes } from '../../src/contract/enumerations.ts';
import type { FilterClause } from '../../src/contract/list-query.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { recordAudit } from '../audit/record.ts';
import { businesses, cardVault, customerData, customers, merchants, type CustomerAddress } from '../db/schema.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest, conflict, notFound } from '../http/errors.ts';
import { assertResourceMatchesSpec, likeLiteral, type ListResource } from '../http/list-sql.ts';
import type { DbWriter } from '../db/client.ts';
import { type ContextList, resolveContextScope } from '../http/context-list.ts';

const c$ = customers;

function searchCondition(clauses: FilterClause[]): SQL | undefined {
  const term = clauses.find((clause) => clause.operator === 'eq')?.value.trim();
  if (!term) return undefined;
  // Every word typed must be found: at the start of a word of the name ('Anya B' finds Anya Bell, 'jo' finds Jo,
  // Joanna and Ada Jones), or anywhere in the email address or the reference (part of an email finds it).
  const words = term
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, 6);
  const name = sql`(' ' || lower(${c$.firstName}) || ' ' || lower(coalesce(${c$.middleName}, '')) || ' ' || lower(${c$.lastName}))`;
  return and(
    ...words.map((word) => {
      const literal = likeLiteral(word);
      return or(
        sql`${name} LIKE ${`% ${literal}%`}`,
        sql`lower(coalesce(${c$.emailAddress}, '')) LIKE ${`%${literal}%`}`,
        sql`lower(${c$.reference}) LIKE ${`%${literal}%`}`,
      );
    }),
  );
}

export const customerResource: ListResource = {
  spec: customerListSpec,
  filters: {
    searchterm: { type: 'custom', condition: (clauses) => searchCondition(clauses) },
    created: { type: 'date', column: c$.createdUtc },
  },
  sorts: {
    name: [
      { expression: c$.lastName, descending: false },
      { expression: c$.firstName, descending: false },
      { expression: c$.id, descending: false },
    ],
    created: [
      { expression: c$.createdUtc, descending: false },
      { expression: c$.id, descending: false },
    ],
    reference: [{ expression: c$.reference, descending: false }],
  },
};
assertResourceMatchesSpec(customerResource);

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const newCustomerId = () => `CUS${randomBytes(8).toString('hex').toUpperCase()}`;

type CustomerRow = typeof customers.$inferSelect;

function toListItem(row: CustomerRow, merchantName?: string): CustomerListItem {
  return {
    customerId: row.id,
    businessId: row.businessId,
    merchantId: row.merchantId,
    ...(merchantName === undefined ? {} : { merchantName }),
    reference: row.reference,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.emailAddress,
    city: row.billingAddress?.city ?? null,
    countryIso3166Alpha2: row.billingAddress?.countryIso3166Alpha2 ?? null,
    createdUtc: row.createdUtc.toISOString(),
  };
}

function toCustomer(row: CustomerRow, savedCards: number): Customer {
  return {
    ...toListItem(row),
    title: row.title,
    middleName: row.middleName,
    dateOfBirth: row.dateOfBirth,
    billingAddress: row.billingAddress,
    shippingAddress: row.shippingAddress,
    lastUpdatedUtc: row.lastUpdatedUtc.toISOString(),
    version: row.version,
    savedCards,
  };
}

/**
 * The customers list under a merchant, across a business's merchants, or across a partner's businesses' merchants
 * (each row then names its merchant): its calls come from this declaration (server/http/context-list.ts).
 */
export const customerList: ContextList<CustomerListItem> = {
  path: 'customers',
  contexts: ['merchant', 'business', 'partner'],
  permission: 'Mapi.Customers.Read',
  resource: customerResource,
  within: (scope, db) =>
    scope.kind === 'merchant'
      ? eq(c$.merchantId, scope.merchantId)
      : scope.kind === 'business'
        ? eq(c$.businessId, scope.businessId)
        : inArray(c$.businessId, db.select({ id: businesses.id }).from(businesses).where(eq(businesses.partnerId, scope.partnerId))),
  rows: async (db, page) => {
    const rows = await db
      .select({ customer: c$, merchantName: merchants.name })
      .from(c$)
      .innerJoin(merchants, eq(merchants.id, c$.merchantId))
      .where(page.where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset);
    return rows.map((row) => toListItem(row.customer, page.scope.kind === 'merchant' ? undefined : row.merchantName));
  },
  count: async (db, where) => Number((await db.select({ value: count() }).from(c$).where(where))[0]?.value ?? 0),
  openApi: {
    tag: 'Customers',
    summaries: {
      merchant: 'Stored customers of a merchant',
      business: "Stored customers across a business's merchants",
      partner: "Stored customers across a partner's merchants",
    },
    response: customerListSchema,
  },
};

/** What a data item is, in a line: never a card number or token. */
export function describeDataItem(kind: string, value: Record<string, unknown>): string {
  const str = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : '');
  switch (kind) {
    case 'savedCard': {
      const month = String(value.expiryMonth ?? '').padStart(2, '0');
      const year = String(value.expiryYear ?? '').slice(-2);
      return `${str('maskedCardNumber')} expires ${month}/${year}${str('cardholderName') ? `, ${str('cardholderName')}` : ''}`;
    }
    case 'address':
      return [str('addressLine1'), str('zipCode'), str('city'), str('countryIso3166Alpha2')].filter(Boolean).join(', ');
    case 'consent':
      return `${str('purpose')}: ${value.granted === true ? 'granted' : 'withdrawn'}${str('grantedUtc') ? ` on ${str('grantedUtc').slice(0, 10)}` : ''}`;
    default:
      return kind;
  }
}

/** The form's checks again (real dates, not in the future, known countries): 400 naming each field's problem. */
function assertCustomerEdit(body: CustomerBody): void {
  const problems = checkCustomerEdit(
    {
      reference: body.reference,
      firstName: body.firstName,
      middleName: body.middleName ?? null,
      lastName: body.lastName,
      emailAddress: body.emailAddress ?? null,
      dateOfBirth: body.dateOfBirth ?? null,
      billingAddress: body.billingAddress
        ? {
            addressLine1: body.billingAddress.addressLine1 ?? null,
            addressLine2: body.billingAddress.addressLine2 ?? null,
            zipCode: body.billingAddress.zipCode ?? null,
            city: body.billingAddress.city ?? null,
            countryIso3166Alpha2: body.billingAddress.countryIso3166Alpha2 ?? null,
            phoneNumber1: body.billingAddress.phoneNumber1 ?? null,
          }
        : null,
    },
    new Date().toISOString().slice(0, 10),
    countryCodes,
  );
  if (body.shippingAddress?.countryIso3166Alpha2 && !countryCodes.includes(body.shippingAddress.countryIso3166Alpha2))
    problems['shippingAddress.countryIso3166Alpha2'] = 'Country is invalid';
  if (Object.keys(problems).length > 0) throw badRequest(Object.values(problems));
}

const cleanAddress = (address: CustomerAddressBody | null | undefined): CustomerAddress | null => (address ? { ...address } : null);

/** Erases the saved cards' vault rows of these data items (the caller deletes the items). */
async function eraseVaultRows(tx: DbWriter, items: { kind: string; value: Record<string, unknown>; merchantId: string }[]): Promise<number> {
  const tokens = items
    .filter((item) => item.kind === 'savedCard' && typeof item.value.cardToken === 'string')
    .map((item) => ({ token: item.value.cardToken as string, merchantId: item.merchantId }));
  let erased = 0;
  for (const { token, merchantId } of tokens) {
    erased += (
      await tx
        .delete(cardVault)
        .where(and(eq(cardVault.token, token), eq(cardVault.merchantId, merchantId)))
        .returning({ token: cardVault.token })
    ).length;
  }
  return erased;
}

export function customerRoutes({ database }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const prefix = '/businesses/:businessId/merchants/:merchantId/customers';

  const merchantOf = (c: Context<AppEnv>, permission: PermissionName) => resolveContextScope(database, c, 'merchant', permission);

  async function findCustomer(reader: DbWriter, merchantId: string, id: string): Promise<CustomerRow> {
    if (!idPattern.test(id)) throw notFound();
    const [row] = await reader
      .select()
      .from(c$)
      .where(and(eq(c$.id, id), eq(c$.merchantId, merchantId)));
    if (!row) throw notFound();
    return row;
  }

  async function savedCardCount(id: string): Promise<number> {
    const [row] = await db
      .select({ value: count() })
      .from(customerData)
      .where(and(eq(customerData.customerId, id), eq(customerData.kind, 'savedCard')));
    return Number(row?.value ?? 0);
  }

  const audit = (tx: DbWriter, c: Context<AppEnv>, event: string, scope: { businessId: string; merchantId: string }, metaData: Record<string, unknown>) =>
    recordAudit(tx, c.get('principal'), event, { businessId: scope.businessId, merchantId: scope.merchantId }, metaData);

  routes.get(`${prefix}/:customerId`, async (c) => {
    const { merchantId } = await merchantOf(c, 'Mapi.Customers.Read');
    const row = await findCustomer(db, merchantId, c.req.param('customerId'));
    return c.json(toCustomer(row, await savedCardCount(row.id)));
  });

  routes.post(prefix, async (c) => {
    const scope = await merchantOf(c, 'Mapi.Customers.Update');
    const body = await readBody(c, customerBody);
    assertCustomerEdit(body);
    const row = await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: c$.id })
        .from(c$)
        .where(and(eq(c$.merchantId, scope.merchantId), eq(c$.reference, body.reference)));
      if (existing) throw new ApiError(409, `A customer with reference ${body.reference} already exists.`);
      const now = new Date();
      const [inserted] = await tx
        .insert(c$)
        .values({
          id: newCustomerId(),
          businessId: scope.businessId,
          merchantId: scope.merchantId,
          reference: body.reference,
          title: body.title ?? null,
          firstName: body.firstName,
          middleName: body.middleName ?? null,
          lastName: body.lastName,
          emailAddress: body.emailAddress ?? null,
          dateOfBirth: body.dateOfBirth ?? null,
          billingAddress: cleanAddress(body.billingAddress),
          shippingAddress: cleanAddress(body.shippingAddress),
          createdUtc: now,
          lastUpdatedUtc: now,
        })
        .returning();
      if (!inserted) throw new Error('customer insert returned nothing');
      await audit(tx, c, 'CustomerCreated', scope, { customerId: inserted.id, reference: inserted.reference });
      return inserted;
    });
    return c.json(toCustomer(row, 0), 201);
  });

  routes.put(`${prefix}/:customerId`, async (c) => {
    const scope = await merchantOf(c, 'Mapi.Customers.Update');
    const id = c.req.param('customerId');
    await findCustomer(db, scope.merchantId, id);
    const body = await readBody(c, customerUpdateBody);
    assertCustomerEdit(body);
    const row = await db.transaction(async (tx) => {
      const [clash] = await tx
        .select({ id: c$.id })
        .from(c$)
        .where(and(eq(c$.merchantId, scope.merchantId), eq(c$.reference, body.reference), sql`${c$.id} <> ${id}`));
      if (clash) throw new ApiError(409, `A customer with reference ${body.reference} already exists.`);
      const [updated] = await tx
        .update(c$)
        .set({
          reference: body.reference,
          title: body.title ?? null,
          firstName: body.firstName,
          middleName: body.middleName ?? null,
          lastName: body.lastName,
          emailAddress: body.emailAddress ?? null,
          dateOfBirth: body.dateOfBirth ?? null,
          billingAddress: cleanAddress(body.billingAddress),
          shippingAddress: cleanAddress(body.shippingAddress),
          lastUpdatedUtc: new Date(),
          version: sql`${c$.version} + 1`,
        })
        .where(and(eq(c$.id, id), eq(c$.merchantId, scope.merchantId), eq(c$.version, body.version)))
        .returning();
      if (!updated) throw conflict();
      await audit(tx, c, 'CustomerUpdated', scope, { customerId: id, version: updated.version });
      return updated;
    });
    return c.json(toCustomer(row, await savedCardCount(row.id)));
  });

  routes.delete(`${prefix}/:customerId`, async (c) => {
    const scope = await merchantOf(c, 'Mapi.Customers.Update');
    const id = c.req.param('customerId');
    await db.transaction(async (tx) => {
      const row = await findCustomer(tx, scope.merchantId, id);
      const items = await tx.select().from(customerData).where(eq(customerData.customerId, id));
      const vaultRows = await eraseVaultRows(tx, items);
      await tx.delete(customerData).where(eq(customerData.customerId, id));
      await tx.delete(c$).where(eq(c$.id, id));
      // The audit keeps the reference (the merchant's own key), not the person's name or email.
      await audit(tx, c, 'CustomerErased', scope, { customerId: id, reference: row.reference, dataItems: items.length, savedCardsErased: vaultRows });
    });
    return c.body(null, 204);
  });

  routes.get(`${prefix}/:customerId/data`, async (c) => {
    const { merchantId } = await merchantOf(c, 'Mapi.Customers.Read');
    const row = await findCustomer(db, merchantId, c.req.param('customerId'));
    const items = await db.select().from(customerData).where(eq(customerData.customerId, row.id)).orderBy(asc(customerData.createdUtc), asc(customerData.id));
    const results: CustomerDataItem[] = items.map((item) => ({
      dataId: item.id,
      kind: item.kind,
      description: describeDataItem(item.kind, item.value),
      createdUtc: item.createdUtc.toISOString(),
    }));
    return c.json({ results });
  });

  routes.delete(`${prefix}/:customerId/data/:dataId`, async (c) => {
    const scope = await merchantOf(c, 'Mapi.Customers.Update');
    const id = c.req.param('customerId');
    const dataId = c.req.param('dataId');
    if (!idPattern.test(dataId)) throw notFound();
    await db.transaction(async (tx) => {
      await findCustomer(tx, scope.merchantId, id);
      const [item] = await tx
        .select()
        .from(customerData)
        .where(and(eq(customerData.id, dataId), eq(customerData.customerId, id)));
      if (!item) throw notFound();
      const vaultRows = await eraseVaultRows(tx, [item]);
      await tx.delete(customerData).where(eq(customerData.id, dataId));
      await audit(tx, c, 'CustomerDataErased', scope, { customerId: id, dataId, kind: item.kind, savedCardsErased: vaultRows });
    });
    return c.body(null, 204);
  });

  routes.get(`${prefix}/:customerId/export`, async (c) => {
    const scope = await merchantOf(c, 'Mapi.Customers.Read');
    const row = await findCustomer(db, scope.merchantId, c.req.param('customerId'));
    const items = await db.select().from(customerData).where(eq(customerData.customerId, row.id)).orderBy(asc(customerData.createdUtc), asc(customerData.id));
    await audit(db, c, 'CustomerDataExported', scope, { customerId: row.id, reference: row.reference });
    const exported = {
      exportedUtc: new Date().toISOString(),
      merchantId: row.merchantId,
      customer: toCustomer(row, items.filter((item) => item.kind === 'savedCard').length),
      // A saved card leaves as what may be shown; its vault token and number never leave.
      data: items.map((item) => {
        const { cardToken: _token, ...shown } = item.value;
        return { dataId: item.id, kind: item.kind, createdUtc: item.createdUtc.toISOString(), value: shown };
      }),
    };
    c.header('Content-Disposition', `attachment; filename="customer-${row.reference.replace(/[^A-Za-z0-9_.-]/g, '_')}.json"`);
    c.header('Cache-Control', 'no-store');
    return c.json(exported);
  });

  return routes;
}
