// The customers list under a business or a partner: it reads the business's or partner's list, names each row's
// merchant, opens a row as the customer under its merchant (by keyboard), offers no add; under a merchant the
// Merchant column stays away. The route commands reach the lists from the applied context.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isAvailable } from '../../../commands/registry.ts';
import { CustomersPane } from '../../../panes/customers/customers-pane.tsx';
import { contextListPath, listScopeOf } from '../../../src/api/context-list-queries.ts';
import type { CustomerListItem } from '../../../src/contract/customer-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { baseContext, createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 30_000 });

const row = (customerId: string, lastName: string, businessId: string, merchantId: string, merchantName?: string): CustomerListItem => ({
  customerId,
  businessId,
  merchantId,
  ...(merchantName ? { merchantName } : {}),
  reference: `C-${customerId}`,
  firstName: 'Ada',
  lastName,
  emailAddress: null,
  city: null,
  countryIso3166Alpha2: null,
  createdUtc: '2026-01-01T10:00:00.000Z',
});

function render(params: Record<string, string>, path: string) {
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <CustomersPane params={params} search="" capability="Customers" />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { user: userEvent.setup(), location };
}

describe('customers across merchants', () => {
  beforeEach(() => {
    resetStores();
  });

  it('under a partner: reads the partner list, names each merchant and opens a row under its merchant', async () => {
    signIn({ permissions: ['Mapi.Partner.Read', 'Mapi.Customers.Read', 'Mapi.Customers.Update'], paths: ['/partners/P1/customers'] });
    const api = fakeApi({
      '/partners/P1/customers': () => ({
        results: [row('CUS1', 'Abbott', 'B1', 'M1a', 'Alpha Online'), row('CUS2', 'Byrne', 'B2', 'M2a', 'Beta Web')],
        numberOfResults: 2,
      }),
    });
    const { user, location } = render({ partnerId: 'P1' }, '/partners/P1/customers');
    const table = await screen.findByRole('grid', { name: /Customers/ }, { timeout: 15_000 });
    await within(table).findByText('Beta Web');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toContain('Merchant');
    expect(within(table).getByRole('link', { name: 'Byrne, Ada' }).getAttribute('href')).toBe('/business/B2/merchants/M2a/customers/CUS2');
    // A list across merchants adds no customer (a customer is stored under one merchant).
    expect(screen.queryByRole('button', { name: 'Add a customer' })).toBeNull();
    expect(api.get).not.toHaveBeenCalledWith(expect.stringContaining('/permissions'), expect.anything());
    // Keyboard: focus the first row's link, Enter opens the customer where the record lives.
    within(table).getByRole('link', { name: 'Abbott, Ada' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/business/B1/merchants/M1a/customers/CUS1'));
  });

  it('under a business: reads the business list; under a merchant the Merchant column stays away', async () => {
    signIn({ permissions: ['Mapi.Customers.Read'], paths: ['/business/B3/customers'] });
    fakeApi({
      '/businesses/B3/customers': () => ({ results: [row('CUS3', 'Cole', 'B3', 'M3b', 'Gamma Bakery')], numberOfResults: 1 }),
      '/businesses/B3/merchants/M3a/customers': () => ({ results: [row('CUS4', 'Dunn', 'B3', 'M3a')], numberOfResults: 1 }),
      '/user/businesses/B3/merchants/M3a/permissions': () => ({ permissions: ['Mapi.Customers.Read'] }),
    });
    render({ businessId: 'B3' }, '/business/B3/customers');
    const table = await screen.findByRole('grid', { name: /Customers/ }, { timeout: 15_000 });
    expect(await within(table).findByText('Gamma Bakery')).toBeTruthy();
    expect(screen.getByText("Every merchant's customers in this business.")).toBeTruthy();
  });

  it("keeps one merchant's list as it was", async () => {
    signIn({ permissions: ['Mapi.Customers.Read'], paths: ['/business/B3/merchants/M3a/customers'] });
    fakeApi({
      '/businesses/B3/merchants/M3a/customers': () => ({ results: [row('CUS4', 'Dunn', 'B3', 'M3a')], numberOfResults: 1 }),
      '/user/businesses/B3/merchants/M3a/permissions': () => ({ permissions: ['Mapi.Customers.Read'] }),
    });
    render({ businessId: 'B3', merchantId: 'M3a' }, '/business/B3/merchants/M3a/customers');
    const table = await screen.findByRole('grid', { name: /Customers/ }, { timeout: 15_000 });
    await within(table).findByText('Dunn, Ada');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).not.toContain('Merchant');
  });

  it.each([
    [{ partnerId: 'P1' }, '/partners/P1/customers'],
    [{ businessId: 'B3' }, '/businesses/B3/customers'],
    [{ businessId: 'B3', merchantId: 'M3a' }, '/businesses/B3/merchants/M3a/customers'],
  ])('scope of %o reads %s', (params, path) => {
    expect(contextListPath(listScopeOf(params), 'customers')).toBe(path);
  });

  it('offers the business and partner lists in the palette from the applied context', () => {
    const registry = createServices().registry;
    const business = registry.get('nav.businessCustomers');
    const partner = registry.get('nav.partnerCustomers');
    if (!business || !partner) throw new Error('the customers route commands are missing');
    const withContext = (context: { partnerId?: string; businessId?: string }, permissions: string[]) => {
      const ctx = baseContext({ permissions });
      return { ...ctx, context: { ...ctx.context, partnerId: context.partnerId ?? null, businessId: context.businessId ?? null, merchantId: null } };
    };
    expect(isAvailable(partner, withContext({ partnerId: 'P1' }, ['Mapi.Partner.Read', 'Mapi.Customers.Read']))).toBe(true);
    expect(isAvailable(partner, withContext({ partnerId: 'P1' }, ['Mapi.Partner.Read']))).toBe(false);
    expect(isAvailable(partner, withContext({ businessId: 'B3' }, ['Mapi.Partner.Read', 'Mapi.Customers.Read']))).toBe(false);
    expect(isAvailable(business, withContext({ businessId: 'B3' }, ['Mapi.Customers.Read']))).toBe(true);
    expect(isAvailable(business, withContext({ partnerId: 'P1' }, ['Mapi.Customers.Read']))).toBe(false);
  });
});
