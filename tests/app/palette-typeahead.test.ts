// Keys typed between Ctrl+K and the palette's arrival are kept for its query, not lost to the page; an Enter is
// kept too (to run the first result) and ends the catching.
import { afterEach, describe, expect, it } from 'vitest';
import { startTypeahead, takeTypeahead } from '../../src/app/palette-typeahead.ts';

const press = (key: string, init: KeyboardEventInit = {}) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  document.body.dispatchEvent(event);
  return event;
};

afterEach(() => {
  takeTypeahead();
});

describe('palette typeahead', () => {
  it('keeps printable keys and Backspace while catching, and keeps them from the page', () => {
    startTypeahead();
    const caught = press('t');
    press('x');
    press('Backspace');
    press('r');
    expect(caught.defaultPrevented).toBe(true);
    const shortcut = press('k', { ctrlKey: true });
    const arrow = press('ArrowDown');
    expect(shortcut.defaultPrevented).toBe(false);
    expect(arrow.defaultPrevented).toBe(false);
    expect(takeTypeahead()).toEqual({ query: 'tr', submit: null });
  });

  it('lets every key through once taken, and hands over nothing when it was not catching', () => {
    startTypeahead();
    press('a');
    expect(takeTypeahead()).toEqual({ query: 'a', submit: null });
    expect(press('b').defaultPrevented).toBe(false);
    expect(takeTypeahead()).toEqual({ query: '', submit: null });
  });

  it('keeps an Enter (Shift+Enter: beside) for the palette and lets what follows through', () => {
    startTypeahead();
    press('u');
    const enter = press('Enter', { shiftKey: true });
    expect(enter.defaultPrevented).toBe(true);
    expect(press('x').defaultPrevented).toBe(false);
    expect(takeTypeahead()).toEqual({ query: 'u', submit: { beside: true } });
  });
});
