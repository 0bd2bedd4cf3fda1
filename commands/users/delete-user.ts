import { requestUserAction } from '../../src/state/user-action-store.ts';
import type { Command } from '../command.ts';
import { onUserDetail } from './on-user-detail.ts';

/** Asks for both acknowledgements, then deletes the open user. */
export const deleteUserCommand: Command = {
  id: 'users.delete',
  title: 'Delete user',
  section: 'Record',
  keywords: ['remove', 'delete', 'user', 'offboard'],
  permissions: ['Mapi.Users.Delete'],
  when: onUserDetail,
  run: () => requestUserAction('delete'),
};
