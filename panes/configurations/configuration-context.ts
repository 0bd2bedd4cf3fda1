// What the configuration screens need from the applied context: the merchant they work in and the permissions
// there. Configurations live under a merchant, so without one the screens ask the user to choose it first.
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';

export type MerchantContext = { businessId: string; merchantId: string; merchantTitle: string; can: (permission: string) => boolean } | null;

export function useMerchantContext(): MerchantContext {
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const selections = applied as ContextSelections;
  const businessId = selections.business?.id;
  const merchantId = selections.merchant?.id;
  if (!businessId || !merchantId) return null;
  const granted = session.permissions[permissionScope(selections).key] ?? [];
  return { businessId, merchantId, merchantTitle: selections.merchant?.title ?? merchantId, can: (permission) => granted.includes(permission) };
}

/** The wizard's step index moves up, down or to a given step (spec), and stays within the steps. */
export type WizardMove = { kind: 'next' } | { kind: 'previous' } | { kind: 'to'; step: number };
export function moveWizardStep(current: number, move: WizardMove, stepCount: number): number {
  const target = move.kind === 'next' ? current + 1 : move.kind === 'previous' ? current - 1 : move.step;
  return Math.min(Math.max(Number.isInteger(target) ? target : current, 0), stepCount - 1);
}
