// Runs the context flow in React: the state machine's state, and its effects carried out against the data
// source (calls, the 400 ms search timer, aborting earlier searches, recent list, closing, navigating).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isApiError } from '../api/api-error.ts';
import type { ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { contextApplyPath } from './context-apply-url.ts';
import { rememberBusiness, rememberMerchant } from './context-data.ts';
import { open, reduce, type Effect, type FlowEvent, type FlowState, type Transition } from './context-flow.ts';
import { rememberRecent, useContextPanelServices } from './context-services.ts';
import { contextMessages } from './context-messages.ts';

/** The panel's own look-up cache learns what the lists said, so /context/apply needs no call to trust the titles. */
function rememberSelections(selections: ContextSelections): void {
  const { business, merchant } = selections;
  if (business?.id && business.camAutoRemittance !== undefined) {
    rememberBusiness({ id: business.id, name: business.title, camAutoRemittance: business.camAutoRemittance });
  }
  if (business?.id && merchant?.id && merchant.grossSettlement !== undefined && merchant.currencies) {
    rememberMerchant({
      id: merchant.id,
      name: merchant.title,
      businessId: business.id,
      grossSettlement: merchant.grossSettlement,
      currencies: [...merchant.currencies],
    });
  }
}

const isAborted = (error: unknown) => (isApiError(error) && error.kind === 'aborted') || (error instanceof DOMException && error.name === 'AbortError');

type Runtime = { alive: boolean; lists: AbortController; search: AbortController | null; timer: ReturnType<typeof setTimeout> | null };

export type UseContextFlowOptions = {
  policy: AuthorizationPolicy;
  preferredRoute: string;
  onClose?: (() => void) | undefined;
};

export function useContextFlow({ policy, preferredRoute, onClose }: UseContextFlowOptions) {
  const services = useContextPanelServices();
  const queryClient = useQueryClient();
  // Opened once: a new policy is a new panel (the caller keys it by user); a later route arrives as an event below.
  const [initial] = useState<Transition>(() => open(policy, preferredRoute));
  const [state, setState] = useState<FlowState>(initial.state);
  const stateRef = useRef(state);
  const latest = useRef({ services, queryClient, onClose });
  latest.current = { services, queryClient, onClose };

  // Per mount: the in-flight work that unmounting cancels (StrictMode mounts twice; the second run starts over).
  const runtime = useRef<Runtime | null>(null);

  const dispatchRef = useRef<(event: FlowEvent) => void>(() => undefined);

  const run = useCallback((effect: Effect) => {
    const live = runtime.current;
    if (!live?.alive) return;
    const {
      services: { data, navigate },
      queryClient: client,
    } = latest.current;
    const dispatch = (event: FlowEvent) => {
      if (live.alive) dispatchRef.current(event);
    };
    switch (effect.type) {
      case 'loadBusinesses':
        data.businesses(effect.query, live.lists.signal).then(
          (page) => dispatch({ type: 'businessesLoaded', requestId: effect.requestId, page }),
          (error: unknown) => {
            if (!isAborted(error)) dispatch({ type: 'businessesFailed', requestId: effect.requestId });
          },
        );
        return;
      case 'loadMerchants':
        data.merchants(effect.businessId, effect.query, live.lists.signal).then(
          (page) => dispatch({ type: 'merchantsLoaded', requestId: effect.requestId, page }),
          (error: unknown) => {
            if (!isAborted(error)) dispatch({ type: 'merchantsFailed', requestId: effect.requestId });
          },
        );
        return;
      case 'scheduleSearch':
        if (live.timer) clearTimeout(live.timer);
        live.timer = setTimeout(() => {
          live.timer = null;
          dispatch({ type: 'searchDue', requestId: effect.requestId });
        }, effect.delayMs);
        return;
      case 'search': {
        if (live.timer) clearTimeout(live.timer);
        live.timer = null;
        // An earlier search still on its way is cancelled: its answer could only be out of date.
        live.search?.abort();
        const controller = new AbortController();
        live.search = controller;
        data.search(effect.searchTerm, effect.query, controller.signal).then(
          (page) => dispatch({ type: 'searchLoaded', requestId: effect.requestId, page }),
          (error: unknown) => {
            if (!isAborted(error)) dispatch({ type: 'searchFailed', requestId: effect.requestId });
          },
        );
        return;
      }
      case 'cancelSearch':
        if (live.timer) clearTimeout(live.timer);
        live.timer = null;
        live.search?.abort();
        live.search = null;
        return;
      case 'lookUpDetails':
        Promise.all([
          data.business(effect.businessId),
          effect.merchantId === null ? Promise.resolve(null) : data.merchant(effect.businessId, effect.merchantId),
        ]).then(
          ([business, merchant]) => dispatch({ type: 'detailsLookedUp', business, merchant }),
          (error: unknown) =>
            dispatch({
              type: 'detailsFailed',
              message:
                isApiError(error) && error.status === 404
                  ? contextMessages.recordNotFound
                  : (isApiError(error) && error.messages[0]) || contextMessages.loadFailed,
            }),
        );
        return;
      case 'loadConfigurations':
        data.configurations(effect.businessId, effect.merchantId).then(
          (configurations) => dispatch({ type: 'configurationsLoaded', configurations }),
          () => dispatch({ type: 'configurationsFailed' }),
        );
        return;
      case 'addRecent':
        // Saved in the background: the navigation does not wait, and a failure has its toast from the client.
        rememberRecent(data, client, effect.item).catch(() => undefined);
        return;
      case 'close':
        latest.current.onClose?.();
        return;
      case 'navigate':
        rememberSelections(effect.selections);
        navigate(contextApplyPath(effect.route, effect.selections), { replace: effect.replace });
        return;
    }
  }, []);

  const dispatch = useCallback(
    (event: FlowEvent) => {
      const next = reduce(stateRef.current, event);
      if (next.state !== stateRef.current) {
        stateRef.current = next.state;
        setState(next.state);
      }
      for (const effect of next.effects) run(effect);
    },
    [run],
  );
  dispatchRef.current = dispatch;

  useEffect(() => {
    const live: Runtime = { alive: true, lists: new AbortController(), search: null, timer: null };
    runtime.current = live;
    // Start over from the opening transition (a StrictMode remount drops the first run's answers).
    stateRef.current = initial.state;
    setState(initial.state);
    for (const effect of initial.effects) run(effect);
    return () => {
      live.alive = false;
      live.lists.abort();
      live.search?.abort();
      if (live.timer) clearTimeout(live.timer);
    };
  }, [run, initial]);

  // The route may arrive after the panel opened (a pane's query settles a render later): the latest one counts.
  useEffect(() => {
    dispatch({ type: 'preferredRouteChanged', route: preferredRoute });
  }, [dispatch, preferredRoute]);

  return useMemo(() => ({ state, dispatch }), [state, dispatch]);
}
