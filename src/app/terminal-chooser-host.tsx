// Shows the virtual terminal's 'which configuration?' question when a command asks it; the dialog loads on first need.
import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { terminalChooserStore, type TerminalQuestion } from '../state/terminal-chooser-store.ts';

const TerminalChooser = lazy(() => import('./terminal-chooser.tsx').then((module) => ({ default: module.TerminalChooser })));

export function TerminalChooserHost() {
  const { question } = useSnapshot(terminalChooserStore);
  if (!question) return null;
  return (
    <Suspense fallback={null}>
      <TerminalChooser question={question as TerminalQuestion} />
    </Suspense>
  );
}
