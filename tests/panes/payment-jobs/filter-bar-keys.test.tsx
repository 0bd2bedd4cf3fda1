// The filter bar by keyboard, as in Linear: Escape in the search clears it on the first press and leaves it for the
// list on the second (then j / k and g sequences work), ↓ goes down into the list, Enter with nothing typed opens the
// highlighted row, j / k move the list's cursor from the bar's buttons, and Shift+F shows the filters and focuses
// the first one.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import type { PaymentJobListItem } from '../../../src/contract/payment-job-schemas.ts';
import type { TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { PaymentJobsPane } from '../../../panes/payment-jobs/payment-jobs-pane.tsx';
import { TransactionsPane } from '../../../panes/transactions/transactions-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const job = (reference: string): PaymentJobListItem => ({
  reference,
  orderNumber: `ORD-${reference}`,
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
});
const transaction = (reference: string): TransactionListItem => ({
  reference,
  kind: 'payment',
  date: '2026-11-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  amount: 10,
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ewalletType: null,
  paymentJobReference: `PJ-${reference}`,
});
const jobsPath = '/businesses/B1/merchants/M1/payment-jobs';

function JobsPane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <PaymentJobsPane params={{}} search={useSearch()} capability="Payment jobs overview" />;
}
function TransactionsScreen() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <TransactionsPane params={{}} search={useSearch()} capability="Transactions overview" />;
}

function renderInPane(screenUnderTest: React.ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  renderWithServices(
    <PaneScopeContext value={{ paneId: workspaceStore.panes[0]?.id ?? '' }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {screenUnderTest}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { location, user: userEvent.setup() };
}

const rowOf = (reference: string) => screen.getByRole('rowheader', { name: reference }).closest('tr');

describe('the payment jobs filter bar by keyboard', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.PaymentJobs.Read'], context: merchantContext, paths: ['/payment-jobs'] });
  });

  it('Escape clears the search, then leaves it for the list, where j and Enter work; ↓ goes down too', { timeout: 120_000 }, async () => {
    const api = fakeApi({ [jobsPath]: () => ({ results: [job('PJ0001'), job('PJ0002'), job('PJ0003')], numberOfResults: 3 }) });
    const { user, location } = renderInPane(<JobsPane />, '/payment-jobs');
    await screen.findByRole('rowheader', { name: 'PJ0003' }, { timeout: 60_000 });
    const search = screen.getByRole('searchbox', { name: 'Search reference, order number or customer email' }) as HTMLInputElement;
    await user.click(search);
    await user.type(search, 'pj0002{Enter}');
    await waitFor(() =>
      expect(
        api.get.mock.calls.some(([path, options]) => path === jobsPath && (options as { query: Record<string, string> }).query.reference === '[eq]PJ0002'),
      ).toBe(true),
    );
    // j typed in the field is text, not a row move
    expect(search.value).toBe('pj0002');

    await user.keyboard('{Escape}');
    expect(search.value).toBe('');
    expect(document.activeElement).toBe(search);
    await waitFor(() => expect(location.history?.at(-1)).toBe('/payment-jobs'));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(rowOf('PJ0001')));
    await user.keyboard('j');
    await waitFor(() => expect(document.activeElement).toBe(rowOf('PJ0002')));

    // ↓ from the field goes down into the list, at its cursor row
    search.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(rowOf('PJ0002')));

    // Enter in the empty field opens the highlighted row
    search.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/configurations/C1/payments/PJ0002'));
  });

  it('j and k move the cursor from the bar’s buttons (Enter stays the button’s); Shift+F shows the filters and focuses the first', {
    timeout: 120_000,
  }, async () => {
    fakeApi({ [jobsPath]: () => ({ results: [job('PJ0001'), job('PJ0002')], numberOfResults: 2 }) });
    const { user } = renderInPane(<JobsPane />, '/payment-jobs');
    await screen.findByRole('rowheader', { name: 'PJ0002' }, { timeout: 60_000 });
    const filters = screen.getByRole('button', { name: 'Filters' });
    filters.focus();
    await user.keyboard('j');
    await waitFor(() => expect(document.activeElement).toBe(rowOf('PJ0002')));
    await user.keyboard('k');
    await waitFor(() => expect(document.activeElement).toBe(rowOf('PJ0001')));

    filters.focus();
    await user.keyboard('{Enter}');
    expect(filters.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(filters);
    await user.keyboard('{Enter}');
    expect(filters.getAttribute('aria-expanded')).toBe('false');

    rowOf('PJ0001')?.focus();
    await user.keyboard('{Shift>}F{/Shift}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Status:/ })));
    expect(filters.getAttribute('aria-expanded')).toBe('true');
  });
});

describe('the transactions filter bar by keyboard', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.Transaction.Read'], context: merchantContext, paths: ['/transactions'] });
  });

  it('Shift+F shows the filters and focuses the first; Escape leaves an empty search for the list', { timeout: 120_000 }, async () => {
    fakeApi({
      '/businesses/B1/merchants/M1/transactions': () => ({
        results: [transaction('TX0001'), transaction('TX0002')],
        numberOfResults: 2,
        numberOfResultsIsEstimate: false,
      }),
    });
    const { user } = renderInPane(<TransactionsScreen />, '/transactions');
    await screen.findByRole('rowheader', { name: 'TX0002' }, { timeout: 60_000 });
    rowOf('TX0002')?.focus();
    await user.keyboard('{Shift>}F{/Shift}');
    const panel = await screen.findByRole('button', { name: 'Filters', expanded: true });
    await waitFor(() => expect(document.activeElement?.closest('.filter-panel')).toBeTruthy());
    expect(panel).toBeTruthy();
    const search = screen.getByRole('searchbox', { name: 'Search reference, payment job or customer email' });
    search.focus();
    await user.keyboard('{Escape}');
    // the cursor row (TX0002, where focus was before Shift+F)
    await waitFor(() => expect(document.activeElement).toBe(rowOf('TX0002')));
    expect(document.activeElement).not.toBe(document.body);
  });
});
