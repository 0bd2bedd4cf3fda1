import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** Locks the open user out of sign-in until unlocked; their sessions end. */
export const lockUserCommand: Command = {
  id: 'users.lock',
  title: 'Lock sign-in',
  section: 'Record',
  keywords: ['lock', 'block', 'suspend', 'user'],
  permissions: ['Mapi.Users.Update'],
  when: onUserDetail,
  run: () => requestUserAction('lock'),
};
