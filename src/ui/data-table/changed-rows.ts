// Rows that changed in place (a refetch after a live event, or any refresh): marked for a moment so the eye finds
// them, without moving the cursor or the scroll. A row counts as changed when a row with the same key was shown
// before with other content; rows new to the view (another page, another filter) are not marked.
import { useEffect, useRef, useState } from 'react';

export const changedRowMs = 2000;

/** The keys whose content differs between two views of the same rows (pure; the hook below keeps the memory). */
export function changedKeys(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): Set<string> {
  const changed = new Set<string>();
  for (const [key, signature] of after) {
    const previous = before.get(key);
    if (previous !== undefined && previous !== signature) changed.add(key);
  }
  return changed;
}

function signaturesOf<Row>(rows: readonly Row[], rowKey: (row: Row) => string): Map<string, string> {
  const signatures = new Map<string, string>();
  for (const row of rows) signatures.set(rowKey(row), JSON.stringify(row) ?? '');
  return signatures;
}

/** The keys of rows that changed within the last changedRowMs. */
export function useChangedRows<Row>(rows: readonly Row[], rowKey: (row: Row) => string): ReadonlySet<string> {
  const previous = useRef<{ rows: readonly Row[]; signatures: Map<string, string> } | null>(null);
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (previous.current?.rows === rows) return;
    const signatures = signaturesOf(rows, rowKey);
    const found = previous.current ? changedKeys(previous.current.signatures, signatures) : new Set<string>();
    previous.current = { rows, signatures };
    if (found.size === 0) return;
    setChanged(found);
    const timer = setTimeout(() => setChanged(new Set()), changedRowMs);
    return () => clearTimeout(timer);
  }, [rows, rowKey]);
  return changed;
}
