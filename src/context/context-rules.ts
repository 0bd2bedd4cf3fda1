// The context's selection rules, as small pure functions: whether a selection may be applied (spec section 5), where
// a user's businesses and merchants come from, and the recent and favourite lists. Apart from the selection panel's
// machine (context-flow.ts) so the pages that apply a context without the panel (one to choose from, or a link
// naming it) load only these.
import type { ContextItem, ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy, BusinessPolicy } from '../contract/policy.ts';

export const contextPageSize = 10;
/** The minimum number of selections with an id (spec section 5: at least 1). */
export const minimumSelections = 1;

/** The user holds roles at root level (the spec's "users with roles"). */
export const hasRoles = (policy: AuthorizationPolicy) => policy.roles.length > 0;

/** Businesses come from the server for users with roles or a partner policy, else from the policy. */
export const businessesFromServer = (policy: AuthorizationPolicy) => hasRoles(policy) || policy.partnerPolicy !== null;

export const policyOf = (policy: AuthorizationPolicy, businessId: string): BusinessPolicy | undefined =>
  policy.businessPolicies.find((business) => business.businessId === businessId);

/** Merchants come from the server when the business list did, or the user holds roles on the business. */
export function merchantsFromServer(policy: AuthorizationPolicy, businessId: string): boolean {
  return businessesFromServer(policy) || (policyOf(policy, businessId)?.roles.length ?? 0) > 0;
}

/**
 * A business the user reaches only through merchant policies grants nothing by itself: such a context needs a
 * merchant, or every screen would refuse the user.
 */
export function merchantRequired(policy: AuthorizationPolicy, businessId: string): boolean {
  if (businessesFromServer(policy)) return false;
  return (policyOf(policy, businessId)?.roles.length ?? 0) === 0;
}

export type SelectionKey = 'partner' | 'business' | 'merchant' | 'configuration';
const selectionKeys: readonly SelectionKey[] = ['partner', 'business', 'merchant', 'configuration'];

/** Selections that name something (an id, not the empty selection). */
export function countSelections(selections: ContextSelections): number {
  return selectionKeys.filter((key) => selections[key]?.id != null).length;
}

/** Validation (spec section 5): at least the minimum of selections, and every selection has a defined id. */
export function isValidSelection(selections: ContextSelections, policy?: AuthorizationPolicy): boolean {
  if (countSelections(selections) < minimumSelections) return false;
  if (selectionKeys.some((key) => selections[key] !== undefined && selections[key]?.id === undefined)) return false;
  const businessId = selections.business?.id;
  if (policy && businessId && merchantRequired(policy, businessId) && !selections.merchant?.id) return false;
  return true;
}

/** The empty selection (id null) is allowed when the remaining selections still meet the minimum. */
export function allowsEmptySelection(selections: ContextSelections, key: SelectionKey): boolean {
  const rest: ContextSelections = { ...selections };
  delete rest[key];
  return countSelections(rest) >= minimumSelections;
}

export function sameContext(a: ContextItem, b: ContextItem): boolean {
  return a.businessId === b.businessId && (a.merchantId ?? null) === (b.merchantId ?? null);
}

/** Recent: newest first, one entry per business and merchant, at most `limit`. */
export function addRecent(items: readonly ContextItem[], item: ContextItem, limit: number): ContextItem[] {
  return [item, ...items.filter((existing) => !sameContext(existing, item))].slice(0, limit);
}

/** Favorites: toggled per business or merchant; a new favourite goes last so the list keeps its order. */
export function toggleFavorite(items: readonly ContextItem[], item: ContextItem): ContextItem[] {
  return items.some((existing) => sameContext(existing, item)) ? items.filter((existing) => !sameContext(existing, item)) : [...items, item];
}

export const isFavorite = (items: readonly ContextItem[], item: ContextItem) => items.some((existing) => sameContext(existing, item));

/** The recent-list entry for applied selections; none without a business. */
export function contextItemOf(selections: ContextSelections): ContextItem | null {
  const business = selections.business;
  if (!business?.id) return null;
  const merchant = selections.merchant;
  return merchant?.id
    ? { businessId: business.id, businessName: business.title, merchantId: merchant.id, merchantName: merchant.title }
    : { businessId: business.id, businessName: business.title };
}
