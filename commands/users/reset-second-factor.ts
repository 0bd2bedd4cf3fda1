import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** Technical admins: the open user's authenticator and recovery codes stop working (asks first; audited). */
export const resetSecondFactorCommand: Command = {
  id: 'users.resetSecondFactor',
  title: 'Reset second factor',
  section: 'Record',
  keywords: ['two-factor', '2fa', 'totp', 'authenticator', 'mfa', 'user'],
  permissions: ['Mapi.Users.Update'],
  when: onUserDetail,
  run: () => requestUserAction('resetSecondFactor'),
};
