// The breadcrumb never repeats a name: a merchant and its configuration often share their title, and a
// record's crumb may be named like the one before it.
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppHeader } from '../../src/app/app-header.tsx';
import { breadcrumb } from '../../src/app/route-match.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from './support.tsx';

describe('names said once', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
  });

  it('the applied context shows a merchant and its same-named configuration once', () => {
    signIn({
      permissions: ['Mapi.Transactions.Read'],
      context: {
        business: { id: 'b1', title: 'Northwind' },
        merchant: { id: 'm1', title: 'Northwind Online' },
        configuration: { id: 'c1', title: 'Northwind Online', switches: { virtualTerminalMenuEnabled: false } },
      },
      paths: ['/dashboard'],
    });
    renderWithServices(<AppHeader />);
    const applied = screen.getByLabelText('Applied context');
    expect([...applied.querySelectorAll('.context-part')].map((part) => part.textContent?.replace('›', ''))).toEqual(['Northwind', 'Northwind Online']);
  });

  it('the pane breadcrumb keeps distinct names', () => {
    expect(breadcrumb('/transactions/TX1').map((crumb) => crumb.label)).toEqual(['Transactions', 'Transaction TX1']);
  });
});
