// The landing screen after sign-in. The statistics dashboard (interval selector, chart) is another issue's
// work; until then this pane says so plainly and offers the ways on.
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { sessionStore } from '../../src/state/session-store.ts';
import '../panes.css';

function contextLabel(applied: ContextSelections): string {
  const parts = [applied.partner?.title, applied.business?.title, applied.merchant?.title, applied.configuration?.title].filter(Boolean);
  return parts.length > 0 ? parts.join(' › ') : 'no context';
}

export function DashboardPane() {
  const { userInfo } = useSnapshot(sessionStore);
  const { applied } = useSnapshot(contextStore);
  const name = userInfo?.given_name ?? userInfo?.name ?? userInfo?.email ?? '';
  return (
    <div className="pane-content">
      <h1>Dashboard</h1>
      <p className="pane-lead">{name ? `Welcome, ${name}.` : 'Welcome.'} You are working in {contextLabel(applied as ContextSelections)}.</p>
      <div className="pane-notice" role="note">
        <h2>Statistics are not built yet</h2>
        <p>The statistics dashboard (volume, revenue and sales per day, week, month or year, with a comparison to last year) is part of a later release.</p>
      </div>
      <h2 className="pane-subheading">Get around from the keyboard</h2>
      <ul className="pane-tips">
        <li><kbd>Ctrl</kbd> <kbd>K</kbd> opens the command palette: go anywhere, run any action, look up a transaction, payment job, business or merchant.</li>
        <li><kbd>G</kbd> then <kbd>T</kbd> goes to transactions, <kbd>G</kbd> then <kbd>D</kbd> back to this dashboard.</li>
        <li><kbd>Ctrl</kbd> <kbd>\</kbd> opens this view again in a pane beside it; <kbd>Ctrl</kbd> <kbd>]</kbd> and <kbd>Ctrl</kbd> <kbd>[</kbd> move between panes.</li>
        <li><kbd>?</kbd> lists every shortcut you can use right now.</li>
      </ul>
    </div>
  );
}
