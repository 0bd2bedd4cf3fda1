// The shell's own screens: not-found, signed out.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFoundPane } from '../../panes/not-found/not-found-pane.tsx';
import { SignedOutPane } from '../../panes/signed-out/signed-out-pane.tsx';
import { resetStores } from '../app/support.tsx';

describe('shell panes', () => {
  beforeEach(() => resetStores());

  it('not-found links to the dashboard and the support center', () => {
    render(<NotFoundPane />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Visit the support center' }).getAttribute('href')).toBe('/tickets');
  });

  it('signed out after inactivity says why and offers to sign in again', async () => {
    const onSignIn = vi.fn();
    render(<SignedOutPane reason="inactivity" onSignIn={onSignIn} />);
    expect(screen.getByRole('alert').textContent).toBe('You have been inactive and logged out automatically.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(onSignIn).toHaveBeenCalled();
  });
});
