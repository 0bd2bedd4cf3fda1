// A modal dialog: role=dialog with a title, focus kept inside, focus returned on close. Escape, an outside
// click, the X button and the close action can each be switched off. It opens with the focus on its first field,
// else its primary action, else its first control other than ×; Ctrl+Enter (⌘+Enter) submits its form.
import { FloatingFocusManager, FloatingOverlay, FloatingPortal, useDismiss, useFloating, useInteractions, useRole } from '@floating-ui/react';
import { type KeyboardEvent, type ReactNode, type RefObject, useCallback, useId, useMemo, useRef } from 'react';
import { CloseIcon } from './icons.tsx';

export const modalSizes = ['sm', 'md', 'lg', 'xl', 'xxl'] as const;
export type ModalSize = (typeof modalSizes)[number];
export type ModalCloseReason = 'escape' | 'outside' | 'closeButton' | 'action';

export type ModalProps = {
  open: boolean;
  title: string;
  onClose: (reason: ModalCloseReason) => void;
  children?: ReactNode;
  footer?: ReactNode;
  description?: ReactNode;
  size?: ModalSize;
  closeOnEscape?: boolean;
  closeOnOutsideClick?: boolean;
  showCloseButton?: boolean;
  /** a labelled button in the footer that closes the dialog ('Close', 'Cancel'); none when omitted */
  closeActionLabel?: string;
  /** alertdialog for confirmations that need an answer */
  role?: 'dialog' | 'alertdialog';
  /** where the focus goes on opening; by default the first field, else the primary action, never × */
  initialFocus?: RefObject<HTMLElement | null> | number;
  className?: string;
  /** visually hide the title (it still names the dialog) */
  hideTitle?: boolean;
};

const fieldSelector = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [contenteditable="true"]';
const actionSelector = '.modal-footer .button-primary:not([disabled]), .modal-footer .button-danger:not([disabled])';
const controlSelector = 'button:not([disabled]):not(.modal-close), [href], [tabindex]:not([tabindex="-1"])';

/** The element a dialog opens on: its first field, else its primary action, else its first control but ×, else itself. */
export function initialFocusTarget(dialog: HTMLElement | null): HTMLElement | null {
  if (!dialog) return null;
  return (
    dialog.querySelector<HTMLElement>(`.modal-body :is(${fieldSelector}), .modal-description :is(${fieldSelector})`) ??
    dialog.querySelector<HTMLElement>(actionSelector) ??
    dialog.querySelector<HTMLElement>(controlSelector) ??
    dialog
  );
}

/**
 * Ctrl+Enter in a dialog: the dialog's form is submitted (through its submit button, so disabled stays disabled). A
 * dialog whose fields are not in a form element (the date range, the column chooser, the configuration wizard, a new
 * API key) has its primary action pressed instead, if enabled; never a danger action, never in a dialog without fields.
 */
export function submitDialogForm(dialog: HTMLElement, from: EventTarget | null): boolean {
  const origin = from instanceof HTMLElement ? from : null;
  const form = (origin?.closest('form') && dialog.contains(origin.closest('form')) ? origin.closest('form') : null) ?? dialog.querySelector('form');
  if (!form) {
    if (!dialog.querySelector(fieldSelector)) return false;
    const primary = dialog.querySelector<HTMLButtonElement>('.modal-footer .button-primary');
    if (!primary) return false;
    if (!primary.disabled) primary.click();
    return true;
  }
  const submitter = [...dialog.querySelectorAll<HTMLButtonElement>('button[type="submit"]')].find((button) => button.form === form);
  if (submitter?.disabled) return true;
  form.requestSubmit(submitter);
  return true;
}

export function Modal(props: ModalProps) {
  const {
    open,
    title,
    onClose,
    children,
    footer,
    description,
    size = 'md',
    closeOnEscape = true,
    closeOnOutsideClick = true,
    showCloseButton = true,
    closeActionLabel,
    role = 'dialog',
    initialFocus,
    className,
    hideTitle = false,
  } = props;
  const titleId = useId();
  const descriptionId = useId();
  const dialogElement = useRef<HTMLDivElement | null>(null);
  // Read when the focus manager places the focus (after the dialog's content is in the document).
  const automaticFocus = useMemo<RefObject<HTMLElement | null>>(
    () => ({
      get current() {
        return initialFocusTarget(dialogElement.current);
      },
    }),
    [],
  );
  const { refs, context } = useFloating({
    open,
    onOpenChange: (next, _event, reason) => {
      if (!next && reason === 'outside-press') onClose('outside');
    },
  });
  const { setFloating } = refs;
  const setDialog = useCallback(
    (element: HTMLDivElement | null) => {
      dialogElement.current = element;
      setFloating(element);
    },
    [setFloating],
  );
  const dismiss = useDismiss(context, { escapeKey: false, outsidePress: closeOnOutsideClick, outsidePressEvent: 'mousedown' });
  const roleProps = useRole(context, { role: role === 'alertdialog' ? 'alertdialog' : 'dialog' });
  const { getFloatingProps } = useInteractions([dismiss, roleProps]);

  if (!open) return null;

  // Escape is handled here and marked handled, so the global Escape command does not close a second layer.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) {
      if (submitDialogForm(event.currentTarget, event.target)) event.preventDefault();
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (closeOnEscape) onClose('escape');
  };

  return (
    <FloatingPortal>
      <FloatingOverlay className="modal-backdrop" lockScroll>
        <FloatingFocusManager context={context} initialFocus={initialFocus ?? automaticFocus} returnFocus modal>
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role comes from the role prop below (dialog or alertdialog) */}
          <div
            ref={setDialog}
            className={`modal modal-${size}${className ? ` ${className}` : ''}`}
            aria-labelledby={titleId}
            aria-describedby={description ? descriptionId : undefined}
            aria-modal="true"
            {...getFloatingProps({ onKeyDown })}
            role={role}
          >
            <header className="modal-header">
              <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal-title'}>
                {title}
              </h2>
              {showCloseButton ? (
                <button type="button" className="icon-button modal-close" aria-label="Close" onClick={() => onClose('closeButton')}>
                  <CloseIcon />
                </button>
              ) : null}
            </header>
            {description ? (
              <div id={descriptionId} className="modal-description">
                {description}
              </div>
            ) : null}
            {children !== undefined ? <div className="modal-body">{children}</div> : null}
            {footer || closeActionLabel ? (
              <footer className="modal-footer">
                {closeActionLabel ? (
                  <button type="button" className="button" onClick={() => onClose('action')}>
                    {closeActionLabel}
                  </button>
                ) : null}
                {footer}
              </footer>
            ) : null}
          </div>
        </FloatingFocusManager>
      </FloatingOverlay>
    </FloatingPortal>
  );
}
