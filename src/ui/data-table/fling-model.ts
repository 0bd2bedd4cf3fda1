// Which rows of the table's window are drawn in full and which as placeholders, pure.
//
// A row costs the browser about a millisecond to build, style, lay out and paint. Scrolling a line or a page at a
// time brings a handful of rows per frame; a fling of the wheel or a drag of the scrollbar brings a screenful every
// frame, faster than anyone reads, and drawing each in full held the main thread for 25–35 ms a frame (over 50 ms
// when two frames' scrolling arrived together). So: when the window moves by more than `flingRows` new rows twice
// within `settleMs`, the rows new to it are drawn as placeholders of the same height, and once the window has been
// still for `settleMs` every row is drawn in full. A single jump (End, a page of results, a deep link to row 5,000)
// is drawn in full at once; the cursor row is always drawn in full, since focus goes to it.

export const flingRows = 12;
export const settleMs = 120;

export type WindowMemory = {
  /** the keys drawn in full at the last commit */
  full: ReadonlySet<string>;
  /** the first row index of the last commit's window */
  start: number;
  /** when the window last jumped by more than flingRows new rows */
  jumpedAt: number;
};

export const initialWindowMemory: WindowMemory = { full: new Set(), start: -1, jumpedAt: Number.NEGATIVE_INFINITY };

export type WindowPlan = {
  /** keys to draw as placeholders */
  placeholders: ReadonlySet<string>;
  /** whether this window is a jump (remembered as jumpedAt when it commits) */
  jump: boolean;
};

const none: ReadonlySet<string> = new Set();

export function planWindow(keys: readonly string[], start: number, memory: WindowMemory, keep: string | undefined, now: number): WindowPlan {
  // A render with the window where it was (a cursor move, new props) draws every row: placeholders exist only
  // while the window is moving.
  if (start === memory.start) return { placeholders: none, jump: false };
  const incoming = keys.filter((key) => !memory.full.has(key));
  // The first window drawn is not a jump: a scroll just after the table appears is drawn in full.
  const jump = memory.start >= 0 && incoming.length > flingRows;
  if (!jump || now - memory.jumpedAt > settleMs) return { placeholders: none, jump };
  return { placeholders: new Set(incoming.filter((key) => key !== keep)), jump };
}

export function rememberWindow(keys: readonly string[], start: number, plan: WindowPlan, memory: WindowMemory, now: number): WindowMemory {
  return {
    full: new Set(plan.placeholders.size === 0 ? keys : keys.filter((key) => !plan.placeholders.has(key))),
    start,
    jumpedAt: plan.jump ? now : memory.jumpedAt,
  };
}
