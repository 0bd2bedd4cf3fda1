// 'Switch context': the context selection panel (src/context/) as a dialog over the current screen. It
// applies through /context/apply and comes back to the current URL, panes and all.
import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { closeOverlay, shellStore } from '../state/shell-store.ts';
import { currentBrowserUrl } from './app-navigation.ts';

const ContextSelectionPanel = lazy(() => import('../context/context-selection-panel.tsx').then((module) => ({ default: module.ContextSelectionPanel })));

export function ContextSwitcherDialog() {
  const { contextSwitcherOpen } = useSnapshot(shellStore);
  if (!contextSwitcherOpen) return null;
  return (
    <Suspense fallback={null}>
      <ContextSelectionPanel mode="dialog" preferredRoute={currentBrowserUrl()} onClose={() => closeOverlay('contextSwitcher')} />
    </Suspense>
  );
}
