// A light modal layer: role=dialog with aria-modal over a backdrop, rendered at the end of the body, the rest of
// the page hidden from assistive technology while it is open (aria-hidden on the body's other children: a handful
// of elements), focus kept inside (Tab cycles within it), Escape and a press on the backdrop close it, focus goes
// back where it was. Neither a focus-trap library (it scans the page and walks every ancestor's siblings on each
// opening) nor the browser's showModal() (it makes the whole page inert, a style recalculation of everything) —
// for an overlay opened many times a day, the command palette, those cost more than the overlay itself. The
// children exist only while it is open, unless `keepMounted`: then they stay rendered and laid out, invisible
// (visibility: hidden: out of the accessibility tree, nothing focusable or clickable), and opening only makes them
// visible: no style and layout of a new subtree at the moment the user waits for it (measured: focusing a
// just-revealed display: none palette forced about 4 ms of style and layout, more than the rest of the opening).
import { type KeyboardEvent, type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';

export type LightDialogProps = {
  open: boolean;
  /** the dialog's accessible name */
  label: string;
  onClose: (reason: 'escape' | 'outside') => void;
  children: ReactNode;
  className?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  /** keep the children rendered (hidden) while closed, so opening is a reveal instead of a render */
  keepMounted?: boolean;
};

const closedStyle = { visibility: 'hidden' } as const;

const focusable = 'input:not([disabled]), button:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/** Focus back where it was before the dialog opened (if that element is still there). */
function focusPrevious(previous: Element | null): void {
  if (previous instanceof HTMLElement && previous.isConnected) previous.focus({ preventScroll: true });
}

export function LightDialog({ open, label, onClose, children, className, initialFocus, keepMounted = false }: LightDialogProps) {
  const dialog = useRef<HTMLDivElement>(null);

  const previousFocus = useRef<Element | null>(null);

  useLayoutEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement;
    previousFocus.current = previous;
    const layer = dialog.current?.parentElement;
    const hidden = [...document.body.children].filter((element) => element !== layer && element.getAttribute('aria-hidden') !== 'true');
    for (const element of hidden) element.setAttribute('aria-hidden', 'true');
    (initialFocus?.current ?? dialog.current)?.focus({ preventScroll: true });
    return () => {
      for (const element of hidden) element.removeAttribute('aria-hidden');
      focusPrevious(previous);
    };
  }, [open, initialFocus]);

  // A kept layer must not keep the focus once closed. After the closing commit, React puts the focus back where it
  // was before the commit if that element is still in the document (a browser refuses: the layer is invisible by
  // then; a test DOM does not): if the focus is still inside, it goes back again, or nowhere.
  useLayoutEffect(() => {
    if (open || !keepMounted) return;
    const inLayer = () => document.activeElement instanceof HTMLElement && dialog.current?.contains(document.activeElement) === true;
    if (inLayer()) focusPrevious(previousFocus.current);
    if (inLayer()) (document.activeElement as HTMLElement).blur();
    previousFocus.current = null;
  }, [open, keepMounted]);

  if (!open && !keepMounted) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      // Marked handled, so the global Escape command does not close a second layer.
      event.preventDefault();
      onClose('escape');
    } else if (event.key === 'Tab') {
      const elements = [...(dialog.current?.querySelectorAll<HTMLElement>(focusable) ?? [])];
      if (elements.length === 0) return;
      event.preventDefault();
      const index = elements.indexOf(document.activeElement as HTMLElement);
      const next = (index + (event.shiftKey ? -1 : 1) + elements.length) % elements.length;
      elements[next]?.focus();
    }
  };

  return createPortal(
    <div className="light-dialog-layer" style={open ? undefined : closedStyle}>
      <div className="light-dialog-backdrop" aria-hidden="true" onMouseDown={() => onClose('outside')} />
      <div ref={dialog} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} className={className} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>,
    document.body,
  );
}
