// The users screens against a fake Portal API: the overview (list convention, filters in the address), the user
// detail (tabs, Locked until … with Unlock, the delete dialog's two acknowledgements, role groups shown as applied),
// the users commands' availability, the add form's email parsing and access rules, and the public invitation page.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { isAvailable } from '../../../commands/registry.ts';
import { userCommands } from '../../../commands/users/user-commands.ts';
import type { UserDetail, UserListItem } from '../../../src/contract/user-schemas.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { userActionStore } from '../../../src/state/user-action-store.ts';
import { workspaceStore } from '../../../src/state/workspace-store.ts';
import { accessProblems, policyOfAccess } from '../../../panes/users/access-matrix.tsx';
import { parseEmails, UserAddPane } from '../../../panes/users/user-add-pane.tsx';
import { UserDetailPane } from '../../../panes/users/user-detail-pane.tsx';
import { UserInvitePage } from '../../../panes/users/user-invite-page.tsx';
import { SecondFactorSection } from '../../../panes/users/second-factor-section.tsx';
import { ProfilePane } from '../../../panes/users/profile-pane.tsx';
import { UsersPane } from '../../../panes/users/users-pane.tsx';
import { baseContext, createServices, fakeApi, fakePresetStore, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const listItem = (overrides: Partial<UserListItem>): UserListItem => ({
  userId: 'USR1',
  email: 'ada@alpha.example',
  givenName: 'Ada',
  familyName: 'Lovelace',
  status: 'active',
  internal: false,
  roles: ['Finance'],
  businessNames: ['Alpha Trading'],
  lockoutEndDateUtc: null,
  lastSignInUtc: '2026-11-20T10:00:00.000Z',
  createdUtc: '2026-01-01T10:00:00.000Z',
  ...overrides,
});

const detail = (overrides: Partial<UserDetail> = {}): UserDetail => ({
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
      businessPolicies: [{ businessId: 'B1', businessName: 'Alpha Trading', roles: ['Finance', 'Sales'], merchantPolicies: [] }],
    },
  },
  allowed: { update: true, lock: true, delete: true, resetPassword: true, resetSecondFactor: false },
  secondFactor: 'off',
  ...overrides,
});

function renderPane(node: React.ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  const paneId = workspaceStore.panes[0]?.id ?? '';
  renderWithServices(
    <PaneScopeContext value={{ paneId }}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {node}
      </Router>
    </PaneScopeContext>,
    createServices(),
  );
  return { location, user: userEvent.setup() };
}

function SearchAware({ render }: { render: (search: string) => React.ReactNode }) {
  return <>{render(useSearch())}</>;
}

describe('the users overview', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Users.Create'], paths: ['/users'] });
  });

  it('lists users with the spec’s list convention and puts filters in the address', async () => {
    const api = fakeApi({
      '/user/users': () => ({
        results: [listItem({}), listItem({ userId: 'USR2', email: 'bob@alpha.example', givenName: 'Bob', familyName: 'Brown', status: 'locked' })],
        numberOfResults: 2,
      }),
    });
    const { location, user } = renderPane(<SearchAware render={(search) => <UsersPane params={{}} search={search} capability="Users overview" />} />, '/users');
    await screen.findByRole('rowheader', { name: 'Ada Lovelace' });
    const lastQuery = () => (api.get.mock.calls.filter(([path]) => path === '/user/users').at(-1)![1] as { query: Record<string, string> }).query;
    expect(lastQuery()).toEqual({ pagenumber: '1', pagesize: '25', sort: 'name' });
    const bob = screen.getByRole('rowheader', { name: 'Bob Brown' }).closest('tr') as HTMLElement;
    expect(within(bob).getByText('Locked')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Finance');
    await waitFor(() => expect(lastQuery()).toMatchObject({ role: '[eq]Finance' }));
    expect(location.history?.at(-1)).toContain('role=%5Beq%5DFinance');
    expect(screen.getByRole('link', { name: /Add user/ }).getAttribute('href')).toBe('/users/add');
  });

  it('saves the current filters as a preset in the database, and applies it', async () => {
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Users.Create'], context: merchantContext, paths: ['/users'] });
    const presets = fakePresetStore('Ada Lovelace');
    const api = fakeApi({ '/user/users': () => ({ results: [listItem({})], numberOfResults: 1 }), '/filter-presets': presets.list });
    presets.attach(api);
    const post = api.post as unknown as Mock;
    const { user, location } = renderPane(
      <SearchAware render={(search) => <UsersPane params={{}} search={search} capability="Users overview" />} />,
      '/users?status=%5Beq%5Dlocked',
    );
    await screen.findByRole('rowheader', { name: 'Ada Lovelace' });
    await waitFor(() => expect(api.get).toHaveBeenCalledWith('/filter-presets', expect.objectContaining({ query: { page: 'users', businessId: 'B1' } })));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.type(screen.getByLabelText('Save current filters as'), 'Locked people{Enter}');
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/filter-presets',
        { page: 'users', name: 'Locked people', filters: { status: '[eq]locked' }, relativeDate: null },
        undefined,
      ),
    );
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Locked people' saved."));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'active');
    await waitFor(() => expect(location.history?.at(-1)).toContain('status=%5Beq%5Dactive'));
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(await screen.findByRole('button', { name: 'Locked people' }));
    await waitFor(() => expect(location.history?.at(-1)).toContain('status=%5Beq%5Dlocked'));
    expect(toastStore.toasts.map((toast) => toast.message)).toContain("Filter preset 'Locked people' applied.");
  });
});

