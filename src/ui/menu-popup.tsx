// The open menu of a DropdownMenu: positioned by floating-ui next to its button, arrow keys, Home/End and
// typeahead between items, Escape, Tab or an outside click close it; focus returns to the button.
import {
  autoUpdate,
  flip,
  FloatingFocusManager,
  FloatingList,
  FloatingPortal,
  offset,
  shift,
  useDismiss,
  useFloating,
  useInteractions,
  useListItem,
  useListNavigation,
  useRole,
  useTypeahead,
} from '@floating-ui/react';
import { useRef, useState } from 'react';
import type { MenuItem } from './menu-item.ts';
import { ShortcutKeys } from './shortcut-keys.tsx';

type ItemProps = ReturnType<typeof useInteractions>['getItemProps'];

function MenuEntry({ item, active, getItemProps, close }: { item: MenuItem; active: boolean; getItemProps: ItemProps; close: () => void }) {
  const { ref } = useListItem({ label: item.label });
  const content = (
    <>
      <span className="menu-item-label">{item.label}</span>
      {item.shortcut ? <ShortcutKeys keys={item.shortcut} className="menu-item-shortcut" /> : null}
    </>
  );
  const props = getItemProps({
    onClick: () => {
      close();
      item.onSelect?.();
    },
  });
  if (item.href) {
    return (
      <a ref={ref} href={item.href} role="menuitem" tabIndex={active ? 0 : -1} className="menu-item" {...props}>
        {content}
      </a>
    );
  }
  return (
    <button ref={ref} type="button" role="menuitem" tabIndex={active ? 0 : -1} className="menu-item" {...props}>
      {content}
    </button>
  );
}

export type MenuPopupProps = {
  id: string;
  label: string;
  anchor: HTMLElement;
  items: readonly MenuItem[];
  placement: 'bottom-end' | 'bottom-start' | 'right-start';
  initialFocus: 'first' | 'last';
  onClose: () => void;
};

export function MenuPopup({ id, label, anchor, items, placement, initialFocus, onClose }: MenuPopupProps) {
  const [activeIndex, setActiveIndex] = useState<number | null>(initialFocus === 'last' ? items.length - 1 : 0);
  const elements = useRef<(HTMLElement | null)[]>([]);
  const labels = useRef<(string | null)[]>([]);
  const { refs, floatingStyles, context } = useFloating({
    open: true,
    onOpenChange: (open) => {
      if (!open) onClose();
    },
    elements: { reference: anchor },
    placement,
    middleware: [offset(6), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const { getFloatingProps, getItemProps } = useInteractions([
    useDismiss(context),
    useRole(context, { role: 'menu' }),
    useListNavigation(context, { listRef: elements, activeIndex, onNavigate: setActiveIndex, loop: true }),
    useTypeahead(context, { listRef: labels, activeIndex, onMatch: setActiveIndex }),
  ]);

  return (
    <FloatingPortal>
      <FloatingFocusManager context={context} modal={false} initialFocus={initialFocus === 'last' ? Math.max(0, items.length - 1) : 0} returnFocus>
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the menu role comes from floating-ui's useRole, in the props spread below */}
        <div
          ref={refs.setFloating}
          id={id}
          className="menu"
          aria-label={label}
          // floating-ui positions through the CSSOM (style properties), which the CSP allows
          style={floatingStyles}
          {...getFloatingProps({
            onKeyDown: (event) => {
              if (event.key === 'Escape') event.preventDefault();
              if (event.key === 'Tab') onClose();
            },
          })}
        >
          <FloatingList elementsRef={elements} labelsRef={labels}>
            {items.map((item, index) => (
              <MenuEntry key={item.id} item={item} active={activeIndex === index} getItemProps={getItemProps} close={onClose} />
            ))}
          </FloatingList>
        </div>
      </FloatingFocusManager>
    </FloatingPortal>
  );
}
