// The applied working context, persisted in session storage (spec: the applied context is persisted).
// No arktype here: the shell's first load stays small, so restoring checks the shape by hand.
// Shared by the tabs of the browser session: a tab that applies a context says so on a
// BroadcastChannel; a new tab without one asks, and the open tabs answer with the last context applied in any of
// them. Never in local storage: nothing outlives the tabs (or a sign-out, which clears each tab's).
import { proxy, subscribe } from 'valtio';
import type { ContextSelections } from '../contract/context.ts';

const storageKey = 'portal.context';

function restore(): ContextSelections {
  try {
    const raw = globalThis.sessionStorage?.getItem(storageKey);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    return isSelections(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isSelection(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { id, title } = value as { id?: unknown; title?: unknown };
  return (id === null || typeof id === 'string') && typeof title === 'string';
}

function isSelections(value: unknown): value is ContextSelections {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['partner', 'business', 'merchant', 'configuration'].every((key) => isSelection(record[key]));
}

/**
 * `previous`: the context a visible switch left (opening a record of another merchant from the palette), for 'Back to
 * <previous context>'; null once the person has gone back or chosen a context otherwise. Not persisted.
 */
export const contextStore = proxy<{ applied: ContextSelections; previous: ContextSelections | null }>({ applied: restore(), previous: null });

const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('portal-context') : null;
/** the last context applied in any tab */
let lastApplied: ContextSelections = restore();
/** a tab opened without a context asks once and takes the first answer (not a later context of another tab) */
let asking = false;

subscribe(contextStore, () => {
  const json = JSON.stringify(contextStore.applied);
  globalThis.sessionStorage?.setItem(storageKey, json);
  // A plain copy: the store's proxy cannot be posted.
  lastApplied = JSON.parse(json) as ContextSelections;
  tabs?.postMessage({ applied: lastApplied });
});

if (tabs) {
  tabs.onmessage = ({ data }: MessageEvent<{ applied?: unknown }>) => {
    if (!data.applied) {
      if (hasSelectedContext(lastApplied)) tabs.postMessage({ applied: lastApplied });
    } else if (isSelections(data.applied)) {
      lastApplied = data.applied;
      // A tab still without a context (just opened) takes it.
      if (asking && !hasSelectedContext(contextStore.applied) && hasSelectedContext(lastApplied)) contextStore.applied = lastApplied;
      asking = false;
    }
  };
  if (!hasSelectedContext(contextStore.applied)) {
    asking = true;
    tabs.postMessage({});
    setTimeout(() => {
      asking = false;
    }, 3000);
  }
}

export function applyContext(selections: ContextSelections): void {
  contextStore.applied = selections;
  contextStore.previous = null;
}

export function clearContext(): void {
  contextStore.applied = {};
  contextStore.previous = null;
}

/** A switch the person is told about and can undo: the context left is kept for 'Back to <previous context>'. */
export function switchContextVisibly(selections: ContextSelections): void {
  const previous = JSON.parse(JSON.stringify(contextStore.applied)) as ContextSelections;
  contextStore.applied = selections;
  contextStore.previous = hasSelectedContext(previous) ? previous : null;
}

/** Undoes a visible switch: the context left is applied again. False when there is nothing to go back to. */
export function backToPreviousContext(): boolean {
  const { previous } = contextStore;
  if (!previous) return false;
  applyContext(JSON.parse(JSON.stringify(previous)) as ContextSelections);
  return true;
}

/** A context as people read it: 'Business › Merchant', the partner's name, or the business alone. */
export function contextTitle(selections: ContextSelections): string {
  const { partner, business, merchant } = selections;
  const names = [business?.id ? business.title : null, merchant?.id ? merchant.title : null].filter((name): name is string => Boolean(name));
  if (names.length > 0) return names.join(' › ');
  return partner?.id ? partner.title : '';
}

/** A context is selected when at least one selection has a defined id. */
export function hasSelectedContext(selections: ContextSelections): boolean {
  return [selections.partner, selections.business, selections.merchant].some((selection) => selection?.id != null);
}

/** The Portal API path prefix for the applied context ({context} in the spec). */
export function contextPath(selections: ContextSelections): string | null {
  const { partner, business, merchant } = selections;
  if (business?.id && merchant?.id) return `/businesses/${encodeURIComponent(business.id)}/merchants/${encodeURIComponent(merchant.id)}`;
  if (business?.id) return `/businesses/${encodeURIComponent(business.id)}`;
  if (partner?.id) return `/partners/${encodeURIComponent(partner.id)}`;
  return null;
}
