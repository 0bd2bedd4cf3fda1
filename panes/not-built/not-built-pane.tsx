// An honest placeholder for screens of a later release: the route exists and is guarded like any other.
import { notBuiltMessage } from '../../src/contract/messages.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import '../panes.css';

export function NotBuiltPane({ capability }: PaneProps) {
  return (
    <div className="pane-content pane-message">
      <h1>{capability}</h1>
      <p className="pane-message-text">{notBuiltMessage(capability)}</p>
      <p className="pane-message-hint">
        Press <kbd>Ctrl</kbd> <kbd>K</kbd> to go somewhere else, or <kbd>?</kbd> for the keyboard shortcuts.
      </p>
    </div>
  );
}
