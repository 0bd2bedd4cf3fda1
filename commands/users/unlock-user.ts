import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** Lets the open user sign in again. */
export const unlockUserCommand: Command = {
  id: 'users.unlock',
  title: 'Unlock sign-in',
  section: 'Record',
  keywords: ['unlock', 'unblock', 'lockout', 'user'],
  permissions: ['Mapi.Users.Update'],
  when: onUserDetail,
  run: () => requestUserAction('unlock'),
};
