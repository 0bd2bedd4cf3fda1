// A menu button: role=menu with menuitems, arrow keys and typeahead; Escape or an outside click closes it
// and focus returns to the button. Items are links or actions. The popup (floating-ui) loads on first open,
// so the header costs a button until someone uses it.
import type { MenuItem } from './menu-item.ts';
import { type KeyboardEvent, lazy, type ReactNode, Suspense, useId, useRef, useState } from 'react';

export type DropdownMenuProps = {
  /** the button's accessible name (visually hidden text, so the name and the content never disagree) */
  label: string;
  /** what the button shows (an icon, initials); the label names it */
  trigger: ReactNode;
  items: readonly MenuItem[];
  triggerClassName?: string;
  placement?: 'bottom-end' | 'bottom-start' | 'right-start';
};

const MenuPopup = lazy(() => import('./menu-popup.tsx').then((module) => ({ default: module.MenuPopup })));

export function DropdownMenu({ label, trigger, items, triggerClassName, placement = 'bottom-end' }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const menuId = useId();
  const initialFocus = useRef<'first' | 'last'>('first');

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      initialFocus.current = event.key === 'ArrowUp' ? 'last' : 'first';
      setOpen(true);
    }
  };

  return (
    <>
      <button
        ref={setAnchor}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={triggerClassName ?? 'icon-button'}
        onClick={() => {
          initialFocus.current = 'first';
          setOpen((current) => !current);
        }}
        onKeyDown={onKeyDown}
      >
        <span aria-hidden="true" className="menu-trigger-content">
          {trigger}
        </span>
        <span className="visually-hidden">{label}</span>
      </button>
      {open && anchor ? (
        <Suspense fallback={null}>
          <MenuPopup
            id={menuId}
            label={label}
            anchor={anchor}
            items={items}
            placement={placement}
            initialFocus={initialFocus.current}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
