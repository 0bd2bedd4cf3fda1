import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachWhenIdle } from '../../src/ui/when-idle.ts';

/** A browser whose idle periods the test hands out, each with the time it says is left. */
function idleBrowser() {
  const waiting: IdleRequestCallback[] = [];
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => waiting.push(callback));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => {
    waiting[handle - 1] = () => undefined;
  });
  return {
    pending: () => waiting.length,
    /** one idle period: `remaining` is what timeRemaining() answers, call after call */
    idle: (...remaining: number[]) => {
      const callback = waiting.shift();
      let call = 0;
      callback?.({ didTimeout: false, timeRemaining: () => remaining[Math.min(call++, remaining.length - 1)] ?? 0 });
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('eachWhenIdle', () => {
  it('runs the steps in order, as many in an idle period as its time allows and at least one', () => {
    const browser = idleBrowser();
    const ran: number[] = [];
    eachWhenIdle([1, 2, 3, 4, 5].map((step) => () => ran.push(step)));
    expect(ran).toEqual([]);
    browser.idle(0);
    expect(ran).toEqual([1]);
    browser.idle(12, 8, 2);
    expect(ran).toEqual([1, 2, 3, 4]);
    browser.idle(30);
    expect(ran).toEqual([1, 2, 3, 4, 5]);
    expect(browser.pending()).toBe(0);
  });

  it('runs no more than maxPerSlice steps in one idle period, however long it is', () => {
    const browser = idleBrowser();
    const ran: number[] = [];
    eachWhenIdle(
      [1, 2, 3, 4, 5].map((step) => () => ran.push(step)),
      { maxPerSlice: 2 },
    );
    browser.idle(50);
    expect(ran).toEqual([1, 2]);
    browser.idle(50);
    expect(ran).toEqual([1, 2, 3, 4]);
    browser.idle(50);
    expect(ran).toEqual([1, 2, 3, 4, 5]);
  });

  it('runs nothing more once cancelled', () => {
    const browser = idleBrowser();
    const ran: number[] = [];
    const cancel = eachWhenIdle([1, 2, 3].map((step) => () => ran.push(step)));
    browser.idle(0);
    cancel();
    browser.idle(50);
    expect(ran).toEqual([1]);
  });

  it('asks for no idle period when there is nothing to run', () => {
    const browser = idleBrowser();
    eachWhenIdle([]);
    expect(browser.pending()).toBe(0);
  });
});
