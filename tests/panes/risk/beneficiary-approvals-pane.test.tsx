// The beneficiary approval queue against a fake Portal API: the rows (business by name, waiting, open alerts, whose
// approval it waits for), filters read from and written to the address (business picked by name, waiting at least,
// open alerts), sorting by a header, Enter opening the beneficiary's own route, and the pure view ↔ address helpers.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { approvalQueueParams, approvalQueueViewOf, BeneficiaryApprovalsPane, businessIdsOf } from '../../../panes/beneficiaries/beneficiary-approvals-pane.tsx';
import type { BeneficiaryApproval, BeneficiaryApprovalList } from '../../../src/contract/beneficiary-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

// The first render also builds the contract's schemas for the answer's check: slow on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

const row = (overrides: Partial<BeneficiaryApproval>): BeneficiaryApproval => ({
  beneficiaryId: 'BEN1',
  name: 'Thornbury Joinery Ltd',
  kind: 'company',
  businessId: '100002',
  businessName: 'Okafor Bakes',
  createdUtc: '2026-11-21T10:00:00.000Z',
  createdBy: 'Samuel Okafor',
  ageDays: 9,
  openAlerts: 0,
  status: 'Referred',
  changedByCaller: false,
  ...overrides,
});
const answer = (results: BeneficiaryApproval[]): BeneficiaryApprovalList => ({
  results,
  numberOfResults: results.length,
  businesses: [
    { businessId: '100001', businessName: 'Harbour & Finch', pending: 3 },
    { businessId: '100002', businessName: 'Okafor Bakes', pending: 1 },
  ],
});

function SearchAware({ render }: { render: (search: string) => ReactNode }) {
  return <>{render(useSearch())}</>;
}

function renderQueue(path: string) {
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <SearchAware render={(search) => <BeneficiaryApprovalsPane params={{}} search={search} capability="Beneficiary approvals" />} />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { location, user: userEvent.setup() };
}

