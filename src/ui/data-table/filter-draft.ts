// Typed filters (a search, a name, an amount): what the user types is a draft that applies 400 ms after the last key
// (or at once on Enter), and that follows the applied value when it changes elsewhere (a preset, Back, a link).
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';

export const filterDebounceMs = 400;

/**
 * A draft of an applied filter value. `matches` says whether the draft already means the applied value (then a change
 * of the applied value leaves the text as typed); otherwise the draft becomes `fromApplied(applied)`.
 */
export function useFilterDraft<Draft>(
  applied: string,
  fromApplied: (applied: string) => Draft,
  matches: (draft: Draft, applied: string) => boolean,
): [Draft, Dispatch<SetStateAction<Draft>>] {
  const [draft, setDraft] = useState(() => fromApplied(applied));
  // Adjusted while rendering rather than in an effect: the draft never shows the old value for a frame.
  const [seen, setSeen] = useState(applied);
  if (seen !== applied) {
    setSeen(applied);
    if (!matches(draft, applied)) setDraft(fromApplied(applied));
  }
  return [draft, setDraft];
}

/** Runs `apply` once the draft (by its key) has rested `delayMs` and still differs from what is applied. */
export function useDebouncedApply(draftKey: string, appliedKey: string, apply: () => void, delayMs = filterDebounceMs): void {
  const latest = useRef(apply);
  useEffect(() => {
    latest.current = apply;
  });
  useEffect(() => {
    if (draftKey === appliedKey) return undefined;
    const timer = setTimeout(() => latest.current(), delayMs);
    return () => clearTimeout(timer);
  }, [draftKey, appliedKey, delayMs]);
}
