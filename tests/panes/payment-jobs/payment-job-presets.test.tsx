// The payment jobs overview's filter presets, saved in the database: a personal preset saved, applied and removed
// through the presets route, each with its message; the applied context's business shares them.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { PaymentJobListItem } from '../../../src/contract/payment-job-schemas.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { PaymentJobsPane } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { fakeApi, fakePresetStore, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const row: PaymentJobListItem = {
  reference: 'PJ0001',
  orderNumber: 'ORD-PJ0001',
  createDateTimeUtc: '2026-11-01T10:00:00.000Z',
  expirationDateTimeUtc: null,
  paidDateTimeUtc: null,
  status: 'paid',
  amount: 12.5,
  currency: 'GBP',
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  customer: 'Ada Shopper',
  emailAddress: 'ada@example.test',
  paymentMethod: 'card',
};

function Pane() {
  return <PaymentJobsPane params={{}} search={useSearch()} capability="Payment jobs overview" />;
}

describe('the payment jobs overview’s filter presets', () => {
  beforeEach(() => resetStores());

  it('saves, applies and removes a preset in the database, with success messages', { timeout: 180_000 }, async () => {
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/payment-jobs'] });
    const presets = fakePresetStore();
    const api = fakeApi({
      '/businesses/B1/merchants/M1/payment-jobs': () => ({ results: [row], numberOfResults: 1 }),
      '/filter-presets': presets.list,
    });
    presets.attach(api);
    const post = api.post as unknown as Mock;
    const location = memoryLocation({ path: `/payment-jobs?tab=${encodeURIComponent('[eq]paid')}`, record: true });
    renderWithServices(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane />
      </Router>,
    );
    const user = userEvent.setup();
    await screen.findByRole('rowheader', { name: 'PJ0001' }, { timeout: 90_000 });
    await waitFor(() => expect(api.get).toHaveBeenCalledWith('/filter-presets', expect.objectContaining({ query: { page: 'paymentJobs', businessId: 'B1' } })));

    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.type(screen.getByLabelText('Save current filters as'), 'Paid ones{Enter}');
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/filter-presets',
        { page: 'paymentJobs', name: 'Paid ones', filters: { tab: '[eq]paid' }, relativeDate: null },
        undefined,
      ),
    );
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Paid ones' saved."));

    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(location.history.at(-1)).not.toContain('tab='));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(await screen.findByRole('button', { name: 'Paid ones' }));
    await waitFor(() => expect(location.history.at(-1)).toContain(`tab=${encodeURIComponent('[eq]paid')}`));
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Paid ones' applied."));

    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(screen.getByRole('button', { name: 'Remove preset Paid ones' }));
    await waitFor(() => expect(api.delete).toHaveBeenCalledWith('/filter-presets/FP0?version=1', undefined));
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Paid ones' removed."));
  });
});
