// The invoice account on the account screens: a net-settled merchant whose invoice account holds monthly
// minimum top-ups sees it listed with its statement link (the server lists the invoice account where it is in use);
// one whose invoice account is unused does not, and the invoice statement's chooser says why.
import { screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { MerchantAccountGroup } from '../../../src/contract/ledger-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { MerchantAccountDetailPane } from '../../../panes/reporting/account-panes.tsx';
import { StatementPane } from '../../../panes/reporting/statement-pane.tsx';
import { createServices, fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const groups = '/businesses/B1/merchants/M1/merchant-accountgroups';
const withTopUps: MerchantAccountGroup = {
  accountNumber: '3M1051802',
  businessId: 'B1',
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  currency: 'EUR',
  grossSettlement: false,
  reservePercentage: 0,
  reserveDays: 60,
  balances: [
    { kind: 'trading', balance: 0 },
    { kind: 'reserve', balance: 0 },
    { kind: 'security', balance: 0 },
    { kind: 'remittance', balance: 0 },
    { kind: 'invoice', balance: -138.01 },
    { kind: 'costs', balance: 12 },
  ],
};
const unused: MerchantAccountGroup = {
  ...withTopUps,
  accountNumber: '3M1070216',
  currency: 'GBP',
  balances: withTopUps.balances.filter((balance) => balance.kind !== 'invoice'),
};

function render(ui: ReactNode, answers: Record<string, () => unknown>, path: string) {
  const api = fakeApi(answers);
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { api, location };
}

describe('the invoice account of a net-settled merchant', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.MerchantAccountGroups.Read'], context: merchantContext, paths: ['/reporting/invoice-account'] });
  });

  it('is listed on the account screen with its balance and statement when it holds top-ups', async () => {
    render(
      <MerchantAccountDetailPane
        params={{ businessId: 'B1', merchantId: 'M1', merchantAccountId: withTopUps.accountNumber }}
        search=""
        capability="Merchant account"
      />,
      { [`${groups}/${withTopUps.accountNumber}`]: () => withTopUps },
      `/merchant-accounts/${withTopUps.accountNumber}`,
    );
    const table = await screen.findByRole('table', { name: 'Balances now' });
    const row = within(table).getByRole('row', { name: /Invoice account/ });
    expect(within(row).getByRole('link').getAttribute('href')).toBe(`/reporting/invoice-account/${withTopUps.accountNumber}`);
    expect(row.textContent).toContain('138.01');
  });

  it('is not listed when unused', async () => {
    render(
      <MerchantAccountDetailPane
        params={{ businessId: 'B1', merchantId: 'M1', merchantAccountId: unused.accountNumber }}
        search=""
        capability="Merchant account"
      />,
      { [`${groups}/${unused.accountNumber}`]: () => unused },
      `/merchant-accounts/${unused.accountNumber}`,
    );
    const table = await screen.findByRole('table', { name: 'Balances now' });
    expect(within(table).queryByRole('row', { name: /Invoice account/ })).toBeNull();
  });

  it('the invoice statement offers only the account groups whose invoice account is in use', async () => {
    const { location } = render(
      <StatementPane params={{}} search="" capability="Invoice account" />,
      { [groups]: () => ({ results: [unused, withTopUps], numberOfResults: 2 }) },
      '/reporting/invoice-account',
    );
    await screen.findByRole('heading', { name: 'Invoice account' });
    // One account in use: chosen at once.
    await expect.poll(() => location.history.at(-1)).toBe(`/reporting/invoice-account/${withTopUps.accountNumber}`);
  });

  it('says so when no invoice account is in use', async () => {
    render(
      <StatementPane params={{}} search="" capability="Invoice account" />,
      { [groups]: () => ({ results: [unused], numberOfResults: 1 }) },
      '/reporting/invoice-account',
    );
    expect(await screen.findByText(/No invoice account is in use here/, undefined)).toBeTruthy();
  });
});
