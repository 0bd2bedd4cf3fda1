// The user detail's 'Sign-in and security' tab against a fake Portal API: "A user's 'Sign-in and security' tab does
// not refresh after Lock or Unlock and omits the locked user's refused sign-in." After Lock and after Unlock the
// audit events are fetched again and the new event shows; a sign-in refused because the account is locked says so.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { UserDetail } from '../../../src/contract/user-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { UserDetailPane } from '../../../panes/users/user-detail-pane.tsx';
import { createServices, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const detail = (overrides: Partial<UserDetail> = {}): UserDetail => ({
  userId: 'USR00042',
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
  allowed: { update: true, lock: true, delete: false, resetPassword: true, resetSecondFactor: false },
  secondFactor: 'off',
  ...overrides,
});

type TrailEvent = { event: string; dateTimeUtc: string; actor: string; clientAddress: string | null; reason?: string | null };
const event = (name: string, minute: number, extra: Partial<TrailEvent> = {}): TrailEvent => ({
  event: name,
  dateTimeUtc: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`,
  actor: 'Tess Admin',
  clientAddress: null,
  ...extra,
});

function renderDetail() {
  const location = memoryLocation({ path: '/users/USR00042', record: true });
  renderWithServices(
    <PaneScopeContext value={{ paneId: workspaceStore.panes[0]?.id ?? '' }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <UserDetailPane params={{ userId: 'USR00042' }} search="" capability="User detail" />
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return userEvent.setup();
}

const trailRows = () =>
  within(screen.getByRole('region', { name: 'Recent audit events' }))
    .queryAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);

describe('the Sign-in and security tab', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Users.Update'], paths: ['/users/USR00042'] });
  });

  it('shows the new audit event after Lock and after Unlock, without leaving the tab', async () => {
    let current = detail();
    let trail: TrailEvent[] = [event('SignInSucceeded', 0, { actor: 'Ada Lovelace', clientAddress: '198.51.100.4' })];
    const api = fakeApi({ '/users/USR00042': () => current, '/users/USR00042/audit-events': () => ({ results: trail }) });
    (api.put as unknown as Mock).mockImplementation(async (_path: string, body: { locked: boolean }) => {
      current = body.locked ? detail({ status: 'locked', version: 4, lockoutEndDateUtc: '9999-12-31T00:00:00.000Z' }) : detail({ version: 5 });
      trail = [event(body.locked ? 'UserLocked' : 'UserUnlocked', body.locked ? 1 : 3), ...trail];
      return current;
    });
    const user = renderDetail();
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    await user.click(screen.getByRole('tab', { name: 'Sign-in and security' }));
    await waitFor(() => expect(trailRows()).toEqual(['Sign In Succeeded']));

    await user.click(screen.getByRole('button', { name: 'Lock sign-in' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Lock Ada Lovelace?' });
    await user.click(within(confirm).getByRole('button', { name: 'Lock sign-in' }));
    await waitFor(() => expect(trailRows()).toEqual(['User Locked', 'Sign In Succeeded']));
    expect(api.put).toHaveBeenCalledWith('/users/USR00042/login', { version: 3, locked: true }, undefined);
    expect(screen.getByRole('button', { name: 'Unlock' })).toBeTruthy();

    // Meanwhile the locked user tries to sign in with the right password: refused, and the tab says why.
    trail = [event('SignInFailed', 2, { actor: 'Ada Lovelace', clientAddress: '203.0.113.7', reason: 'locked' }), ...trail];
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(trailRows()).toEqual(['User Unlocked', 'Sign In Failed: refused: the account is locked', 'User Locked', 'Sign In Succeeded']));
    expect(api.put).toHaveBeenLastCalledWith('/users/USR00042/login', { version: 4, locked: false }, undefined);
    expect(screen.getByRole('button', { name: 'Lock sign-in' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '203.0.113.7' })).toBeTruthy();
  });
});
