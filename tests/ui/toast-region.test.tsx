// Toasts: alerts for danger, status otherwise; 5 s and 7.5 s; optional link; dismissable.
import { act, render, screen } from '@testing-library/react';
import { useSnapshot } from 'valtio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, dismissToast, showToast, toastDurations, toastStore } from '../../src/state/toast-store.ts';
import { ToastRegion } from '../../src/ui/toast-region.tsx';

function Toasts() {
  const { toasts } = useSnapshot(toastStore);
  return <ToastRegion toasts={toasts} onDismiss={dismissToast} />;
}

describe('toasts', () => {
  beforeEach(() => {
    clearToasts();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('shows danger as an alert and info as a status with a link, each for its time', async () => {
    render(<Toasts />);
    await act(async () => {
      showToast({ kind: 'danger', message: 'You do not have the correct permissions.' });
      showToast({
        kind: 'info',
        message: 'Your report has been queued.',
        durationMs: toastDurations.long,
        link: { href: '/reporting-overview', label: 'Open the report queue' },
      });
    });
    expect(screen.getByRole('alert').textContent).toContain('You do not have the correct permissions.');
    expect(screen.getByRole('status').textContent).toContain('Your report has been queued.');
    expect(screen.getByRole('link', { name: 'Open the report queue' }).getAttribute('href')).toBe('/reporting-overview');
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status')).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(2500);
    });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('can be dismissed, and stacks without repeating the same message', async () => {
    render(<Toasts />);
    await act(async () => {
      showToast({ kind: 'danger', message: 'Whoops! Something went wrong.' });
      showToast({ kind: 'danger', message: 'Whoops! Something went wrong.' });
      showToast({ kind: 'success', message: 'Preset saved.' });
    });
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    await act(async () => {
      screen.getAllByRole('button', { name: 'Dismiss message' })[0]?.click();
    });
    expect(toastStore.toasts).toHaveLength(1);
  });
});
