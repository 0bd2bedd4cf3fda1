// One pane of the workspace: a header with the breadcrumb and the pane's controls, and the pane's routes.
// Clicking or focusing inside a pane focuses it (it then owns the address bar).
import { useEffect, useMemo, useRef } from 'react';
import { PaneScopeContext } from '../state/pane-scope.tsx';
import { TableHostContext } from '../ui/data-table/table-host.ts';
import { tableHostFor } from './table-host.ts';
import { closePane, focusPaneById, openBeside } from '../state/workspace-store.ts';
import { CloseIcon, SplitIcon } from '../ui/icons.tsx';
import { PaneRoutes } from './pane-routes.tsx';
import { breadcrumb, paneTitle } from './route-match.ts';
import { useKeyboardScrollable } from './scroll-region.ts';

export type PaneFrameProps = {
  paneId: string;
  path: string;
  index: number;
  count: number;
  focused: boolean;
  canOpenBeside: boolean;
};

export function PaneFrame({ paneId, path, index, count, focused, canOpenBeside }: PaneFrameProps) {
  const element = useRef<HTMLElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useKeyboardScrollable(body);
  const title = paneTitle(path);
  const crumbs = useMemo(() => breadcrumb(path), [path]);
  const scope = useMemo(() => ({ paneId }), [paneId]);
  const tableHost = useMemo(() => tableHostFor(paneId), [paneId]);
  // A pane opened into an existing layout takes the keyboard focus; so does the first pane of a page load (a detail
  // opened by its address, the screen shown after applying a context) while nothing else holds it.
  const wasFocused = useRef(false);
  const alone = useRef(count === 1);

  // When a command moves focus to this pane, move the keyboard focus with it (unless a dialog holds it).
  useEffect(() => {
    const becameFocused = focused && !wasFocused.current;
    wasFocused.current = focused;
    if (!becameFocused || !element.current) return;
    const active = document.activeElement;
    const onLoad = alone.current;
    alone.current = false;
    if (onLoad && active && active !== document.body) return;
    if (active && element.current.contains(active)) return;
    if (active?.closest('[role="dialog"],[role="alertdialog"]')) return;
    element.current.focus({ preventScroll: true });
  }, [focused]);

  // A navigation inside the focused pane (the palette, a shortcut, a link that has gone with the old screen) leaves
  // the keyboard in the pane when the focus was lost to the page's body, so Tab and the screen reader go on from here.
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current === path) return;
    shownPath.current = path;
    const active = document.activeElement;
    if (!focused || !element.current || (active && active !== document.body)) return;
    element.current.focus({ preventScroll: true });
  }, [path, focused]);

  const label = count > 1 ? `${title} (pane ${index + 1} of ${count})` : title;

  return (
    <section
      ref={element}
      className={`pane${focused ? ' pane-focused' : ''}`}
      aria-label={label}
      data-pane-id={paneId}
      data-focused={focused ? 'true' : 'false'}
      tabIndex={-1}
      onFocusCapture={() => focusPaneById(paneId)}
      onPointerDownCapture={() => focusPaneById(paneId)}
    >
      <header className="pane-header">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            {crumbs.length === 0 ? (
              <li aria-current="page" title={title}>
                {title}
              </li>
            ) : null}
            {crumbs.map((crumb, crumbIndex) => (
              <li key={crumb.path}>
                {/* A narrow pane ellipsises a crumb: its text (the accessible name) stays whole, the title shows it to the pointer. */}
                {crumbIndex === crumbs.length - 1 ? (
                  <span aria-current="page" title={crumb.label}>
                    {crumb.label}
                  </span>
                ) : (
                  <a href={crumb.path} title={crumb.label}>
                    {crumb.label}
                  </a>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <div className="pane-actions">
          {canOpenBeside ? (
            <button
              type="button"
              className="icon-button"
              aria-label={`Open ${title} in a new pane beside`}
              title="Open beside"
              onClick={() => openBeside(path, { afterPaneId: paneId })}
            >
              <SplitIcon />
            </button>
          ) : null}
          {count > 1 ? (
            <button type="button" className="icon-button" aria-label={`Close pane ${title}`} title="Close pane" onClick={() => void closePane(paneId)}>
              <CloseIcon />
            </button>
          ) : null}
        </div>
      </header>
      <div className="pane-body" ref={body}>
        <PaneScopeContext value={scope}>
          <TableHostContext value={tableHost}>
            <PaneRoutes paneId={paneId} path={path} />
          </TableHostContext>
        </PaneScopeContext>
      </div>
    </section>
  );
}
