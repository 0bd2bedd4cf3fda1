import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** The open user’s pending invitation link stops working. */
export const revokeInvitationCommand: Command = {
  id: 'users.revokeInvitation',
  title: 'Revoke invitation',
  section: 'Record',
  keywords: ['invite', 'invitation', 'cancel', 'withdraw', 'user'],
  permissions: ['Mapi.Users.Create'],
  when: onUserDetail,
  run: () => requestUserAction('revokeInvitation'),
};
