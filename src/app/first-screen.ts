// "The first screen has settled": the page has loaded, no query is fetching, nothing on screen says it is busy
// (skeletons and loading placeholders carry aria-busy), and that has held for a quiet moment. Work the first
// screen does not need (the palette's chunk, the response validator) waits for it, so it never competes with what
// the user is waiting for; a ceiling makes sure it happens anyway.
import { whenIdle } from '../ui/when-idle.ts';

export const pollMs = 100;
export const quietMs = 300;
export const ceilingMs = 8_000;

export type SettleProbe = {
  /** The document has loaded. */
  loaded: () => boolean;
  /** Queries in flight. */
  fetching: () => number;
  /** Something on screen is still loading. */
  busy: () => boolean;
};

export function browserProbe(fetching: () => number): SettleProbe {
  return {
    loaded: () => document.readyState === 'complete',
    fetching,
    busy: () => document.querySelector('[aria-busy="true"]') !== null,
  };
}

/** Calls `work` once, when the first screen has settled (or after the ceiling). Returns a cancel function. */
export function afterFirstScreen(probe: SettleProbe, work: () => void, schedule: (work: () => void) => void = whenIdle): () => void {
  let quietFor = 0;
  let elapsed = 0;
  const timer = window.setInterval(() => {
    elapsed += pollMs;
    const settled = probe.loaded() && probe.fetching() === 0 && !probe.busy();
    quietFor = settled ? quietFor + pollMs : 0;
    if (quietFor >= quietMs || elapsed >= ceilingMs) {
      window.clearInterval(timer);
      schedule(work);
    }
  }, pollMs);
  return () => window.clearInterval(timer);
}
