// A modal dialog: role=dialog with a title, focus kept inside, focus returned on close. Escape, an outside
// click, the X button and the close action can each be switched off.
import { FloatingFocusManager, FloatingOverlay, FloatingPortal, useDismiss, useFloating, useInteractions, useRole } from '@floating-ui/react';
import { type KeyboardEvent, type ReactNode, type RefObject, useId } from 'react';
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
  initialFocus?: RefObject<HTMLElement | null> | number;
  className?: string;
  /** visually hide the title (it still names the dialog) */
  hideTitle?: boolean;
};

export function Modal(props: ModalProps) {
  const {
    open, title, onClose, children, footer, description, size = 'md', closeOnEscape = true, closeOnOutsideClick = true,
    showCloseButton = true, closeActionLabel, role = 'dialog', initialFocus, className, hideTitle = false,
  } = props;
  const titleId = useId();
  const descriptionId = useId();
  const { refs, context } = useFloating({
    open,
    onOpenChange: (next, _event, reason) => {
      if (!next && reason === 'outside-press') onClose('outside');
    },
  });
  const dismiss = useDismiss(context, { escapeKey: false, outsidePress: closeOnOutsideClick, outsidePressEvent: 'mousedown' });
  const roleProps = useRole(context, { role: role === 'alertdialog' ? 'alertdialog' : 'dialog' });
  const { getFloatingProps } = useInteractions([dismiss, roleProps]);

  if (!open) return null;

  // Escape is handled here and marked handled, so the global Escape command does not close a second layer.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    if (closeOnEscape) onClose('escape');
  };

  return (
    <FloatingPortal>
      <FloatingOverlay className="modal-backdrop" lockScroll>
        <FloatingFocusManager context={context} initialFocus={initialFocus ?? 0} returnFocus modal>
          <div
            ref={refs.setFloating}
            className={`modal modal-${size}${className ? ` ${className}` : ''}`}
            aria-labelledby={titleId}
            aria-describedby={description ? descriptionId : undefined}
            aria-modal="true"
            {...getFloatingProps({ onKeyDown })}
            role={role}
          >
            <header className="modal-header">
              <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal-title'}>{title}</h2>
              {showCloseButton ? (
                <button type="button" className="icon-button modal-close" aria-label="Close" onClick={() => onClose('closeButton')}>
                  <CloseIcon />
                </button>
              ) : null}
            </header>
            {description ? <div id={descriptionId} className="modal-description">{description}</div> : null}
            {children !== undefined ? <div className="modal-body">{children}</div> : null}
            {footer || closeActionLabel ? (
              <footer className="modal-footer">
                {closeActionLabel ? (
                  <button type="button" className="button" onClick={() => onClose('action')}>{closeActionLabel}</button>
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
