// Focus is never lost. A screen opened by its address (a page load, the screen shown after a context is
// applied) has the keyboard in its pane, not on the page's body.
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/app/workspace.tsx';
import { fakeApi, renderWithServices, resetStores, signIn } from './support.tsx';

describe('focus on a page load', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
  });

  it('puts the keyboard in the pane of a screen opened by its address', async () => {
    signIn({ permissions: ['Mapi.Users.Read'], paths: ['/users'] });
    renderWithServices(<Workspace />);
    const heading = await screen.findByRole('heading', { name: 'Users', level: 1 });
    const pane = heading.closest('section[data-pane-id]') as HTMLElement;
    await waitFor(() => expect(pane.contains(document.activeElement)).toBe(true));
  });
});
