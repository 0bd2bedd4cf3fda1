// The listbox pattern's movement keys, shared by the pop-ups' lists (choice filters, date presets, filter
// presets, the dashboard's periods): the index a key moves to, or null when the key is not a movement key. Stops at
// the ends (no wrapping), as the WAI-ARIA listbox does by default.
export type RovingOrientation = 'vertical' | 'horizontal' | 'both';

export function rovingTarget(key: string, index: number, count: number, orientation: RovingOrientation = 'vertical'): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  const next = orientation === 'horizontal' ? ['ArrowRight'] : orientation === 'vertical' ? ['ArrowDown'] : ['ArrowDown', 'ArrowRight'];
  const previous = orientation === 'horizontal' ? ['ArrowLeft'] : orientation === 'vertical' ? ['ArrowUp'] : ['ArrowUp', 'ArrowLeft'];
  if (next.includes(key)) return Math.min(last, index + 1);
  if (previous.includes(key)) return Math.max(0, index - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

/**
 * Type-ahead, one character at a time: the next item after `index` whose label starts with `key` (wrapping, so pressing
 * 'l' again goes on to the next 'L…'), or null for a key that is not one printable character or matches nothing.
 */
export function typeaheadTarget(key: string, index: number, labels: readonly string[]): number | null {
  if (key.length !== 1 || key === ' ') return null;
  const wanted = key.toLocaleLowerCase('en-GB');
  for (let step = 1; step <= labels.length; step += 1) {
    const at = (index + step) % labels.length;
    if ((labels[at] ?? '').trim().toLocaleLowerCase('en-GB').startsWith(wanted)) return at;
  }
  return null;
}
