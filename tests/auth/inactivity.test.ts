// Inactivity: a warning one minute before, sign-out at fifteen minutes; activity is sampled (0.5 s for
// clicks and keys, 1 s for mouse moves) and ignored while the warning shows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultInactivityTimings, startInactivityMonitor } from '../../src/auth/inactivity.ts';

describe('inactivity monitor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start() {
    const target = new EventTarget();
    const onWarn = vi.fn();
    const onTimeout = vi.fn();
    const monitor = startInactivityMonitor({ ...defaultInactivityTimings, target: target as unknown as Window, now: () => Date.now(), onWarn, onTimeout });
    return { target, onWarn, onTimeout, monitor };
  }

  it('warns after 14 minutes and signs out after 15', () => {
    const { onWarn, onTimeout, monitor } = start();
    vi.advanceTimersByTime(14 * 60_000 - 1);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledWith(60_000);
    vi.advanceTimersByTime(60_000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    monitor.stop();
  });

  it('restarts the clock on activity', () => {
    const { target, onWarn, onTimeout, monitor } = start();
    vi.advanceTimersByTime(10 * 60_000);
    target.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(4 * 60_000);
    expect(onWarn).toHaveBeenCalled();
    expect(onTimeout).not.toHaveBeenCalled();
    monitor.stop();
  });

  it('samples clicks at most every 0.5 s and mouse moves every 1 s', () => {
    const { target, onWarn, monitor } = start();
    vi.advanceTimersByTime(13 * 60_000);
    target.dispatchEvent(new Event('mousemove'));
    vi.advanceTimersByTime(500);
    target.dispatchEvent(new Event('mousemove'));
    // The second move (0.5 s later) was not counted: the clock restarted at the first.
    vi.advanceTimersByTime(14 * 60_000 - 500);
    expect(onWarn).toHaveBeenCalledTimes(1);
    monitor.stop();
  });

  it('ignores activity during the warning; Stay signed in restarts', () => {
    const { target, onWarn, onTimeout, monitor } = start();
    vi.advanceTimersByTime(14 * 60_000);
    expect(onWarn).toHaveBeenCalledTimes(1);
    target.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(30_000);
    monitor.stayActive();
    vi.advanceTimersByTime(60_000);
    expect(onTimeout).not.toHaveBeenCalled();
    vi.advanceTimersByTime(14 * 60_000);
    expect(onWarn).toHaveBeenCalledTimes(2);
    monitor.stop();
  });

  it('signs out at once when the page comes back after the deadline (a sleeping laptop)', () => {
    let now = 0;
    const target = new EventTarget();
    const onTimeout = vi.fn();
    startInactivityMonitor({ ...defaultInactivityTimings, target: target as unknown as Window, now: () => now, onWarn: vi.fn(), onTimeout });
    now = 20 * 60_000;
    target.dispatchEvent(new Event('visibilitychange'));
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });
});
