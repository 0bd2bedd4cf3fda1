// What the context pages and the selection panel are given to work with (the Portal API's context data and the
// browser's location; tests give their own), and the recent list an applied context joins. Apart from the panel's
// machine (use-context-flow.ts) so a page that applies a context without the panel loads none of it.
import type { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { userSettingQueries } from '../api/user-setting-queries.ts';
import { contextRecentLimit } from '../contract/context-checks.ts';
import type { ContextItem } from '../contract/context.ts';
import { createContextDataSource, type favoritesSettingKey, recentSettingKey, type ContextDataSource } from './context-data.ts';
import { addRecent } from './context-rules.ts';

export type ContextPanelServices = {
  data: ContextDataSource;
  navigate: (to: string, options: { replace: boolean }) => void;
};

let defaultServices: ContextPanelServices | null = null;

/** The app's services: the shared Portal API client and the browser location wouter listens to. */
function appServices(): ContextPanelServices {
  defaultServices ??= { data: createContextDataSource(), navigate: (to, options) => browserNavigate(to, options) };
  return defaultServices;
}

export const ContextPanelServicesContext = createContext<ContextPanelServices | null>(null);

export function useContextPanelServices(): ContextPanelServices {
  return useContext(ContextPanelServicesContext) ?? appServices();
}

export type ContextItemKey = typeof favoritesSettingKey | typeof recentSettingKey;

/** The query key shared with every other reader of the setting (the palette's saved-context commands). */
export const contextItemsKey = (key: ContextItemKey) => userSettingQueries.detail(key).queryKey;

/** Adds an applied context to the recent list (newest first, capped, de-duplicated) and saves it. */
export async function rememberRecent(data: ContextDataSource, queryClient: ReturnType<typeof useQueryClient>, item: ContextItem): Promise<void> {
  const current = await queryClient
    .fetchQuery({ queryKey: contextItemsKey(recentSettingKey), queryFn: () => data.readItems(recentSettingKey), staleTime: 60_000 })
    .catch(() => [] as ContextItem[]);
  const next = addRecent(Array.isArray(current) ? (current as ContextItem[]) : [], item, contextRecentLimit);
  queryClient.setQueryData(contextItemsKey(recentSettingKey), next);
  await data.writeItems(recentSettingKey, next);
}
