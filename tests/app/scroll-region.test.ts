// A pane body that overflows with nothing tabbable inside joins the Tab order; one with a control, or that fits, does not.
import { describe, expect, it } from 'vitest';
import { needsOwnTabStop } from '../../src/app/scroll-region.ts';

function body(html: string, size: { scrollHeight: number; clientHeight: number }): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  Object.defineProperty(element, 'scrollHeight', { value: size.scrollHeight });
  Object.defineProperty(element, 'clientHeight', { value: size.clientHeight });
  Object.defineProperty(element, 'scrollWidth', { value: 100 });
  Object.defineProperty(element, 'clientWidth', { value: 100 });
  return element;
}

describe('needsOwnTabStop', () => {
  it('asks for a tab stop when the body overflows and holds only text', () => {
    expect(needsOwnTabStop(body('<table><tr><td>Balance</td><td>1,000.00</td></tr></table>', { scrollHeight: 900, clientHeight: 400 }))).toBe(true);
  });
  it('asks for none when the content fits', () => {
    expect(needsOwnTabStop(body('<p>Balance</p>', { scrollHeight: 400, clientHeight: 400 }))).toBe(false);
  });
  it('asks for none when a link, button or tabbable element inside lets the keyboard in', () => {
    for (const inner of ['<a href="/x">Open</a>', '<button>Do</button>', '<div tabindex="0">Row</div>']) {
      expect(needsOwnTabStop(body(`<p>Text</p>${inner}`, { scrollHeight: 900, clientHeight: 400 })), inner).toBe(false);
    }
  });
  it('does not count disabled controls or tabindex -1 as a way in', () => {
    expect(needsOwnTabStop(body('<button disabled>Do</button><div tabindex="-1">Row</div>', { scrollHeight: 900, clientHeight: 400 }))).toBe(true);
  });
});
