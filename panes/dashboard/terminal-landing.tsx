// The dashboard of someone who may take telephone orders but not read statistics (a virtual terminal user): they land
// on a terminal they can use, not on a screen that only says what they may not do: the applied configuration's when
// its terminal is on, else the merchant's first configuration with it on (made the context's configuration). Loaded
// only for them, so the dashboard's first load carries none of it.
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useEffectEvent } from 'react';
import { useLocation } from 'wouter';
import {
  appliedTerminalConfiguration,
  noTerminalSentence,
  terminalConfigurationQueries,
  terminalPath,
  withTerminalConfiguration,
} from '../../src/api/terminal-configurations.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { applyContext, contextStore } from '../../src/state/context-store.ts';

export function TerminalLanding({ selections, contextLabel, opening }: { selections: ContextSelections; contextLabel: string; opening: ReactNode }) {
  const [, navigate] = useLocation();
  const appliedTerminal = appliedTerminalConfiguration(selections);
  const merchantKey = { businessId: selections.business?.id ?? '', merchantId: selections.merchant?.id ?? '' };
  const terminals = useQuery({
    ...terminalConfigurationQueries.enabled(merchantKey.businessId, merchantKey.merchantId),
    enabled: appliedTerminal === null && merchantKey.businessId !== '' && merchantKey.merchantId !== '',
  });
  const landing = appliedTerminal ?? terminals.data?.[0] ?? null;
  const landingId = landing?.configurationId;
  // Once per configuration to land on (the landing object itself is new on each render).
  const land = useEffectEvent(() => {
    if (!landing) return;
    if (contextStore.applied.configuration?.id !== landing.configurationId) applyContext(withTerminalConfiguration(contextStore.applied, landing));
    navigate(terminalPath(landing.configurationId), { replace: true });
  });
  useEffect(() => {
    if (landingId !== undefined) land();
  }, [landingId]);

  if (landing || terminals.fetchStatus === 'fetching') return opening;
  return (
    <div className="pane-content">
      <h1>Dashboard</h1>
      <p className="pane-lead">You are working in {contextLabel}.</p>
      <p className="pane-notice" role="note">
        {!selections.merchant?.id
          ? 'Choose a merchant as your context to take telephone orders on its virtual terminal.'
          : terminals.isError
            ? 'The configurations of this merchant could not be loaded.'
            : `${noTerminalSentence(selections.merchant.title || selections.merchant.id)} Ask an administrator to switch it on for the configuration that takes telephone orders.`}
      </p>
    </div>
  );
}