describe('the user detail', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Users.Update', 'Mapi.Users.Delete'], paths: ['/users/USR1'] });
  });

  it('shows Locked until … and unlocks with the record’s version', async () => {
    const api = fakeApi({ '/users/USR1': () => detail({ status: 'locked', lockoutEndDateUtc: '2026-12-01T10:15:00.000Z' }) });
    (api.put as unknown as Mock).mockImplementation(async () => detail({ version: 4 }));
    const { user } = renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    expect((await screen.findAllByText(/^Locked until /)).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('tab', { name: 'Sign-in and security' }));
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(api.put).toHaveBeenCalledWith('/users/USR1/login', { version: 3, locked: false }, undefined));
  });

  it('shows role groups as applied only when all their roles are held', async () => {
    fakeApi({ '/users/USR1': () => detail() });
    const { user } = renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    await user.click(screen.getByRole('tab', { name: 'Access' }));
    const row = screen.getByRole('rowheader', { name: 'Alpha Trading' }).closest('tr') as HTMLElement;
    expect(within(row).getByText('Finance, Finance and sales')).toBeTruthy();
  });

  it('deletes only after both acknowledgements, sending them with the version', async () => {
    const api = fakeApi({ '/users/USR1': () => detail() });
    const { user } = renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    await user.click(screen.getByRole('tab', { name: 'Sign-in and security' }));
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Ada Lovelace?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete user' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: /loses access/ }));
    expect(confirm.disabled).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: /cannot be registered again/ }));
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    await waitFor(() =>
      expect(api.request).toHaveBeenCalledWith('/users/USR1', {
        method: 'DELETE',
        body: { version: 3, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true },
        handleErrors: expect.any(Function),
      }),
    );
  });

  it('asks for the password again (step-up) when the server wants it, then deletes', async () => {
    const { ApiError } = await import('../../../src/api/api-error.ts');
    const { stepUpMessages } = await import('../../../src/contract/step-up.ts');
    const api = fakeApi({ '/users/USR1': () => detail() });
    (api.request as unknown as Mock).mockRejectedValueOnce(
      new ApiError({ status: 403, messages: [stepUpMessages.passwordRequired], kind: 'http', handled: false }),
    );
    const { user } = renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    await user.click(screen.getByRole('tab', { name: 'Sign-in and security' }));
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Ada Lovelace?' });
    await user.click(within(dialog).getByRole('checkbox', { name: /loses access/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /cannot be registered again/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await waitFor(() => expect(document.activeElement).toBe(within(stepUp).getByLabelText('Password')));
    await user.keyboard('portal-demo{Enter}');
    await waitFor(() => expect(api.request).toHaveBeenCalledTimes(2));
    expect(api.post).toHaveBeenCalledWith('/user/step-up', { password: 'portal-demo' }, { handleErrors: false });
  });

  it('carries out a command’s request (lock asks first)', async () => {
    const api = fakeApi({ '/users/USR1': () => detail() });
    (api.put as unknown as Mock).mockImplementation(async () => detail({ version: 4, status: 'locked', lockoutEndDateUtc: '9999-12-31T00:00:00.000Z' }));
    const { user } = renderPane(<UserDetailPane params={{ userId: 'USR1' }} search="" capability="User detail" />, '/users/USR1');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    userCommands.find((command) => command.id === 'users.lock')?.run({} as never, {});
    const dialog = await screen.findByRole('alertdialog', { name: 'Lock Ada Lovelace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Lock sign-in' }));
    await waitFor(() => expect((api.put as unknown as Mock).mock.calls).toEqual([['/users/USR1/login', { version: 3, locked: true }, undefined]]));
    expect(userActionStore.request?.action).toBe('lock');
  });
});

