// Which configuration's virtual terminal to open: the palette's 'Go to virtual terminal' (and g v) and the landing of
// someone who may only take telephone orders both ask here. A merchant's first configuration, which the context
// takes, may be its web shop's with the terminal switched off; opening that helps nobody.
import type { ContextSelections } from '../contract/context.ts';
import type { TerminalConfiguration } from '../state/terminal-chooser-store.ts';
import { queryOptions } from '@tanstack/react-query';
import { api as portalApi } from './api-client.ts';
import type { PortalApi } from './http-client.ts';
import { validate } from './validate.ts';

export type TerminalChoice =
  | { kind: 'open'; configuration: TerminalConfiguration }
  | { kind: 'ask'; configurations: readonly TerminalConfiguration[] }
  | { kind: 'none' };

const pageSize = 100;
/** A merchant with more configurations than this is not a merchant: stop asking rather than loop. */
const maxPages = 10;
const e = encodeURIComponent;

/** The merchant's configurations whose virtual terminal is on, by trade name (the context's own list of them). */
export async function terminalConfigurations(api: PortalApi, businessId: string, merchantId: string, signal?: AbortSignal): Promise<TerminalConfiguration[]> {
  const found: TerminalConfiguration[] = [];
  for (let pageNumber = 1; pageNumber <= maxPages; pageNumber += 1) {
    const page = await validate(
      'contextConfigurationPage',
      await api.get<unknown>(`/context/businesses/${e(businessId)}/merchants/${e(merchantId)}/configurations`, {
        query: { pagenumber: pageNumber, pagesize: pageSize },
        ...(signal ? { signal } : {}),
      }),
    );
    found.push(...page.data.filter((configuration) => configuration.switches.virtualTerminalMenuEnabled));
    if (page.data.length < pageSize || pageNumber * pageSize >= page.totalCount) break;
  }
  return found;
}

export const terminalConfigurationQueries = {
  enabled: (businessId: string, merchantId: string) =>
    queryOptions({
      queryKey: ['context', 'terminalConfigurations', businessId, merchantId] as const,
      queryFn: ({ signal }) => terminalConfigurations(portalApi, businessId, merchantId, signal),
      staleTime: 15_000,
    }),
};

/** Exactly one with the terminal on: that one; several: ask which; none: say so. */
export function terminalChoice(enabled: readonly TerminalConfiguration[]): TerminalChoice {
  const [only, ...others] = enabled;
  if (!only) return { kind: 'none' };
  return others.length === 0 ? { kind: 'open', configuration: only } : { kind: 'ask', configurations: enabled };
}

/** The applied configuration, when its terminal is on: the one the user chose to work in needs no question. */
export function appliedTerminalConfiguration(applied: ContextSelections): TerminalConfiguration | null {
  const configuration = applied.configuration;
  if (!configuration?.id || !configuration.switches.virtualTerminalMenuEnabled) return null;
  return { configurationId: configuration.id, tradeName: configuration.title, description: '', switches: { ...configuration.switches } };
}

export const terminalPath = (configurationId: string) => `/configurations/${e(configurationId)}/virtual-terminal`;

/** The applied context with this configuration as its configuration (the menu and the other screens follow it). */
export function withTerminalConfiguration(applied: ContextSelections, configuration: TerminalConfiguration): ContextSelections {
  return { ...applied, configuration: { id: configuration.configurationId, title: configuration.tradeName, switches: { ...configuration.switches } } };
}

export const noTerminalSentence = (merchantName: string) => `No configuration of ${merchantName} has the virtual terminal turned on.`;
