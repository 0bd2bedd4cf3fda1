// Plain checks of the context shapes that arrive synchronously on the first load's path — the selections of a
// /context/apply link, the look-ups cached in session storage, the items of the favourites and recents — so that
// path needs no arktype (46 KB gzip). They accept exactly what the arktype schemas of context.ts and
// context-responses.ts accept: tests/contract/context-checks.test.ts compares them on generated values.
import type { ContextItem, ContextSelections } from './context.ts';

export const contextRecentLimit = 20;

type Shape = Record<string, unknown>;

const isRecord = (value: unknown): value is Shape => typeof value === 'object' && value !== null && !Array.isArray(value);
const optional = (record: Shape, key: string, check: (value: unknown) => boolean) => !(key in record) || check(record[key]);
const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isStringArray = (value: unknown) => Array.isArray(value) && value.every(isString);
const isIdOrNull = (value: unknown) => value === null || typeof value === 'string';

const isSelection = (value: unknown): value is Shape => isRecord(value) && isIdOrNull(value.id) && isString(value.title);

function isSwitches(value: unknown): boolean {
  return isRecord(value) && isBoolean(value.virtualTerminalMenuEnabled) && Object.values(value).every(isBoolean);
}

export function isContextSelections(value: unknown): value is ContextSelections {
  if (!isRecord(value)) return false;
  return (
    optional(value, 'partner', isSelection) &&
    optional(value, 'business', (business) => isSelection(business) && optional(business, 'camAutoRemittance', isBoolean)) &&
    optional(
      value,
      'merchant',
      (merchant) => isSelection(merchant) && optional(merchant, 'grossSettlement', isBoolean) && optional(merchant, 'currencies', isStringArray),
    ) &&
    optional(value, 'configuration', (configuration) => isSelection(configuration) && isSwitches(configuration.switches))
  );
}

export function isContextItem(value: unknown): value is ContextItem {
  return (
    isRecord(value) &&
    isString(value.businessId) &&
    optional(value, 'merchantId', isString) &&
    optional(value, 'businessName', isString) &&
    optional(value, 'merchantName', isString)
  );
}

export type CachedBusiness = { id: string; name: string; camAutoRemittance: boolean; live?: boolean; partnerId?: string | null };
export type CachedMerchant = { id: string; name: string; businessId: string; grossSettlement: boolean; currencies: string[]; live?: boolean };

export function isCachedBusiness(value: unknown): value is CachedBusiness {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.name) &&
    isBoolean(value.camAutoRemittance) &&
    optional(value, 'live', isBoolean) &&
    optional(value, 'partnerId', isIdOrNull)
  );
}

export function isCachedMerchant(value: unknown): value is CachedMerchant {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.name) &&
    isString(value.businessId) &&
    isBoolean(value.grossSettlement) &&
    isStringArray(value.currencies) &&
    optional(value, 'live', isBoolean)
  );
}
