// /context/apply: applies the selections the link carries and replace-navigates to the route it names.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { applyContext } from '../state/context-store.ts';
import { sessionStore } from '../state/session-store.ts';
import { showToast } from '../state/toast-store.ts';
import { resolveApplyRequest } from './context-apply.ts';
import { contextPagePath } from './context-apply-url.ts';
import { contextItemOf } from './context-rules.ts';
import { contextMessages } from './context-messages.ts';
import { rememberRecent, useContextPanelServices } from './context-services.ts';
import './context-selection-panel.css';

/** A pane gets its own query as `search`; outside the workspace the browser's is read. */
export function ContextApplyPage({ search: paneSearch }: { search?: string }) {
  const browserSearch = useSearch();
  const search = paneSearch ?? browserSearch;
  const services = useContextPanelServices();
  const queryClient = useQueryClient();
  const policy = useSnapshot(sessionStore).policy as AuthorizationPolicy | null;

  // The link is read once per search string, with the services and policy of that moment (settled before any context
  // route renders).
  const applyLink = useEffectEvent((linkSearch: string, live: { cancelled: boolean }) => {
    resolveApplyRequest(linkSearch, { data: services.data, policy }).then(
      (result) => {
        if (live.cancelled) return;
        if (!result.ok) {
          showToast({ kind: 'danger', message: result.message });
          // The picker, not the record's context again: that is what just failed.
          services.navigate(contextPagePath(result.route, { choose: true }), { replace: true });
          return;
        }
        applyContext(result.selections);
        const item = contextItemOf(result.selections);
        if (result.remember && item) rememberRecent(services.data, queryClient, item).catch(() => undefined);
        services.navigate(result.route, { replace: true });
      },
      () => undefined,
    );
  });
  useEffect(() => {
    const live = { cancelled: false };
    applyLink(search, live);
    return () => {
      live.cancelled = true;
    };
  }, [search]);

  return (
    <p role="status" aria-busy="true" className="context-apply-status">
      {contextMessages.applyingContext}
    </p>
  );
}
