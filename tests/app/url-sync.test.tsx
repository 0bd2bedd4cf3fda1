// The address bar and the workspace stay in step: a URL with panes becomes panes, workspace changes are
// written back (push for navigation, replace for focus), back/forward is read in again.
import { act, render, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useWorkspaceUrlSync } from '../../src/app/url-sync.ts';
import { currentLayout, focusNextPane, openBeside } from '../../src/state/workspace-store.ts';
import { resetStores } from './support.tsx';

function Sync() {
  useWorkspaceUrlSync();
  return null;
}

describe('workspace URL sync', () => {
  beforeEach(() => resetStores());

  it('reads the layout from the URL on load', () => {
    window.history.replaceState(null, '', '/users?panes=_,%2Ftransactions');
    render(<Sync />);
    expect(currentLayout()).toEqual({ paths: ['/users', '/transactions'], focused: 0 });
  });

  it('writes changes back and follows back and forward', async () => {
    window.history.replaceState(null, '', '/dashboard');
    render(<Sync />);
    const before = window.history.length;
    act(() => {
      openBeside('/transactions');
    });
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/transactions?panes=%2Fdashboard,_'));
    expect(window.history.length).toBe(before + 1);
    act(() => focusNextPane(1));
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/dashboard?panes=_,%2Ftransactions'));
    expect(window.history.length).toBe(before + 1);
    act(() => {
      window.history.pushState(null, '', '/users');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitFor(() => expect(currentLayout()).toEqual({ paths: ['/users'], focused: 0 }));
  });

  it('rewrites a hand-written URL in its canonical spelling', async () => {
    window.history.replaceState(null, '', `/users?panes=${encodeURIComponent('/dashboard')}`);
    render(<Sync />);
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/users?panes=_,%2Fdashboard'));
  });
});
