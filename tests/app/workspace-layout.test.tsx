// One pane sits in a plain row (no resizing library); a second pane brings the resizable row. The first pane is
// moved, not remounted: the same elements, its focus kept.
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/app/workspace.tsx';
import { closePane, openBeside, workspaceStore } from '../../src/state/workspace-store.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from './support.tsx';

describe('the workspace layouts', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
  });

  it('keeps the first pane mounted, with its focus, when a second pane opens and when it closes again', async () => {
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Transactions.Read'], paths: ['/users'] });
    renderWithServices(<Workspace />);
    const heading = await screen.findByRole('heading', { name: 'Users', level: 1 });
    expect(screen.queryByRole('separator')).toBeNull();
    const pane = heading.closest('section[data-pane-id]') as HTMLElement;

    const firstId = workspaceStore.panes[0]?.id ?? '';
    openBeside('/users', { afterPaneId: firstId });
    expect(await screen.findByRole('separator', { name: 'Resize panes 1 and 2' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('heading', { name: 'Users', level: 1 })).toHaveLength(2));
    expect(screen.getAllByRole('heading', { name: 'Users', level: 1 })[0]).toBe(heading);
    expect(heading.isConnected).toBe(true);
    // The new pane took the focus; give it back to the first, then close the second: the first pane's host moves
    // back to the plain row and keeps the focus.
    await waitFor(() => expect(document.activeElement?.closest('[data-pane-id]')).not.toBe(pane));
    pane.focus();
    await waitFor(() => expect(workspaceStore.focusedIndex).toBe(0));

    const secondId = workspaceStore.panes[1]?.id ?? '';
    await closePane(secondId);
    await waitFor(() => expect(screen.queryByRole('separator')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Users', level: 1 })).toBe(heading);
    expect(document.activeElement).toBe(pane);
  });
});
