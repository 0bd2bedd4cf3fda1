// The applied working context, persisted in session storage (spec: the applied context is persisted).
// No arktype here: the shell's first load stays small, so restoring checks the shape by hand.
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

export const contextStore = proxy<{ applied: ContextSelections }>({ applied: restore() });

subscribe(contextStore, () => {
  globalThis.sessionStorage?.setItem(storageKey, JSON.stringify(contextStore.applied));
});

export function applyContext(selections: ContextSelections): void {
  contextStore.applied = selections;
}

export function clearContext(): void {
  contextStore.applied = {};
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