describe('the users commands', () => {
  it('are offered on a user’s page with the permission, and nowhere else', () => {
    const lock = userCommands.find((command) => command.id === 'users.lock');
    const del = userCommands.find((command) => command.id === 'users.delete');
    if (!lock || !del) throw new Error('missing commands');
    const onDetail = baseContext({ permissions: ['Mapi.Users.Update'], route: { id: 'userDetail', pattern: '/users/:userId', path: '/users/USR1' } });
    expect(isAvailable(lock, onDetail)).toBe(true);
    expect(isAvailable(del, onDetail)).toBe(false);
    expect(isAvailable(lock, { ...onDetail, permissions: [] })).toBe(false);
    expect(isAvailable(lock, { ...onDetail, route: { id: 'users', pattern: '/users', path: '/users' } })).toBe(false);
    expect(isAvailable(lock, { ...onDetail, fieldFocused: true })).toBe(false);
  });
});

describe('adding users', () => {
  it('reads several addresses and names what is wrong', () => {
    expect(parseEmails('a@x.example, B@x.example\nc@x.example; a@x.example')).toEqual({ emails: ['a@x.example', 'b@x.example', 'c@x.example'], problems: [] });
    expect(parseEmails('').problems).toEqual(['Enter at least one email address.']);
    expect(parseEmails('a@x.example nope').problems).toEqual(['Not an email address: nope']);
  });

  it('asks for a business and a role in each, as the server does', () => {
    expect(accessProblems({ rootRoles: [], businesses: [] })).toEqual(['A user needs at least one business.']);
    expect(
      accessProblems({
        rootRoles: [],
        businesses: [{ businessId: 'B1', businessName: 'Alpha', roles: [], merchants: [{ merchantId: 'M1', merchantName: 'Shop', roles: [] }] }],
      }),
    ).toEqual(['Alpha needs at least one business or merchant role.']);
    const access = {
      rootRoles: [],
      businesses: [
        {
          businessId: 'B1',
          businessName: 'Alpha',
          roles: [],
          merchants: [
            { merchantId: 'M1', merchantName: 'Shop', roles: ['VirtualTerminal'] },
            { merchantId: 'M2', merchantName: 'Other', roles: [] },
          ],
        },
      ],
    };
    expect(accessProblems(access)).toEqual([]);
    expect(policyOfAccess(access)).toEqual({
      roles: [],
      businessPolicies: [{ businessId: 'B1', roles: [], merchantPolicies: [{ merchantId: 'M1', roles: ['VirtualTerminal'] }] }],
    });
  });
});

describe('the invitation page', () => {
  const fetchMock = vi.fn();
  beforeEach(() => {
    resetStores();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('sets name and password, then shows the success message', async () => {
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/public/user-invites/accept')) {
        expect(JSON.parse(String(init?.body))).toEqual({
          inviteId: 'secret-link-value',
          givenName: 'Nia',
          familyName: 'Jones',
          password: 'Violet-harbour-kettle-93',
        });
        return json(200, { message: 'Your account is ready. We have sent you a welcome email; signing you in now.' });
      }
      // The secret is looked up in a POST body, never in the path (a path is written to the request log).
      expect(url).toBe('/api/public/user-invites/lookup');
      expect(init?.method).toBe('POST');
      expect(JSON.parse(String(init?.body))).toEqual({ inviteId: 'secret-link-value' });
      return json(200, { email: 'nia@alpha.example', givenName: '', familyName: '', expiresUtc: '2026-12-01T10:00:00.000Z' });
    });
    const signIn = vi.fn(async () => undefined);
    renderPane(<UserInvitePage params={{}} search="?InviteId=secret-link-value" capability="Invitation" onAccountReady={signIn} />, '/user-invite');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Nia');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Jones');
    await user.type(screen.getByLabelText('Password'), 'Violet-harbour-kettle-93');
    await user.type(screen.getByLabelText('Repeat the password'), 'Violet-harbour-kettle-93');
    expect(signIn).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    const ready = await screen.findByRole('status');
    expect(ready.textContent).toContain('welcome email');
    // The form is gone: focus is on what replaced it (never the page's body), and the sign-in starts at once.
    expect(document.activeElement).toBe(ready);
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it('says the link has expired, in the spec’s words', async () => {
    fetchMock.mockImplementation(async () =>
      json(410, { errorReport: { errors: [{ message: 'Oops that link has expired.', translatedMessage: 'Oops that link has expired.' }] } }),
    );
    renderPane(<UserInvitePage params={{}} search="?InviteId=used" capability="Invitation" />, '/user-invite');
    expect((await screen.findByRole('alert')).textContent).toBe('Oops that link has expired.');
  });

  it('says submission went wrong when the server fails', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url.endsWith('/accept')
        ? json(500, {})
        : json(200, { email: 'nia@alpha.example', givenName: 'Nia', familyName: 'Jones', expiresUtc: '2026-12-01T10:00:00.000Z' }),
    );
    renderPane(<UserInvitePage params={{}} search="?InviteId=x" capability="Invitation" />, '/user-invite');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'Violet-harbour-kettle-93');
    await user.type(screen.getByLabelText('Repeat the password'), 'Violet-harbour-kettle-93');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong with submission of your request');
  });
});