describe('the beneficiary approval queue', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Beneficiary.Approve'], paths: ['/beneficiary-approvals'] });
  });

  it('lists pending beneficiaries across businesses, longest waiting first, with what each waits for', async () => {
    const api = fakeApi({
      '/beneficiary-approvals': () =>
        answer([
          row({}),
          row({ beneficiaryId: 'BEN2', name: 'Golden Harbor Trading LLC', businessId: '100001', businessName: 'Harbour & Finch', ageDays: 2, openAlerts: 1 }),
          row({ beneficiaryId: 'BEN3', name: 'Amelia Hartley', businessId: '100001', businessName: 'Harbour & Finch', ageDays: 0, changedByCaller: true }),
        ]),
    });
    renderQueue('/beneficiary-approvals');
    const grid = await screen.findByRole('grid', { name: 'Beneficiaries awaiting approval' }, { timeout: 15_000 });
    const link = await within(grid).findByRole('link', { name: 'Thornbury Joinery Ltd' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/business/100002/beneficiaries/BEN1');
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.replace(/[↑↓↕]/g, '').trim());
    const cellsOf = (name: string) =>
      [...(within(grid).getByRole('rowheader', { name }).closest('tr') as HTMLElement).querySelectorAll('th, td')].map((cell) => cell.textContent);
    const first = cellsOf('Thornbury Joinery Ltd');
    expect(first[headers.indexOf('Business')]).toBe('Okafor Bakes (100002)');
    expect(first[headers.indexOf('Waiting')]).toBe('9 days');
    expect(first[headers.indexOf('Created by')]).toBe('Samuel Okafor');
    expect(first[headers.indexOf('Status')]).toBe('Awaiting approval');
    expect(cellsOf('Golden Harbor Trading LLC')[headers.indexOf('Status')]).toBe('Awaiting alert review');
    expect(cellsOf('Golden Harbor Trading LLC')[headers.indexOf('Open alerts')]).toBe('1');
    expect(cellsOf('Amelia Hartley')[headers.indexOf('Status')]).toBe('Awaiting approval by someone else');
    expect(cellsOf('Amelia Hartley')[headers.indexOf('Waiting')]).toBe('Less than a day');
    // The default view asks for the longest waiting first.
    expect(api.get.mock.calls.find(([path]) => path === '/beneficiary-approvals')?.[1]).toMatchObject({
      query: { pagenumber: '1', pagesize: '25', sort: '-age' },
    });
  });

  it('reads its filters from the address and writes the business picked by name back to it', async () => {
    const api = fakeApi({ '/beneficiary-approvals': () => answer([row({})]) });
    const { location, user } = renderQueue('/beneficiary-approvals?agedays=%5Bgte%5D7&openalerts=%5Beq%5Dfalse');
    await screen.findByRole('rowheader', { name: 'Thornbury Joinery Ltd' }, { timeout: 15_000 });
    const lastQuery = () => (api.get.mock.calls.filter(([path]) => path === '/beneficiary-approvals').at(-1)![1] as { query: Record<string, string> }).query;
    expect(lastQuery()).toMatchObject({ agedays: '[gte]7', openalerts: '[eq]false' });
    expect((screen.getByRole('combobox', { name: 'Waiting at least' }) as HTMLSelectElement).value).toBe('7');
    expect((screen.getByRole('combobox', { name: 'Screening alerts' }) as HTMLSelectElement).value).toBe('none');

    // The business by its name: open the filter, tick Okafor Bakes, apply.
    await user.click(screen.getByRole('button', { name: 'Business: Any' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Okafor Bakes (1)' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ businessid: '[eq]100002', agedays: '[gte]7' }));
    expect(location.history?.at(-1)).toContain('businessid=%5Beq%5D100002');
    expect(screen.getByRole('button', { name: 'Business: Okafor Bakes (1)' })).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Waiting at least' }), '');
    await waitFor(() => expect(lastQuery().agedays).toBeUndefined());
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/beneficiary-approvals'));
  });

  it('sorts by business from its header, and Enter on a row opens the beneficiary route', async () => {
    fakeApi({
      '/beneficiary-approvals': () =>
        answer([row({}), row({ beneficiaryId: 'BEN2', name: 'Lakeland Canvas Co', businessId: '100003', businessName: 'Fellside Outdoor' })]),
    });
    const { location, user } = renderQueue('/beneficiary-approvals');
    const grid = await screen.findByRole('grid', { name: 'Beneficiaries awaiting approval' }, { timeout: 15_000 });
    await within(grid).findByRole('rowheader', { name: 'Lakeland Canvas Co' }, { timeout: 15_000 });
    await user.click(within(grid).getByRole('button', { name: /Business/ }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/beneficiary-approvals?sort=business'));
    within(grid).getByRole('rowheader', { name: 'Lakeland Canvas Co' }).closest('tr')?.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/business/100003/beneficiaries/BEN2'));
  });

  it('takes Escape in the filters to the list’s cursor row', async () => {
    fakeApi({ '/beneficiary-approvals': () => answer([row({})]) });
    const { user } = renderQueue('/beneficiary-approvals');
    const grid = await screen.findByRole('grid', { name: 'Beneficiaries awaiting approval' }, { timeout: 15_000 });
    await within(grid).findByRole('rowheader', { name: 'Thornbury Joinery Ltd' }, { timeout: 15_000 });
    screen.getByRole('button', { name: 'Business: Any' }).focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(within(grid).getByRole('rowheader', { name: 'Thornbury Joinery Ltd' }).closest('tr')));
  });

  it('keeps what a link says that is valid and drops the rest', () => {
    expect(approvalQueueViewOf('')).toEqual({ pageNumber: 1, pageSize: 25, sort: { field: 'age', descending: true }, filters: {} });
    const view = approvalQueueViewOf('?businessid=%5Beq%5DB1%5Band%5D%5Beq%5DB3&agedays=%5Beq%5D3&sort=-business&pagesize=50&openalerts=%5Beq%5Dtrue&bogus=1');
    expect(view).toEqual({
      pageNumber: 1,
      pageSize: 50,
      sort: { field: 'business', descending: true },
      filters: { businessid: '[eq]B1[and][eq]B3', openalerts: '[eq]true' },
    });
    expect(approvalQueueViewOf('?sort=name').sort).toEqual({ field: 'age', descending: true });
    expect(businessIdsOf(view.filters.businessid)).toEqual(['B1', 'B3']);
    expect(approvalQueueParams(view)).toEqual({ businessid: '[eq]B1[and][eq]B3', openalerts: '[eq]true', sort: '-business', pagesize: '50' });
    expect(approvalQueueParams(approvalQueueViewOf(''))).toEqual({});
  });
});
