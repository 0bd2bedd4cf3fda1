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

  it('says the time is up from the clock, before its timer has fired (a timer late under load)', () => {
    let now = Date.now();
    const onTimeout = vi.fn();
    const monitor = startInactivityMonitor({
      ...defaultInactivityTimings,
      target: new EventTarget() as unknown as Window,
      now: () => now,
      onWarn: vi.fn(),
      onTimeout,
    });
    now += 15 * 60_000 - 1;
    expect(monitor.timedOut()).toBe(false);
    now += 1;
    expect(monitor.timedOut()).toBe(true);
    expect(onTimeout).not.toHaveBeenCalled();
    monitor.heard(now);
    expect(monitor.timedOut()).toBe(false);
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

describe('inactivity shared by the tabs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Two tabs: each tab's activity is told to the other, as the BroadcastChannel of InactivityWatch does. */
  function twoTabs() {
    const tabs = [0, 1].map(() => ({ target: new EventTarget(), onWarn: vi.fn(), onTimeout: vi.fn(), onResume: vi.fn() }));
    const monitors: ReturnType<typeof startInactivityMonitor>[] = [];
    tabs.forEach((tab, index) => {
      monitors.push(
        startInactivityMonitor({
          ...defaultInactivityTimings,
          target: tab.target as unknown as Window,
          now: () => Date.now(),
          onWarn: tab.onWarn,
          onTimeout: tab.onTimeout,
          onResume: tab.onResume,
          onActivity: (at) => monitors[1 - index]?.heard(at),
        }),
      );
    });
    return { tabs, monitors };
  }

  it('activity in one tab keeps the other signed in', () => {
    const { tabs, monitors } = twoTabs();
    vi.advanceTimersByTime(10 * 60_000);
    tabs[0]?.target.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(tabs[1]?.onWarn).not.toHaveBeenCalled();
    expect(tabs[1]?.onTimeout).not.toHaveBeenCalled();
    for (const monitor of monitors) monitor.stop();
  });

  it('Stay signed in in one tab ends the warning in the other', () => {
    const { tabs, monitors } = twoTabs();
    vi.advanceTimersByTime(14 * 60_000 + 10_000);
    expect(tabs[0]?.onWarn).toHaveBeenCalled();
    expect(tabs[1]?.onWarn).toHaveBeenCalled();
    monitors[0]?.stayActive();
    expect(tabs[1]?.onResume).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2 * 60_000);
    expect(tabs[1]?.onTimeout).not.toHaveBeenCalled();
    for (const monitor of monitors) monitor.stop();
  });
});