describe('two-factor set-up on the profile', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: [], paths: ['/profile'] });
  });

  it('asks for the password, shows the QR code and key, then the ten recovery codes once', async () => {
    const codes = Array.from({ length: 10 }, (_, n) => `abcde-${String(n).padStart(5, '0')}`);
    const api = fakeApi({ '/user/second-factor': () => ({ status: 'off', recoveryCodesLeft: 0 }) });
    (api.post as unknown as Mock).mockImplementation(async (path: string) =>
      path.endsWith('/confirm')
        ? { recoveryCodes: codes }
        : {
            otpauthUri: 'otpauth://totp/Payments%20portal:ada?secret=JBSWY3DPEHPK3PXP',
            secret: 'JBSWY3DPEHPK3PXP',
            qrCodeDataUrl: 'data:image/png;base64,AAAA',
          },
    );
    const { user } = renderPane(<SecondFactorSection />, '/profile');
    await user.type(await screen.findByLabelText('Your password'), 'my password');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect((await screen.findByRole('img', { name: 'QR code for your authenticator app' })).getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(screen.getByLabelText('Key for typing').textContent).toBe('JBSW Y3DP EHPK 3PXP');
    expect(api.post).toHaveBeenCalledWith('/user/second-factor/enrolment', { currentPassword: 'my password' }, undefined);
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const region = await screen.findByRole('region', { name: 'Recovery codes' });
    expect(within(region).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(region).getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('region', { name: 'Recovery codes' })).toBeNull();
  });
});

describe('turning two-factor sign-in off on the profile', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: [], paths: ['/profile'] });
  });

  it('asks for the current password as well as a code, and sends both', async () => {
    const api = fakeApi({ '/user/second-factor': () => ({ status: 'on', recoveryCodesLeft: 9 }) });
    (api.post as unknown as Mock).mockImplementation(async () => undefined);
    const { user } = renderPane(<SecondFactorSection />, '/profile');
    await user.type(await screen.findByLabelText('Current code to turn it off'), '123456');
    const button = screen.getByRole('button', { name: 'Turn off two-factor sign-in' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Your password'), 'my password');
    await user.click(button);
    await waitFor(() => expect(api.post).toHaveBeenCalledWith('/user/second-factor/removal', { currentPassword: 'my password', code: '123456' }, undefined));
  });
});

describe('changing one’s email address on the profile', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: [], paths: ['/profile'] });
  });

  it('asks for the current password and sends it with the new address', async () => {
    const me = detail({ userId: 'user-1', email: 'ada@demo.test', version: 4 });
    const api = fakeApi({
      '/users/user-1': () => me,
      '/user/sessions': () => ({ results: [] }),
      '/user/second-factor': () => ({ status: 'off', recoveryCodesLeft: 0 }),
    });
    (api.patch as unknown as Mock).mockImplementation(async () => me);
    const { user } = renderPane(<ProfilePane params={{}} search="" capability="Profile" />, '/profile');
    await user.type(await screen.findByLabelText('New email address'), 'ada.new@demo.test');
    const send = screen.getByRole('button', { name: 'Send confirmation link' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Password to confirm the change'), 'my password');
    await user.click(send);
    await waitFor(() =>
      expect(api.patch).toHaveBeenCalledWith('/users', { version: 4, email: 'ada.new@demo.test', currentPassword: 'my password' }, undefined),
    );
  });
});

