// What is selected in a table and what can be done with it: '3 selected' or 'All 12,408 matching selected', the
// choice to select every row matching the filters (not only this page), a clear action (Esc while the bar or the
// table has focus, or the 'Clear selection' command) and the screen's bulk actions.
import type { ReactNode } from 'react';
import { formatCount } from './pagination-model.ts';
import { hasSelection, selectedCount, type RowSelection } from './selection-model.ts';

export type SelectionBarProps = {
  selection: RowSelection;
  /** rows matching the filters */
  total: number;
  /** 'payment jobs' */
  noun: string;
  onSelectAllMatching: () => void;
  onClear: () => void;
  /** the bulk action buttons */
  children?: ReactNode;
};

export function selectionText(selection: RowSelection, total: number): string {
  const count = selectedCount(selection, total);
  if (selection.allMatching && selection.excluded.size === 0) return `All ${formatCount(total)} matching selected`;
  return `${formatCount(count)} selected`;
}

export function SelectionBar({ selection, total, noun, onSelectAllMatching, onClear, children }: SelectionBarProps) {
  const selected = hasSelection(selection);
  // The count is one live region that is always there, so its first change is announced too.
  const count = (
    <p className={selected ? 'selection-count' : 'visually-hidden'} role="status" aria-live="polite">
      {selected ? selectionText(selection, total) : ''}
    </p>
  );
  if (!selected) return count;
  return (
    <div
      className="selection-bar"
      role="region"
      aria-label="Selection"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClear();
        }
      }}
    >
      {count}
      {!selection.allMatching && total > selectedCount(selection, total) ? (
        <button type="button" className="button button-ghost" onClick={onSelectAllMatching}>
          Select all {formatCount(total)} matching {noun}
        </button>
      ) : null}
      <button type="button" className="button button-ghost" onClick={onClear}>
        Clear selection
      </button>
      <div className="selection-actions">{children}</div>
    </div>
  );
}
