// /context?route=…: the panel as a page, leading to the route the user wanted (kept through sign-in). A route naming
// a record the person can see skips the panel: the record's own context is applied (record-links.ts).
// A pane gets its own query as `search`; outside the workspace the browser's is read.
//
// A user with exactly one business and one merchant has nothing to choose: the panel
// would apply that context at once (context-flow.ts, a forced path). This page does the same without loading the
// panel (a chunk of about 4.7 KB gzip on the first visit's path): it looks the merchant up and hands the choice to
// /context/apply, which checks every selection as for any link. Anything else, or any failure, shows the panel.
import { lazy, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useSearch } from 'wouter';
import type { AuthorizationPolicy, BusinessPolicy } from '../contract/policy.ts';
import { sessionStore } from '../state/session-store.ts';
import { contextApplyPath, queryParams, safeRoute } from './context-apply-url.ts';
import type { ContextDataSource } from './context-data.ts';
import { contextPageSize } from './context-rules.ts';
import { contextMessages } from './context-messages.ts';
import { recordContextLink } from './record-links.ts';
import { useContextPanelServices } from './context-services.ts';

const ContextSelectionPanel = lazy(() => import('./context-selection-panel.tsx').then((module) => ({ default: module.ContextSelectionPanel })));

/** The one business of a policy without root or partner roles, else null. */
export function onlyBusinessOf(policy: AuthorizationPolicy | null): BusinessPolicy | null {
  if (!policy || policy.roles.length > 0 || policy.partnerPolicy !== null || policy.businessPolicies.length !== 1) return null;
  return policy.businessPolicies[0] ?? null;
}

/** The /context/apply link for a user with nothing to choose, or null when there is a choice to make. */
export async function forcedContextLink(business: BusinessPolicy, route: string, data: ContextDataSource): Promise<string | null> {
  // Merchants come from the server when the user holds roles on the business, else from the policy (context-flow.ts).
  const merchants =
    business.roles.length > 0
      ? (await data.merchants(business.businessId, { pageNumber: 1, pageSize: contextPageSize, liveOnly: false })).data.map((item) => ({
          id: item.merchantId,
          title: item.merchantName,
        }))
      : business.merchantPolicies.map((item) => ({ id: item.merchantId, title: item.merchantName }));
  const [merchant] = merchants;
  if (merchants.length !== 1 || !merchant) return null;
  // As the panel does: /context/apply takes the merchant's first configuration.
  const link = contextApplyPath(route, { business: { id: business.businessId, title: business.businessName }, merchant });
  return `${link}&recent=1`;
}

export function ContextPage({ search }: { search?: string }) {
  const browserSearch = useSearch();
  const params = queryParams(search ?? browserSearch);
  const route = safeRoute(params.get('route'));
  const choose = params.get('choose') === '1';
  const services = useContextPanelServices();
  const policy = useSnapshot(sessionStore).policy as AuthorizationPolicy | null;
  const [showPanel, setShowPanel] = useState(false);

  // A link naming a record the person can see opens in the record's context; else a forced choice; else the panel.
  const leadOn = useEffectEvent((known: AuthorizationPolicy, live: { cancelled: boolean }) => {
    if (showPanel) return;
    const lookUp = services.data.recordContext;
    const link = (!choose && lookUp ? recordContextLink(route, lookUp) : Promise.resolve(null)).then((recordLink) => {
      if (recordLink) return recordLink;
      const business = onlyBusinessOf(known);
      return business ? forcedContextLink(business, route, services.data) : null;
    });
    link.then(
      (found) => {
        if (live.cancelled) return;
        if (found) services.navigate(found, { replace: true });
        else setShowPanel(true);
      },
      () => {
        if (!live.cancelled) setShowPanel(true);
      },
    );
  });
  // Once the policy is known (it is loaded once after sign-in).
  useEffect(() => {
    if (!policy) return undefined;
    const live = { cancelled: false };
    leadOn(policy, live);
    return () => {
      live.cancelled = true;
    };
  }, [policy]);

  // Busy while the context is looked up and applied: the shell waits for a settled screen before its later work.
  const applying = (
    <p role="status" aria-busy="true" className="context-apply-status">
      {contextMessages.applyingContext}
    </p>
  );
  if (!showPanel) return applying;
  return (
    <Suspense fallback={applying}>
      <ContextSelectionPanel mode="page" preferredRoute={route} />
    </Suspense>
  );
}
