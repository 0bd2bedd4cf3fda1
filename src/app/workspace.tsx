// The workspace: a row of resizable panes (react-resizable-panels). Separators are keyboard operable
// (arrow keys); the widen/narrow commands move the focused pane's edge by 10 %.
import { Fragment, useEffect, useRef } from 'react';
import { Group, type GroupImperativeHandle, Panel, Separator } from 'react-resizable-panels';
import { useSnapshot } from 'valtio';
import { workspaceStore } from '../state/workspace-store.ts';
import { maxPanes } from '../state/workspace-url.ts';
import { PaneFrame } from './pane-frame.tsx';

export const minPanePercent = 15;

/** The new layout after moving the focused pane's edge by `delta` percent (pure; the neighbour gives or takes). */
export function resizedLayout(layout: Record<string, number>, order: readonly string[], paneId: string, delta: number): Record<string, number> {
  const index = order.indexOf(paneId);
  if (index === -1 || order.length < 2) return layout;
  const neighbourId = order[index + 1] ?? order[index - 1];
  if (!neighbourId) return layout;
  const own = layout[paneId] ?? 100 / order.length;
  const neighbour = layout[neighbourId] ?? 100 / order.length;
  const clamped = Math.max(minPanePercent - own, Math.min(delta, neighbour - minPanePercent));
  return { ...layout, [paneId]: own + clamped, [neighbourId]: neighbour - clamped };
}

export function Workspace() {
  const workspace = useSnapshot(workspaceStore);
  const group = useRef<GroupImperativeHandle | null>(null);
  const resizeSeq = workspace.resizeRequest?.seq;
  useEffect(() => {
    const request = workspaceStore.resizeRequest;
    if (!request || !group.current) return;
    const ids = workspaceStore.panes.map((pane) => pane.id);
    group.current.setLayout(resizedLayout(group.current.getLayout(), ids, request.paneId, request.deltaPercent));
  }, [resizeSeq]);

  return (
    <Group groupRef={group} orientation="horizontal" className="workspace" disableCursor>
      {workspace.panes.map((pane, index) => (
        <Fragment key={pane.id}>
          {index > 0 ? <Separator className="pane-separator" aria-label={`Resize panes ${index} and ${index + 1}`} /> : null}
          <Panel id={pane.id} minSize={`${minPanePercent}%`} className="pane-panel">
            <PaneFrame
              paneId={pane.id}
              path={pane.path}
              index={index}
              count={workspace.panes.length}
              focused={index === workspace.focusedIndex}
              canOpenBeside={workspace.panes.length < maxPanes}
            />
          </Panel>
        </Fragment>
      ))}
    </Group>
  );
}
