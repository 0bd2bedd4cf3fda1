// The workspace: the open panes side by side. One pane needs no resizing, so it sits in a plain row and the
// resizing library (react-resizable-panels, ~15 KB gzip) stays out of the first load; from two panes on, the row
// is resizable-row.tsx. Each pane renders through a portal into its own host element (pane-layout.ts), so the
// switch between the two rows moves the panes without remounting them.
import { lazy, Suspense, useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useSnapshot } from 'valtio';
import { workspaceStore } from '../state/workspace-store.ts';
import { maxPanes } from '../state/workspace-url.ts';
import { PaneFrame } from './pane-frame.tsx';
import { paneHost, releasePaneHost, slotRef } from './pane-layout.ts';

export const loadResizableRow = () => import('./resizable-row.tsx');
const ResizableRow = lazy(() => loadResizableRow().then((module) => ({ default: module.ResizableRow })));

function PlainRow({ paneIds }: { paneIds: readonly string[] }) {
  return (
    <div className="workspace workspace-plain">
      {paneIds.map((paneId) => (
        <div key={paneId} className="pane-slot" ref={slotRef(paneId)} />
      ))}
    </div>
  );
}

function PanePortal({ paneId, path, index, count, focused }: { paneId: string; path: string; index: number; count: number; focused: boolean }) {
  useEffect(() => () => releasePaneHost(paneId), [paneId]);
  return createPortal(
    <PaneFrame paneId={paneId} path={path} index={index} count={count} focused={focused} canOpenBeside={count < maxPanes} />,
    paneHost(paneId),
  );
}

export function Workspace() {
  const workspace = useSnapshot(workspaceStore);
  const paneIds = workspace.panes.map((pane) => pane.id);
  const count = paneIds.length;
  return (
    <>
      {/* The row first: its slots hold the hosts before the panes' own effects run. */}
      {count > 1 ? (
        <Suspense fallback={<PlainRow paneIds={paneIds} />}>
          <ResizableRow paneIds={paneIds} />
        </Suspense>
      ) : (
        <PlainRow paneIds={paneIds} />
      )}
      {workspace.panes.map((pane, index) => (
        <PanePortal key={pane.id} paneId={pane.id} path={pane.path} index={index} count={count} focused={index === workspace.focusedIndex} />
      ))}
    </>
  );
}
