// The bulk lock from the users overview: picked users locked as one server job over the overview's own
// rows (context 'all': every user the caller reads), the server checking each.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock } from 'vitest';
import type { BulkJob } from '../../../src/contract/bulk-jobs.ts';
import type { UserListItem } from '../../../src/contract/user-schemas.ts';
import { UsersPane } from '../../../panes/users/users-pane.tsx';
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
  id: 'BLK00000000000000DD',
  area: 'users',
  action: 'lock',
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

describe('bulk lock of users', () => {
  beforeEach(() => resetStores());

  it('locks the picked users as one server job, after saying what locking does', async () => {
    signIn({ permissions: ['Mapi.Users.Read', 'Mapi.Users.Update'], paths: ['/users'] });
    const api = fakeApi({
      '/user/users': () => ({
        results: [listItem('USR1', 'ada@alpha.example'), listItem('USR2', 'bob@alpha.example'), listItem('USR3', 'cy@alpha.example')],
        numberOfResults: 3,
      }),
    });
    (api.post as Mock).mockResolvedValue({ job });
    renderWithServices(<UsersPane params={{}} search={`role=${encodeURIComponent('[eq]Finance')}`} capability="Users overview" />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select ada@alpha.example' }, { timeout: 8000 }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select cy@alpha.example' }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('2 selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Lock sign-in…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lock sign-in' });
    expect(within(dialog).getByText(/^2 users will be locked until unlocked/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start' }));
    const [path, body] = (api.post as Mock).mock.calls[0] as [string, Record<string, unknown>];
    expect(path).toBe('/bulk-jobs');
    expect(body).toEqual({
      area: 'users',
      action: 'lock',
      context: { level: 'all' },
      selection: { allMatching: false, filters: { role: '[eq]Finance' }, includedIds: ['USR1', 'USR3'], excludedIds: [] },
    });
  }, 20_000);
});
