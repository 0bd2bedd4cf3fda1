// The side menu: sections in the documented order; a section with one entry is a link, a section with
// several expands and collapses. One section is open at a time; Escape or a click outside closes it.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { workspaceStore } from '../state/workspace-store.ts';
import { ChevronDownIcon } from '../ui/icons.tsx';
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
  const navElement = useRef<HTMLElement>(null);
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

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !openSection) return;
    event.preventDefault();
    const button = buttons.current.get(openSection);
    setOpenSection(null);
    button?.focus();
  };

  const renderSection = (section: MenuSectionView) => {
    const only = section.entries.length === 1 ? section.entries[0] : undefined;
    if (only && only.label === section.label) {
      return (
        <li key={section.id} className="side-menu-section">
          <a className="side-menu-link" href={only.path} aria-current={isCurrent(only.path, focusedPath) ? 'page' : undefined}>{section.label}</a>
        </li>
      );
    }
    const open = openSection === section.id;
    const listId = `${baseId}-${section.id}`;
    const containsCurrent = section.entries.some((entry) => entry.routeId === focusedRouteId);
    return (
      <li key={section.id} className="side-menu-section">
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
              <a className="side-menu-entry" href={entry.path} aria-current={isCurrent(entry.path, focusedPath) ? 'page' : undefined}>{entry.label}</a>
            </li>
          ))}
        </ul>
      </li>
    );
  };

  return (
    <nav ref={navElement} className="side-menu" aria-label="Main menu" onKeyDown={onKeyDown}>
      <ul className="side-menu-sections">{sections.map(renderSection)}</ul>
    </nav>
  );
}
