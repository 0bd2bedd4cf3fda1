import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** Emails the open user a single-use link to choose a new password. */
export const sendPasswordResetCommand: Command = {
  id: 'users.sendPasswordReset',
  title: 'Send password reset email',
  section: 'Record',
  keywords: ['password', 'reset', 'forgot', 'email', 'user'],
  permissions: ['Mapi.Users.Update'],
  when: onUserDetail,
  run: () => requestUserAction('resetPassword'),
};
