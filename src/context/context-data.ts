// The calls behind the panel, as one injectable interface: the app uses the shared Portal API client, the
// tests a fake. Single business and merchant look-ups are cached in session storage under `businesses` and
// `merchants` (spec section 7), keyed by id and by business/merchant id.
import { api as sharedApi } from '../api/api-client.ts';
import type { PortalApi } from '../api/http-client.ts';
import { fetchUserSetting, saveUserSetting } from '../api/user-setting-queries.ts';
import { validate } from '../api/validate.ts';
import { isCachedBusiness, isCachedMerchant, isContextItem } from '../contract/context-checks.ts';
import type { ContextItem } from '../contract/context.ts';
import { sessionStore } from '../state/session-store.ts';
import type { BusinessOption, ConfigurationOption, LoadQuery, MerchantOption, Page, SearchResult } from './context-flow.ts';
import type { ContextBusiness, ContextMerchant, RecordContext } from '../contract/context-responses.ts';

export const favoritesSettingKey = 'ContextFavorites';
export const recentSettingKey = 'ContextRecent';
export const businessCacheKey = 'businesses';
export const merchantCacheKey = 'merchants';

export type ContextDataSource = {
  businesses: (query: LoadQuery, signal?: AbortSignal) => Promise<Page<BusinessOption>>;
  merchants: (businessId: string, query: LoadQuery, signal?: AbortSignal) => Promise<Page<MerchantOption>>;
  search: (searchTerm: string, query: LoadQuery, signal: AbortSignal) => Promise<Page<SearchResult>>;
  business: (businessId: string) => Promise<ContextBusiness>;
  merchant: (businessId: string, merchantId: string) => Promise<ContextMerchant>;
  /** the configurations of a merchant; rejects quietly (no toast): the panel then selects none */
  configurations: (businessId: string, merchantId: string) => Promise<readonly ConfigurationOption[]>;
  /** a context-item setting; [] when not set */
  readItems: (key: typeof favoritesSettingKey | typeof recentSettingKey) => Promise<ContextItem[]>;
  writeItems: (key: typeof favoritesSettingKey | typeof recentSettingKey, items: readonly ContextItem[]) => Promise<void>;
  /** the context a record belongs to (GET /context/records/…); null when the caller may not read it (404), quietly */
  recordContext?: (apiPath: string) => Promise<RecordContext | null>;
};

// The answers are checked against the contract's context schemas (src/contract/context-responses.ts) in the
// validation worker (src/api/validate.ts): the panel is on the first load's path for a user who signs in without a context.

const listQuery = (query: LoadQuery) => ({ pagenumber: query.pageNumber, pagesize: query.pageSize, liveonly: query.liveOnly });
const segment = encodeURIComponent;

// ——— the session-storage cache of single look-ups ———
// Entries belong to the signed-in user: /context/apply trusts them, so another user in the same tab starts afresh.

type CacheFile<T> = { user: string; entries: Record<string, T> };

const currentUser = () => sessionStore.userInfo?.sub ?? '';

function readCache<T>(key: string): Record<string, T> {
  try {
    const parsed = JSON.parse(globalThis.sessionStorage?.getItem(key) ?? 'null') as CacheFile<T> | null;
    if (!parsed || typeof parsed !== 'object' || parsed.user !== currentUser() || typeof parsed.entries !== 'object' || parsed.entries === null) return {};
    return parsed.entries;
  } catch {
    return {};
  }
}

function writeCache<T>(key: string, id: string, value: T): void {
  try {
    // Bounded: a long session of browsing must not grow session storage without end.
    const entries = Object.entries(readCache<T>(key))
      .filter(([existing]) => existing !== id)
      .slice(-199);
    const file: CacheFile<T> = { user: currentUser(), entries: Object.fromEntries([...entries, [id, value]]) };
    globalThis.sessionStorage?.setItem(key, JSON.stringify(file));
  } catch {
    // storage full or disabled: the look-up is simply asked again next time
  }
}

export const merchantCacheId = (businessId: string, merchantId: string) => `${businessId}/${merchantId}`;

export function cachedBusiness(businessId: string): ContextBusiness | undefined {
  const value = readCache<unknown>(businessCacheKey)[businessId];
  return isCachedBusiness(value) ? value : undefined;
}

export function cachedMerchant(businessId: string, merchantId: string): ContextMerchant | undefined {
  const value = readCache<unknown>(merchantCacheKey)[merchantCacheId(businessId, merchantId)];
  return isCachedMerchant(value) && value.businessId === businessId ? value : undefined;
}

export function rememberBusiness(business: ContextBusiness): void {
  writeCache(businessCacheKey, business.id, business);
}

export function rememberMerchant(merchant: ContextMerchant): void {
  writeCache(merchantCacheKey, merchantCacheId(merchant.businessId, merchant.id), merchant);
}

// ——— the implementation over the shared client ———

export function createContextDataSource(api: PortalApi = sharedApi): ContextDataSource {
  const notFoundQuietly = { handleErrors: (status: number) => status !== 404 };
  return {
    businesses: async (query, signal) => {
      const page = await validate(
        'contextBusinessPage',
        await api.get<unknown>('/context/businesses', { query: listQuery(query), ...(signal ? { signal } : {}) }),
      );
      return page;
    },
    merchants: async (businessId, query, signal) => {
      const data = await api.get<unknown>(`/context/businesses/${segment(businessId)}/merchants`, { query: listQuery(query), ...(signal ? { signal } : {}) });
      const page = await validate('contextMerchantPage', data);
      return { totalCount: page.totalCount, data: page.data.map((merchant) => ({ ...merchant, businessId })) };
    },
    search: async (searchTerm, query, signal) =>
      validate(
        'contextSearchPage',
        await api.get<unknown>('/context/search', {
          query: { searchterm: searchTerm, ...listQuery(query) },
          signal,
        }),
      ),
    business: async (businessId) => {
      const cached = cachedBusiness(businessId);
      if (cached) return cached;
      const business = await validate('contextBusiness', await api.get<unknown>(`/context/businesses/${segment(businessId)}`, notFoundQuietly));
      rememberBusiness(business);
      return business;
    },
    merchant: async (businessId, merchantId) => {
      const cached = cachedMerchant(businessId, merchantId);
      if (cached) return cached;
      const merchant = await validate(
        'contextMerchant',
        await api.get<unknown>(`/context/businesses/${segment(businessId)}/merchants/${segment(merchantId)}`, notFoundQuietly),
      );
      rememberMerchant(merchant);
      return merchant;
    },
    configurations: async (businessId, merchantId) => {
      const page = await validate(
        'contextConfigurationPage',
        await api.get<unknown>(`/context/businesses/${segment(businessId)}/merchants/${segment(merchantId)}/configurations`, {
          query: { pagenumber: 1, pagesize: 10 },
          handleErrors: false,
        }),
      );
      return page.data;
    },
    readItems: async (key) => parseContextItems(await fetchUserSetting(key)),
    writeItems: (key, items) => saveUserSetting(key, items),
    recordContext: async (apiPath) => {
      // Not readable is an answer here (the picker shows), not an error to toast.
      const answer = await api.get<unknown>(apiPath, { handleErrors: false }).catch(() => null);
      return answer === null ? null : validate('recordContext', answer);
    },
  };
}

/** A stored list as far as it is valid: a damaged entry is dropped, not the whole list. */
export function parseContextItems(value: unknown): ContextItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isContextItem);
}
