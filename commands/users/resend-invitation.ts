import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** A new invitation link for the open (invited) user; the old link stops working. */
export const resendInvitationCommand: Command = {
  id: 'users.resendInvitation',
  title: 'Re-send invitation',
  section: 'Record',
  keywords: ['invite', 'invitation', 'email', 'again', 'user'],
  permissions: ['Mapi.Users.Create'],
  when: onUserDetail,
  run: () => requestUserAction('resendInvitation'),
};
