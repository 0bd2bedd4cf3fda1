// The table kit's host in a pane (src/ui/data-table/table-host.ts), made of the pane's pager and list trail
// (src/state/pager.ts) and the pane's path in the workspace.
import { setListTrail, setPager, turnPage } from '../state/pager.ts';
import { workspaceStore } from '../state/workspace-store.ts';
import type { TableHost } from '../ui/data-table/table-host.ts';

export function tableHostFor(paneId: string): TableHost {
  return {
    key: paneId,
    setPager: (pager) => setPager(paneId, pager),
    turnPage: (step) => turnPage(paneId, step),
    openedFrom: (trail) => {
      const listPath = workspaceStore.panes.find((pane) => pane.id === paneId)?.path;
      if (listPath) setListTrail(paneId, { ...trail, listPath });
    },
  };
}
