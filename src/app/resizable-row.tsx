// Several panes: a row of resizable panels (react-resizable-panels, loaded when a second pane opens or when the
// first screen has settled). Separators are keyboard operable (arrow keys); the widen/narrow commands move the
// focused pane's edge by 10 %. The panes themselves live in their hosts (pane-layout.ts); the panels only hold them.
import { Fragment, useEffect, useLayoutEffect, useRef } from 'react';
import { Group, type GroupImperativeHandle, Panel, Separator } from 'react-resizable-panels';
import { useSnapshot } from 'valtio';
import { workspaceStore } from '../state/workspace-store.ts';
import { minPanePercent, resizedLayout, slotRef } from './pane-layout.ts';

export function ResizableRow({ paneIds }: { paneIds: readonly string[] }) {
  const group = useRef<GroupImperativeHandle | null>(null);
  const resizeSeq = useSnapshot(workspaceStore).resizeRequest?.seq;
  useEffect(() => {
    const request = workspaceStore.resizeRequest;
    if (!request || request.seq !== resizeSeq || !group.current) return;
    const ids = workspaceStore.panes.map((pane) => pane.id);
    group.current.setLayout(resizedLayout(group.current.getLayout(), ids, request.paneId, request.deltaPercent));
  }, [resizeSeq]);
  // A pane moved left or right keeps its width: the widths it had before the move are set again, by pane.
  const widths = useRef<Record<string, number>>({});
  const order = paneIds.join(' ');
  useLayoutEffect(() => {
    const kept = widths.current;
    const ids = order.split(' ');
    if (group.current && ids.length > 1 && ids.every((id) => kept[id] !== undefined)) group.current.setLayout(kept);
  }, [order]);

  return (
    <Group
      groupRef={group}
      orientation="horizontal"
      className="workspace"
      disableCursor
      onLayoutChange={(layout) => {
        widths.current = layout;
      }}
    >
      {paneIds.map((paneId, index) => (
        <Fragment key={paneId}>
          {index > 0 ? <Separator className="pane-separator" aria-label={`Resize panes ${index} and ${index + 1}`} /> : null}
          <Panel id={paneId} minSize={`${minPanePercent}%`} className="pane-panel">
            <div className="pane-slot" ref={slotRef(paneId)} />
          </Panel>
        </Fragment>
      ))}
    </Group>
  );
}
