// A pane's body scrolls. When its content overflows and holds nothing the keyboard can reach (a statement of figures,
// a table of text), a keyboard user could not scroll it: the body then joins the Tab order itself (axe
// scrollable-region-focusable), and leaves it again once it fits or gains a control.
import { type RefObject, useEffect } from 'react';

const tabbable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** Whether `body` overflows and has no keyboard-reachable descendant (its own tabindex aside). */
export function needsOwnTabStop(body: HTMLElement): boolean {
  const overflows = body.scrollHeight > body.clientHeight + 1 || body.scrollWidth > body.clientWidth + 1;
  return overflows && body.querySelector(tabbable) === null;
}

export function useKeyboardScrollable(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const body = ref.current;
    if (!body || typeof ResizeObserver === 'undefined') return undefined;
    let frame = 0;
    const check = () => {
      frame = 0;
      if (needsOwnTabStop(body)) {
        if (body.getAttribute('tabindex') !== '0') body.setAttribute('tabindex', '0');
      } else if (body.getAttribute('tabindex') === '0') body.removeAttribute('tabindex');
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    const resizes = new ResizeObserver(schedule);
    resizes.observe(body);
    const mutations = new MutationObserver(schedule);
    mutations.observe(body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'href', 'tabindex'] });
    schedule();
    return () => {
      resizes.disconnect();
      mutations.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
}
