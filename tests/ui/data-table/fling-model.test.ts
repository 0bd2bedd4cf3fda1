import { describe, expect, it } from 'vitest';
import { flingRows, initialWindowMemory, planWindow, rememberWindow, settleMs, type WindowMemory } from '../../../src/ui/data-table/fling-model.ts';

const keys = (from: number, count: number) => Array.from({ length: count }, (_, index) => `R${from + index}`);

/** Commits windows one after another at the given times, as the table does, and returns each plan. */
function scroll(windows: { start: number; at: number }[], keep?: string, size = 30) {
  let memory: WindowMemory = initialWindowMemory;
  return windows.map(({ start, at }) => {
    const window = keys(start, size);
    const plan = planWindow(window, start, memory, keep, at);
    memory = rememberWindow(window, start, plan, memory, at);
    return plan;
  });
}

describe('planWindow', () => {
  it('draws a single jump in full, however far (End, a deep link)', () => {
    const [first, jump] = scroll([
      { start: 0, at: 0 },
      { start: 9_970, at: 500 },
    ]);
    expect(first?.placeholders.size).toBe(0);
    expect(jump?.placeholders.size).toBe(0);
    expect(jump?.jump).toBe(true);
  });

  it('draws rows new to the window as placeholders from the second jump of a fling on, and keeps rows already drawn', () => {
    const [, first, second, third] = scroll([
      { start: 0, at: 0 },
      { start: 22, at: 1_000 },
      { start: 44, at: 1_020 },
      { start: 66, at: 1_040 },
    ]);
    expect(first?.placeholders.size).toBe(0);
    // The second window, rows 44–73: 44–51 were drawn in full by the first and stay so; 52–73 are new.
    expect([...(second?.placeholders ?? [])]).toEqual(keys(52, 22));
    // The third: rows 66–73 were placeholders and still are (none of them was drawn in full), 74–95 are new.
    expect([...(third?.placeholders ?? [])]).toEqual(keys(66, 30));
  });

  it('does not count the first window drawn as a jump', () => {
    const [first, scrolled] = scroll([
      { start: 0, at: 0 },
      { start: 40, at: 10 },
    ]);
    expect(first?.jump).toBe(false);
    expect(scrolled?.placeholders.size).toBe(0);
  });

  it('draws scrolling a few rows at a time in full, however fast', () => {
    const plans = scroll(Array.from({ length: 20 }, (_, step) => ({ start: step * flingRows, at: step * 16 })));
    expect(plans.every((plan) => plan.placeholders.size === 0)).toBe(true);
  });

  it('draws every row once the window is still, and after a pause longer than the settling time', () => {
    let memory: WindowMemory = initialWindowMemory;
    const commit = (start: number, at: number) => {
      const window = keys(start, 30);
      const plan = planWindow(window, start, memory, undefined, at);
      memory = rememberWindow(window, start, plan, memory, at);
      return plan;
    };
    commit(0, 0);
    commit(30, 100);
    expect(commit(60, 110).placeholders.size).toBe(30);
    // The same window again (the settling render): every row in full.
    expect(commit(60, 110 + settleMs + 10).placeholders.size).toBe(0);
    commit(90, 1_000);
    // A jump more than settleMs after the previous one starts afresh.
    expect(commit(120, 1_000 + settleMs + 1).placeholders.size).toBe(0);
  });

  it('always draws the cursor row in full (focus goes to it)', () => {
    const [, , second] = scroll(
      [
        { start: 0, at: 0 },
        { start: 30, at: 10 },
        { start: 60, at: 20 },
      ],
      'R70',
    );
    expect(second?.placeholders.has('R70')).toBe(false);
    expect(second?.placeholders.has('R71')).toBe(true);
  });
});
