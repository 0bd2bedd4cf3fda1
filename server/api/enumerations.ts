// GET /enumerations/{name}: value sets fetched by the client at start.
import { Hono } from 'hono';
import {
  countryCodes,
  enumerationNames,
  orderLineTypes,
  paymentMethods,
  paymentStatuses,
  ticketTypes,
  type EnumerationName,
} from '../../src/contract/enumerations.ts';
import type { AppEnv, Deps } from '../http/env.ts';
import { notFound } from '../http/errors.ts';

const regionNames = new Intl.DisplayNames(['en-GB'], { type: 'region' });
const currencyNames = new Intl.DisplayNames(['en-GB'], { type: 'currency' });
const label = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());

const values: Record<EnumerationName, unknown[]> = {
  countries: countryCodes.map((code) => ({ code, name: regionNames.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en-GB')),
  currencies: Intl.supportedValuesOf('currency').map((alpha3Code) => ({
    alpha3Code,
    name: currencyNames.of(alpha3Code) ?? alpha3Code,
    decimals: new Intl.NumberFormat('en-GB', { style: 'currency', currency: alpha3Code }).resolvedOptions().maximumFractionDigits ?? 2,
  })),
  'order-line-types': orderLineTypes.map((value) => ({ value, name: label(value) })),
  'payment-methods': paymentMethods.map((value) => ({ value, name: value === 'wallet' ? 'Wallet' : label(value) })),
  'payment-statuses': paymentStatuses.map((value) => ({ value, name: label(value) })),
  'ticket-types': ticketTypes.map((value) => ({ value, name: label(value) })),
};

export function enumerationRoutes(_deps: Deps) {
  const routes = new Hono<AppEnv>();
  routes.get('/enumerations/:name', (c) => {
    const name = c.req.param('name');
    if (!(enumerationNames as readonly string[]).includes(name)) throw notFound();
    c.header('Cache-Control', 'private, max-age=3600');
    return c.json({ results: values[name as EnumerationName], numberOfResults: values[name as EnumerationName].length });
  });
  return routes;
}
