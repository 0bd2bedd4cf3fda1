// Export from the users overview: the picked users, or every user matching the filters, queued as a
// bulk 'export' job over the overview's own rows (context 'all'); the file waits in My report queue.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { UserListItem } from '../../../src/contract/user-schemas.ts';
import { UsersPane } from '../../../panes/users/users-pane.tsx';
import { toastStore } from '../../../src/state/toast-store.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const listItem = (userId: string, email: string): UserListItem => ({
  userId,
  email,
  givenName: 'Ada',
  familyName: 'Lovelace',
  status: 'active',
  internal: false,
  roles: ['Finance'],
  businessNames: ['Alpha Trading'],
  lockoutEndDateUtc: null,
  lastSignInUtc: null,
  createdUtc: '2026-01-01T10:00:00.000Z',
});
const job: BulkJob = {
  id: 'BLK00000000000000FF',
  area: 'users',
  action: 'export',
  status: 'queued',
  cancelRequested: false,
  totalItems: 2,
  processedItems: 0,
  succeededItems: 0,
  failedItems: 0,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  reportId: null,
  resultFileName: null,
  error: null,
};

describe('export of users', () => {
  beforeEach(() => resetStores());

  it('exports the picked users, and every matching user from the header', async () => {
    signIn({ permissions: ['Mapi.Users.Read', 'Portal.Reports.Create'], paths: ['/users'] });
    const api = fakeApi({
      '/user/users': () => ({ results: [listItem('USR1', 'ada@alpha.example'), listItem('USR2', 'bob@alpha.example')], numberOfResults: 12 }),
    });
    (api.post as Mock).mockResolvedValue({ job });
    renderWithServices(<UsersPane params={{}} search={`role=${encodeURIComponent('[eq]Finance')}`} capability="Users overview" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select bob@alpha.example' }, { timeout: 15_000 }));
    await userEvent.click(within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', { name: 'Export selected…' }));
    let dialog = await screen.findByRole('dialog', { name: 'Export users' });
    expect(within(dialog).getByRole('status').textContent).toBe('1 user will be exported, the one you selected.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    const [path, body] = (api.post as Mock).mock.calls[0] as [string, Record<string, unknown>];
    expect(path).toBe('/bulk-jobs');
    expect(body).toEqual({
      area: 'users',
      action: 'export',
      context: { level: 'all' },
      selection: { allMatching: false, filters: { role: '[eq]Finance' }, includedIds: ['USR2'], excludedIds: [] },
      params: { fileType: 'xlsx', columns: ['name', 'email', 'status', 'roles', 'businesses', 'lastSignIn', 'created'] },
    });
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => toast.message)).toContain('The export is being made: it will wait for you in My report queue.'),
    );
    await userEvent.click(within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', { name: 'Clear selection' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    dialog = await screen.findByRole('dialog', { name: 'Export users' });
    expect(within(dialog).getByRole('status').textContent).toBe('12 users will be exported, every one that matches the filters.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /All 9 columns/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    const [, second] = (api.post as Mock).mock.calls[1] as [string, { params: { columns: string[] } } & Record<string, unknown>];
    expect(second).toMatchObject({ selection: { allMatching: true, includedIds: [], excludedIds: [] } });
    expect(second.params.columns).toEqual(['userId', 'name', 'email', 'status', 'roles', 'businesses', 'lastSignIn', 'created', 'lockedUntil']);
  }, 40_000);
});
