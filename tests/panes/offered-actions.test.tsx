// A screen offers no action the server would refuse. Signed in with the permissions the server's role
// table gives a role (server/policy/role-permissions.ts), the internal read-only role sees no watch list action,
// no 'Duplicate user' and no 'Add user'; the roles that hold the permission still see them.
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { UserDetailPane } from '../../panes/users/user-detail-pane.tsx';
import { UsersPane } from '../../panes/users/users-pane.tsx';
import { WatchEntryPane } from '../../panes/watch-list/watch-entry-pane.tsx';
import { rolePermissions } from '../../server/policy/role-permissions.ts';
import type { RoleName } from '../../src/contract/permissions.ts';
import type { UserDetail } from '../../src/contract/user-schemas.ts';
import type { WatchListEntry } from '../../src/contract/watch-list-schemas.ts';
import { PaneScopeContext } from '../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../src/state/workspace-store.ts';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const asRole = (role: RoleName, path: string) => signIn({ permissions: [...rolePermissions[role]], paths: [path] });

const watchEntry: WatchListEntry & { notes: []; statusChangedBy: null; statusChangedUtc: null } = {
  merchantId: 'M1',
  businessId: 'B1',
  merchantName: 'Shop M1',
  businessName: 'Alpha Ltd',
  score: 68,
  status: 'open',
  signals: [{ signal: 'cardTesting', value: 20, threshold: 15 }],
  trend: [0, 10, 68],
  firstFlaggedUtc: '2026-11-20T10:00:00.000Z',
  lastComputedUtc: '2026-11-25T10:00:00.000Z',
  version: 3,
  ticketId: null,
  notes: [],
  statusChangedBy: null,
  statusChangedUtc: null,
};

const userDetail: UserDetail = {
  userId: 'USR1',
  email: 'ada@alpha.example',
  givenName: 'Ada',
  familyName: 'Lovelace',
  phoneNumber: null,
  language: 'en-GB',
  status: 'active',
  internal: false,
  version: 3,
  lockoutEndDateUtc: null,
  passwordExpiresUtc: '2027-01-01T10:00:00.000Z',
  lastSignInUtc: null,
  createdUtc: '2026-01-01T10:00:00.000Z',
  invitation: null,
  policyStructure: {
    portalPolicy: {
      roles: [],
      partnerPolicy: null,
      businessPolicies: [{ businessId: 'B1', businessName: 'Alpha Trading', roles: ['Finance'], merchantPolicies: [] }],
    },
  },
  allowed: { update: false, lock: false, delete: false, resetPassword: false, resetSecondFactor: false },
  secondFactor: 'off',
};

function renderPane(node: React.ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  renderWithServices(
    <PaneScopeContext value={{ paneId: workspaceStore.panes[0]?.id ?? '' }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {node}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
}

describe('offered means allowed on the screens', () => {
  beforeEach(() => resetStores());

  it.each([
    ['InternalReadOnly', false],
    ['RiskAnalyst', true],
  ] as const)('the watch list entry offers its actions to %s: %s', async (role, offered) => {
    asRole(role, '/account-watch-list/M1');
    fakeApi({ '/account-watch-list/M1': () => watchEntry });
    renderPane(<WatchEntryPane params={{ merchantId: 'M1' }} search="" capability="Watch list entry" />, '/account-watch-list/M1');
    await screen.findByRole('heading', { name: 'Shop M1' }, { timeout: 10_000 });
    for (const name of ['Acknowledge', 'Put on monitoring', 'Add a note', 'Escalate to a ticket']) {
      expect(screen.queryByRole('button', { name }) !== null, `${role} ${name}`).toBe(offered);
    }
  });

  it.each([
    ['InternalReadOnly', false],
    ['CustomerService', true],
    ['TechnicalAdmin', true],
  ] as const)('the user detail offers Duplicate user to %s: %s', async (role, offered) => {
    asRole(role, '/users/USR1');
    fakeApi({ '/users/USR1': () => userDetail });
    renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    await screen.findAllByText('ada@alpha.example', {}, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'Duplicate user' }) !== null).toBe(offered);
  });

  it.each([
    ['InternalReadOnly', false],
    ['CustomerService', true],
  ] as const)('the users overview offers Add user to %s: %s', async (role, offered) => {
    asRole(role, '/users');
    fakeApi({ '/users': () => ({ results: [], numberOfResults: 0 }) });
    renderPane(<UsersPane params={{}} search="" capability="Users" />, '/users');
    await screen.findByRole('search', { name: 'User filters' }, { timeout: 10_000 });
    expect(screen.queryByRole('link', { name: /Add user/ }) !== null).toBe(offered);
  });
});
