// One palette command per favourite and recent context (user settings ContextFavorites and ContextRecent),
// each applying that context at once. They are made from the user's settings, so the palette asks for them
// when it opens (savedContextCommands) instead of the registry holding them from start-up.
// No arktype here: commands load with the shell, so stored items are checked by hand.
import type { ContextItem } from '../../src/contract/context.ts';
import type { Command, CommandContext } from '../command.ts';

export const favoritesSettingKey = 'ContextFavorites';
export const recentSettingKey = 'ContextRecent';

const isText = (value: unknown, max = 200): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/** The valid entries of a stored list (a damaged entry is dropped, not the list). */
export function contextItemsOf(value: unknown): ContextItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown): ContextItem[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { businessId, merchantId, businessName, merchantName } = entry as Record<string, unknown>;
    if (!isText(businessId) || (merchantId !== undefined && !isText(merchantId))) return [];
    const item: ContextItem = { businessId };
    if (isText(businessName)) item.businessName = businessName;
    if (merchantId !== undefined) item.merchantId = merchantId;
    if (isText(merchantName)) item.merchantName = merchantName;
    return [item];
  });
}

/**
 * The link that applies a saved context: /context/apply resolves names, flags and the first configuration
 * (ids are all it trusts), adds it to Recent (recent=1) and lands on the route.
 */
export function savedContextLink(route: string, item: ContextItem): string {
  const params = new URLSearchParams({ route });
  params.set('business', JSON.stringify({ id: item.businessId, title: item.businessName ?? item.businessId }));
  if (item.merchantId) params.set('merchant', JSON.stringify({ id: item.merchantId, title: item.merchantName ?? item.merchantId }));
  params.set('recent', '1');
  return `/context/apply?${params.toString()}`;
}

/** The current screen as a same-origin path with its query (the shell may hand over an absolute URL). */
export function routeOf(url: string): string {
  try {
    const parsed = new URL(url, 'http://portal.invalid');
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/dashboard';
  }
}

function label(item: ContextItem): string {
  const business = item.businessName ?? item.businessId;
  return item.merchantId ? `${business} › ${item.merchantName ?? item.merchantId}` : business;
}

const isApplied = (ctx: CommandContext, item: ContextItem) =>
  ctx.context.businessId === item.businessId && ctx.context.merchantId === (item.merchantId ?? null);

function commandFor(kind: 'favorite' | 'recent', item: ContextItem): Command {
  const key = `${item.businessId}/${item.merchantId ?? ''}`;
  return {
    id: `context.${kind === 'favorite' ? 'applyFavorite' : 'applyRecent'}:${key}`,
    title: `Switch to ${label(item)}`,
    section: 'Context',
    keywords: [
      'context',
      'switch',
      kind === 'favorite' ? 'favourite' : 'recent',
      kind === 'favorite' ? 'favorite' : 'recently used',
      item.businessId,
      ...(item.merchantId ? [item.merchantId] : []),
      ...(item.businessName ? [item.businessName] : []),
      ...(item.merchantName ? [item.merchantName] : []),
    ],
    // The context already applied is not offered again.
    when: (ctx) => ctx.signedIn && !isApplied(ctx, item),
    run: ({ navigate, state }) => navigate(savedContextLink(routeOf(state.currentUrl()), item)),
  };
}

/** Favourites first, then recents that are not also favourites, newest first. */
export function savedContextCommands(favorites: unknown, recent: unknown): Command[] {
  const favoriteItems = contextItemsOf(favorites);
  const seen = new Set(favoriteItems.map((item) => `${item.businessId}/${item.merchantId ?? ''}`));
  const recentItems = contextItemsOf(recent).filter((item) => !seen.has(`${item.businessId}/${item.merchantId ?? ''}`));
  return [...favoriteItems.map((item) => commandFor('favorite', item)), ...recentItems.map((item) => commandFor('recent', item))];
}
