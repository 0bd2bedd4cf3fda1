// The side menu: sections in the documented order; a section with one entry is a link, a section with
// several expands and collapses. One section is open at a time; Escape or a click outside closes it. ↑/↓ (Home, End)
// move between the menu's visible items, → opens a section and enters it, ← goes back to its button; Space or Enter
// toggles a section, Enter follows a link. The whole menu collapses to a rail (its button, or Ctrl+B: the
// workspace.toggleSideMenu command); the focus, if on an entry it hides, moves to that button, never to nowhere.
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { shortcutLabel } from '../../commands/shortcut.ts';
import { toggleSideMenuCommand } from '../../commands/workspace/toggle-side-menu.ts';
import { shellStore, toggleSideMenu } from '../state/shell-store.ts';
import { workspaceStore } from '../state/workspace-store.ts';
import { ChevronDownIcon, MenuIcon } from '../ui/icons.tsx';
import { useAppServices } from './app-services.tsx';
import { useCommandContext } from './command-context.ts';
import { buildMenu, type MenuSectionView } from './menu-model.ts';
import { splitPath } from './paths.ts';
import { matchPath } from './route-match.ts';

function isCurrent(path: string, focusedPath: string | undefined): boolean {
  if (!focusedPath) return false;
  return splitPath(path).pathname === splitPath(focusedPath).pathname;
}

export function SideMenu() {
  const { registry } = useAppServices();
  const ctx = useCommandContext(undefined, { overlays: false });
  const workspace = useSnapshot(workspaceStore);
  const sections = buildMenu(ctx, registry);
  const [openSection, setOpenSection] = useState<string | null>(null);
  const collapsed = useSnapshot(shellStore).sideMenuCollapsed;
  const navElement = useRef<HTMLElement>(null);
  const sectionList = useRef<HTMLUListElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const baseId = useId();
  const focusedPath = workspace.panes[workspace.focusedIndex]?.path;
  const focusedRouteId = focusedPath ? matchPath(focusedPath)?.route.id : undefined;

  useEffect(() => {
    if (!openSection) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (navElement.current && event.target instanceof Node && !navElement.current.contains(event.target)) setOpenSection(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [openSection]);

  // Collapsing hides the entries: one that had the focus hands it to the toggle (a hidden element's focus is lost).
  useLayoutEffect(() => {
    if (!collapsed) return;
    const active = document.activeElement;
    if (active && active !== toggle.current && sectionList.current?.contains(active)) toggle.current?.focus();
  }, [collapsed]);

  /** The menu's items a person sees now, in order: the toggle, the sections, the open section's entries. */
  const visibleItems = (): HTMLElement[] =>
    [...(navElement.current?.querySelectorAll<HTMLElement>('.side-menu-collapse, .side-menu-link, .side-menu-entry') ?? [])].filter(
      (element) => !element.closest('[hidden]'),
    );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (event.key === 'Escape') {
      if (!openSection) return;
      event.preventDefault();
      const button = buttons.current.get(openSection);
      setOpenSection(null);
      button?.focus();
      return;
    }
    const items = visibleItems();
    const index = target ? items.indexOf(target) : -1;
    if (index < 0) return;
    const focusAt = (at: number) => {
      event.preventDefault();
      items[Math.max(0, Math.min(items.length - 1, at))]?.focus();
    };
    const sectionId = target?.closest<HTMLElement>('[data-section]')?.dataset.section;
    switch (event.key) {
      case 'ArrowDown':
        focusAt(index + 1);
        return;
      case 'ArrowUp':
        focusAt(index - 1);
        return;
      case 'Home':
        focusAt(0);
        return;
      case 'End':
        focusAt(items.length - 1);
        return;
      case 'ArrowRight': {
        if (!sectionId || !target?.classList.contains('side-menu-toggle')) return;
        event.preventDefault();
        if (openSection !== sectionId) setOpenSection(sectionId);
        // The first entry exists once the section is shown: after this render.
        requestAnimationFrame(() => navElement.current?.querySelector<HTMLElement>(`[data-section="${sectionId}"] .side-menu-entry`)?.focus());
        return;
      }
      case 'ArrowLeft': {
        if (!sectionId || !target?.classList.contains('side-menu-entry')) return;
        event.preventDefault();
        const button = buttons.current.get(sectionId);
        setOpenSection(null);
        button?.focus();
        return;
      }
      default:
    }
  };

  const renderSection = (section: MenuSectionView) => {
    const only = section.entries.length === 1 ? section.entries[0] : undefined;
    if (only && only.label === section.label) {
      return (
        <li key={section.id} className="side-menu-section">
          <a className="side-menu-link" href={only.path} aria-current={isCurrent(only.path, focusedPath) ? 'page' : undefined}>
            {section.label}
          </a>
        </li>
      );
    }
    const open = openSection === section.id;
    const listId = `${baseId}-${section.id}`;
    const containsCurrent = section.entries.some((entry) => entry.routeId === focusedRouteId);
    return (
      <li key={section.id} className="side-menu-section" data-section={section.id}>
        <button
          ref={(element) => {
            buttons.current.set(section.id, element);
          }}
          type="button"
          className={`side-menu-link side-menu-toggle${containsCurrent ? ' side-menu-toggle-current' : ''}`}
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpenSection(open ? null : section.id)}
        >
          <span>{section.label}</span>
          <ChevronDownIcon className={open ? 'side-menu-chevron side-menu-chevron-open' : 'side-menu-chevron'} />
        </button>
        <ul id={listId} className="side-menu-entries" hidden={!open}>
          {section.entries.map((entry) => (
            <li key={entry.routeId}>
              <a className="side-menu-entry" href={entry.path} aria-current={isCurrent(entry.path, focusedPath) ? 'page' : undefined}>
                {entry.label}
              </a>
            </li>
          ))}
        </ul>
      </li>
    );
  };

  return (
    <nav ref={navElement} className={`side-menu${collapsed ? ' is-collapsed' : ''}`} aria-label="Main menu" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="icon-button side-menu-collapse"
        aria-label="Side menu"
        aria-expanded={!collapsed}
        aria-controls={`${baseId}-sections`}
        title={`${collapsed ? 'Expand' : 'Collapse'} the side menu (${shortcutLabel(toggleSideMenuCommand.shortcut ?? '')})`}
        onClick={toggleSideMenu}
      >
        <MenuIcon />
      </button>
      <ul ref={sectionList} id={`${baseId}-sections`} className="side-menu-sections" hidden={collapsed}>
        {sections.map(renderSection)}
      </ul>
    </nav>
  );
}
