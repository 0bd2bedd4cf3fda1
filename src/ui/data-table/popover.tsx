// A button that opens a small non-modal panel beside it (choice filters, presets). Escape, Tab out or an outside
// click closes it and focus returns to the button. Ctrl+Enter (⌘+Enter) submits its form, as in a modal dialog.
import {
  autoUpdate,
  flip,
  FloatingFocusManager,
  FloatingPortal,
  offset,
  shift,
  useClick,
  useDismiss,
  useFloating,
  useInteractions,
  useRole,
} from '@floating-ui/react';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { submitDialogForm } from '../modal.tsx';

export type PopoverProps = {
  /** the button's content; its accessible name unless `label` is given */
  trigger: ReactNode;
  label?: string;
  /** names the panel (role dialog) */
  title: string;
  children: (close: () => void) => ReactNode;
  triggerClassName?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
};

export function Popover({ trigger, label, title, children, triggerClassName, open: controlled, onOpenChange }: PopoverProps) {
  const [uncontrolled, setUncontrolled] = useState(false);
  const open = controlled ?? uncontrolled;
  const setOpen = (next: boolean) => {
    setUncontrolled(next);
    onOpenChange?.(next);
  };
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: 'bottom-start',
    middleware: [offset(6), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const { getReferenceProps, getFloatingProps } = useInteractions([useClick(context), useDismiss(context), useRole(context, { role: 'dialog' })]);
  return (
    <>
      <button ref={refs.setReference} type="button" className={triggerClassName ?? 'button'} aria-label={label} {...getReferenceProps()}>
        {trigger}
      </button>
      {open ? (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false} returnFocus>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the dialog role comes from floating-ui's useRole, in the props spread below */}
            <div
              ref={refs.setFloating}
              className="dt-popover"
              style={floatingStyles}
              aria-label={title}
              {...getFloatingProps({
                onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
                  if (event.defaultPrevented || event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey) return;
                  if (submitDialogForm(event.currentTarget, event.target)) event.preventDefault();
                },
              })}
            >
              {children(() => setOpen(false))}
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      ) : null}
    </>
  );
}
