// Four panes opened without a context each ask for one in the same commit: the layout becomes one context page
// that keeps the whole four-pane URL, wrapped once (it was '/context?route=/context?route=…', landing on the dashboard).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireContext } from '../../src/app/pane-routes.tsx';
import { queryParams, safeRoute } from '../../src/state/context-links.ts';
import { loadUrl, setHistoryWriter, workspaceStore, workspaceUrl } from '../../src/state/workspace-store.ts';

const fourPanes = '/tickets/TK-7?panes=%2Ftransactions%3Fstatus%3D%255Beq%255Dpaid,%2Fconfigurations%2FC-1%2Fpayments%2FPJ0001,_,%2Fdashboard';

describe('requireContext', () => {
  beforeEach(() => {
    // As the shell does: the layout is mirrored into the address bar.
    setHistoryWriter((url, mode) => (mode === 'replace' ? window.history.replaceState(null, '', url) : window.history.pushState(null, '', url)));
    window.history.replaceState(null, '', fourPanes);
    loadUrl(fourPanes);
  });
  afterEach(() => setHistoryWriter(null));

  it('wraps the whole layout once, however many panes ask', () => {
    expect(workspaceStore.panes).toHaveLength(4);
    for (let pane = 0; pane < 4; pane += 1) requireContext();
    expect(workspaceStore.panes).toHaveLength(1);
    const page = workspaceStore.panes[0]?.path ?? '';
    expect(page).toBe(`/context?${new URLSearchParams({ route: fourPanes }).toString()}`);
    expect(`${window.location.pathname}${window.location.search}`).toBe(workspaceUrl());
    // The route it keeps is the four-pane link, whole.
    expect(safeRoute(queryParams(page.slice(page.indexOf('?'))).get('route'))).toBe(fourPanes);
  });
});