describe('the add users form', () => {
  beforeEach(() => {
    resetStores();
    signIn({
      permissions: ['Mapi.Users.Read', 'Mapi.Users.Create'],
      paths: ['/users/add'],
      policy: {
        roles: [],
        partnerPolicy: null,
        businessPolicies: [{ businessId: 'B1', businessName: 'Alpha Trading', roles: ['Owner'], merchantPolicies: [] }],
      },
    });
  });

  it('keeps focus on the rows as they are added and removed, never on the page’s body', { timeout: 90_000 }, async () => {
    fakeApi({
      '/context/businesses': () => ({
        data: [
          { businessId: 'B1', businessName: 'Alpha Trading', camAutoRemittance: true },
          { businessId: 'B2', businessName: 'Beta Goods', camAutoRemittance: true },
        ],
        totalCount: 2,
      }),
      '/context/businesses/B1/merchants': () => ({ data: [], totalCount: 0 }),
      '/context/businesses/B2/merchants': () => ({ data: [], totalCount: 0 }),
    });
    const { user } = renderPane(<UserAddPane params={{}} search="" capability="New user" />, '/users/add');
    const addBusiness = await screen.findByRole('combobox', { name: 'Add a business' }, { timeout: 30_000 });
    await user.selectOptions(addBusiness, 'B1');
    addBusiness.focus();
    await user.keyboard('{Enter}');
    // The added row's first role has the keyboard.
    const firstRole = (business: string) => screen.getAllByRole('checkbox').find((box) => box.getAttribute('aria-label')?.endsWith(` at ${business}`));
    await waitFor(() => expect(document.activeElement).toBe(firstRole('Alpha Trading')));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Add a business' }), 'B2');
    await user.click(screen.getByRole('button', { name: 'Add business' }));
    await waitFor(() => expect(document.activeElement).toBe(firstRole('Beta Goods')));
    // Removing a row: the next row's Remove takes focus; the last one gone, the business picker does.
    screen.getByRole('button', { name: 'Remove Alpha Trading' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Beta Goods' })));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Add a business' })));
    expect(document.activeElement).not.toBe(document.body);
  });

  it('invites several addresses with the access chosen through a role group (POST /users), then leaves the form', async () => {
    const api = fakeApi({
      '/context/businesses': () => ({ data: [{ businessId: 'B1', businessName: 'Alpha Trading', camAutoRemittance: true }], totalCount: 1 }),
      '/context/businesses/B1/merchants': () => ({ data: [], totalCount: 0 }),
    });
    (api.post as unknown as Mock).mockImplementation(async () => ({
      users: [
        { userId: 'USR7', email: 'a@alpha.example' },
        { userId: 'USR8', email: 'b@alpha.example' },
      ],
    }));
    const { user, location } = renderPane(<UserAddPane params={{}} search="" capability="New user" />, '/users/add');
    await user.type(screen.getByRole('textbox', { name: 'Email addresses' }), 'a@alpha.example, b@alpha.example');
    await user.click(screen.getByRole('button', { name: 'Send 2 invitations' }));
    expect((await screen.findByRole('alert')).textContent).toContain('A user needs at least one business.');
    expect(api.post).not.toHaveBeenCalled();
    // Choosing adds nothing yet (an arrow key in a closed select changes its value); Enter adds the choice.
    const addBusiness = await screen.findByRole('combobox', { name: 'Add a business' });
    await user.selectOptions(addBusiness, 'B1');
    expect(screen.queryByRole('group', { name: 'Role groups for Alpha Trading' })).toBeNull();
    addBusiness.focus();
    await user.keyboard('{Enter}');
    await user.click(within(await screen.findByRole('group', { name: 'Role groups for Alpha Trading' })).getByRole('button', { name: 'Finance and sales' }));
    await user.click(screen.getByRole('button', { name: 'Send 2 invitations' }));
    await waitFor(() =>
      expect(api.post).toHaveBeenCalledWith(
        '/users',
        {
          emails: ['a@alpha.example', 'b@alpha.example'],
          policy: { roles: [], businessPolicies: [{ businessId: 'B1', roles: ['Finance', 'Sales'], merchantPolicies: [] }] },
        },
        undefined,
      ),
    );
    await waitFor(() => expect(location.history?.at(-1)).toBe('/users'));
  });
});
