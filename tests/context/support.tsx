// A fake context data source over a small in-memory world, and a render helper with the panel's providers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { ApiError } from '../../src/api/api-error.ts';
import type { ContextItem } from '../../src/contract/context.ts';
import type { AuthorizationPolicy } from '../../src/contract/policy.ts';
import type { ContextDataSource } from '../../src/context/context-data.ts';
import type { BusinessOption, ConfigurationOption, MerchantOption, SearchResult } from '../../src/context/context-flow.ts';
import { ContextPanelServicesContext, type ContextPanelServices } from '../../src/context/context-services.ts';
import { clearContext } from '../../src/state/context-store.ts';
import { clearSessionProfile, setProfile } from '../../src/state/session-store.ts';

export const world = {
  businesses: [
    { businessId: 'B1', businessName: 'Alpha Trading', camAutoRemittance: true, live: true },
    { businessId: 'B2', businessName: 'Beta Retail', camAutoRemittance: false, live: false },
  ] satisfies BusinessOption[],
  merchants: {
    B1: [
      { businessId: 'B1', merchantId: 'M1', merchantName: 'Alpha Online', grossSettlement: false, currencies: ['GBP'], live: true },
      { businessId: 'B1', merchantId: 'M2', merchantName: 'Alpha Stores', grossSettlement: true, currencies: ['GBP', 'EUR'], live: true },
    ],
    B2: [{ businessId: 'B2', merchantId: 'M3', merchantName: 'Beta Web', grossSettlement: false, currencies: ['EUR'], live: true }],
  } as Record<string, MerchantOption[]>,
  configurations: {
    M2: [
      { configurationId: 'C2', tradeName: 'Stores checkout', switches: { virtualTerminalMenuEnabled: true } },
      { configurationId: 'C3', tradeName: 'Phone', switches: { virtualTerminalMenuEnabled: false } },
    ],
  } as Record<string, ConfigurationOption[]>,
};

export const policies = {
  internal: { roles: ['TechnicalAdmin'], partnerPolicy: null, businessPolicies: [] } satisfies AuthorizationPolicy,
  owner: {
    roles: [],
    partnerPolicy: null,
    businessPolicies: [
      { businessId: 'B1', businessName: 'Alpha Trading', roles: ['Owner'], merchantPolicies: [] },
      { businessId: 'B2', businessName: 'Beta Retail', roles: ['Owner'], merchantPolicies: [] },
    ],
  } satisfies AuthorizationPolicy,
  solo: {
    roles: [],
    partnerPolicy: null,
    businessPolicies: [{ businessId: 'B2', businessName: 'Beta Retail', roles: ['Owner'], merchantPolicies: [] }],
  } satisfies AuthorizationPolicy,
};

const notFound = () => new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: false });

export function fakeData(settings: Record<string, ContextItem[]> = {}) {
  const stored = { ...settings };
  const searches: { term: string; signal: AbortSignal }[] = [];
  const data = {
    businesses: vi.fn(async (query: { pageNumber: number; pageSize: number; liveOnly: boolean }) => {
      const all = world.businesses.filter((business) => !query.liveOnly || business.live);
      return { data: all.slice((query.pageNumber - 1) * query.pageSize, query.pageNumber * query.pageSize), totalCount: all.length };
    }),
    merchants: vi.fn(async (businessId: string) => {
      const all = world.merchants[businessId] ?? [];
      return { data: all, totalCount: all.length };
    }),
    search: vi.fn(async (term: string, _query: unknown, signal: AbortSignal) => {
      searches.push({ term, signal });
      const lower = term.toLowerCase();
      const results: SearchResult[] = [];
      for (const business of world.businesses) {
        if (business.businessName.toLowerCase().includes(lower)) results.push({ businessId: business.businessId, businessName: business.businessName });
        for (const merchant of world.merchants[business.businessId] ?? []) {
          if (merchant.merchantName.toLowerCase().includes(lower)) {
            results.push({
              businessId: business.businessId,
              businessName: business.businessName,
              merchantId: merchant.merchantId,
              merchantName: merchant.merchantName,
            });
          }
        }
      }
      return { data: results, totalCount: results.length };
    }),
    business: vi.fn(async (businessId: string) => {
      const business = world.businesses.find((candidate) => candidate.businessId === businessId);
      if (!business) throw notFound();
      return { id: business.businessId, name: business.businessName, camAutoRemittance: business.camAutoRemittance };
    }),
    merchant: vi.fn(async (businessId: string, merchantId: string) => {
      const merchant = world.merchants[businessId]?.find((candidate) => candidate.merchantId === merchantId);
      if (!merchant) throw notFound();
      return {
        id: merchant.merchantId,
        name: merchant.merchantName,
        businessId,
        grossSettlement: merchant.grossSettlement ?? false,
        currencies: [...(merchant.currencies ?? [])],
      };
    }),
    configurations: vi.fn(async (_businessId: string, merchantId: string) => world.configurations[merchantId] ?? []),
    readItems: vi.fn(async (key: string) => stored[key] ?? []),
    writeItems: vi.fn(async (key: string, items: readonly ContextItem[]) => {
      stored[key] = [...items];
    }),
  };
  return { data: data as unknown as ContextDataSource & typeof data, stored, searches };
}

export function renderWithServices(ui: ReactNode, options: { policy: AuthorizationPolicy; services: ContextPanelServices }) {
  clearSessionProfile();
  clearContext();
  sessionStorage.clear();
  setProfile({ sub: 'user-1' }, options.policy);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <ContextPanelServicesContext.Provider value={options.services}>{node}</ContextPanelServicesContext.Provider>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, queryClient, rerenderWithServices: (node: ReactNode) => result.rerender(wrap(node)) };
}
