// "The first screen has settled": loaded, nothing fetching, nothing busy, for a quiet moment; or the ceiling.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen, ceilingMs, pollMs, quietMs, type SettleProbe } from '../../src/app/first-screen.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const probe = (state: { loaded: boolean; fetching: number; busy: boolean }): SettleProbe => ({
  loaded: () => state.loaded,
  fetching: () => state.fetching,
  busy: () => state.busy,
});
const now = (work: () => void) => work();

describe('afterFirstScreen', () => {
  it('waits for the page, the queries and the placeholders, then a quiet moment', () => {
    const state = { loaded: false, fetching: 2, busy: true };
    const work = vi.fn();
    afterFirstScreen(probe(state), work, now);
    vi.advanceTimersByTime(1_000);
    state.loaded = true;
    vi.advanceTimersByTime(1_000);
    state.fetching = 0;
    vi.advanceTimersByTime(1_000);
    expect(work).not.toHaveBeenCalled();
    state.busy = false;
    vi.advanceTimersByTime(quietMs - pollMs);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(pollMs);
    expect(work).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(ceilingMs);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('starts the quiet moment again when a query starts in between (a pane that loads after the shell)', () => {
    const state = { loaded: true, fetching: 0, busy: false };
    const work = vi.fn();
    afterFirstScreen(probe(state), work, now);
    vi.advanceTimersByTime(quietMs - pollMs);
    state.fetching = 1;
    vi.advanceTimersByTime(pollMs * 3);
    state.fetching = 0;
    vi.advanceTimersByTime(quietMs - pollMs);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(pollMs);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs at the ceiling when the screen never settles, and not at all when cancelled', () => {
    const busy = { loaded: true, fetching: 1, busy: true };
    const work = vi.fn();
    afterFirstScreen(probe(busy), work, now);
    vi.advanceTimersByTime(ceilingMs - pollMs);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(pollMs);
    expect(work).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const cancel = afterFirstScreen(probe({ loaded: true, fetching: 0, busy: false }), cancelled, now);
    cancel();
    vi.advanceTimersByTime(ceilingMs);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
