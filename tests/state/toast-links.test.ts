// The 'report queued' toast goes once its link's place is open (the report queue calls this on mount).
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts, dismissToastsLinkingTo, showToast, toastStore } from '../../src/state/toast-store.ts';

describe('toasts that point at a place', () => {
  beforeEach(() => clearToasts());

  it('go once the place is open; others stay', () => {
    showToast({ kind: 'info', message: 'Your report has been queued.', link: { href: '/reporting-overview', label: 'Open my report queue' } });
    showToast({ kind: 'success', message: 'Saved.' });
    dismissToastsLinkingTo('/reporting-overview');
    expect(toastStore.toasts.map((toast) => toast.message)).toEqual(['Saved.']);
  });
});
