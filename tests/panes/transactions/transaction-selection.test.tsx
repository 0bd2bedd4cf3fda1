// The transactions overview's selection: x on the cursor row and the checkboxes pick rows, 'Select all N
// matching' takes every page; 'Export selected…' queues a bulk export job of the picks (a report in My report queue),
// while Export with nothing picked still queues every matching row through the transactions report call.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAppServices } from '../../../src/app/app-services.tsx';
import { useShortcutBinder } from '../../../src/app/shortcut-binder.ts';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { TransactionListItem } from '../../../src/contract/transaction-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { TransactionsPane, transactionBulkContext } from '../../../panes/transactions/transactions-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const item = (reference: string): TransactionListItem => ({
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
const listPath = '/businesses/B1/merchants/M1/transactions';
const job: BulkJob = {
  id: 'BLK00000000000000AB',
  area: 'transactions',
  action: 'export',
  status: 'queued',
  cancelRequested: false,
  totalItems: 0,
  processedItems: 0,
  succeededItems: 0,
  failedItems: 0,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  reportId: null,
  resultFileName: null,
  error: null,
};

function Pane() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  const search = useSearch();
  return <TransactionsPane params={{}} search={search} capability="Transactions overview" />;
}

function setup() {
  const api = fakeApi({
    [listPath]: () => ({ results: [item('TX0001'), item('TX0002'), item('TX0003')], numberOfResults: 40, numberOfResultsIsEstimate: false }),
  });
  const post = api.post as unknown as Mock;
  post.mockImplementation(async (path: string) => (path === '/bulk-jobs' ? { job } : { reportId: 'RPT01', totalRows: 40 }));
  const location = memoryLocation({ path: '/transactions', record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Pane />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { post, user: userEvent.setup() };
}

describe('the transactions overview’s selection', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read', 'Mapi.Transaction.Read', 'Portal.Reports.Create'], context: merchantContext, paths: ['/transactions'] });
  });

  it('names the bulk context: the partner frame’s business or partner, else the applied context', () => {
    expect(transactionBulkContext({ partnerId: 'P1', businessId: 'B2' }, {} as never)).toEqual({ level: 'business', businessId: 'B2' });
    expect(transactionBulkContext({ partnerId: 'P1' }, {} as never)).toEqual({ level: 'partner', partnerId: 'P1' });
    expect(transactionBulkContext({}, merchantContext as never)).toEqual({ level: 'merchant', businessId: 'B1', merchantId: 'M1' });
  });

  it('picks rows with x and the checkboxes, selects all matching, and exports the picks through a bulk job', async () => {
    const { post, user } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' }, { timeout: 15_000 });
    await user.click(screen.getByRole('checkbox', { name: 'Select TX0002' }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('1 selected');
    await user.click(within(bar).getByRole('button', { name: 'Export selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export transactions' });
    expect(within(dialog).getByRole('status').textContent).toBe('1 transaction will be exported, the one you selected.');
    await user.click(within(dialog).getByRole('radio', { name: 'CSV, comma separated (.csv)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    const [path, body, options] = post.mock.calls[0] as [string, Record<string, unknown>, { headers: Record<string, string> }];
    expect(path).toBe('/bulk-jobs');
    expect(body).toMatchObject({
      area: 'transactions',
      action: 'export',
      context: { level: 'merchant', businessId: 'B1', merchantId: 'M1' },
      selection: { allMatching: false, filters: {}, includedIds: ['TX0002'], excludedIds: [] },
      params: { fileType: 'csv' },
    });
    expect(options.headers['Idempotency-Key']).toMatch(/.{8,}/);
    await waitFor(() => expect(toastStore.toasts.at(-1)).toMatchObject({ message: 'Your report has been queued.', link: { href: '/reporting-overview' } }));

    // All matching on every page: Export then queues the filters' rows as before (the transactions report call).
    await user.click(within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', { name: 'Select all 40 matching transactions' }));
    expect(within(screen.getByRole('region', { name: 'Selection' })).getByRole('status').textContent).toBe('All 40 matching selected');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const again = await screen.findByRole('dialog', { name: 'Export transactions' });
    expect(within(again).getByRole('status').textContent).toBe('40 transactions will be exported, every one that matches the filters.');
    await user.click(within(again).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect((post.mock.calls[1] as [string])[0]).toBe(`${listPath}/full/reports`);
  }, 40_000);

  it('toggles the cursor row with x', async () => {
    const { user } = setup();
    await screen.findByRole('rowheader', { name: 'TX0001' }, { timeout: 15_000 });
    const row = screen.getByRole('rowheader', { name: 'TX0001' }).closest('tr') as HTMLElement;
    row.focus();
    await user.keyboard('x');
    expect(row.getAttribute('aria-selected')).toBe('true');
    expect(within(screen.getByRole('region', { name: 'Selection' })).getByRole('status').textContent).toBe('1 selected');
  }, 40_000);
});
