// Every command of the users area, registered with the app's static commands.
import type { Command } from '../command.ts';
import { deleteUserCommand } from './delete-user.ts';
import { exportUsersCommand } from './export-users.ts';
import { lockUserCommand } from './lock-user.ts';
import { resendInvitationCommand } from './resend-invitation.ts';
import { resetSecondFactorCommand } from './reset-second-factor.ts';
import { revokeInvitationCommand } from './revoke-invitation.ts';
import { sendPasswordResetCommand } from './send-password-reset.ts';
import { unlockUserCommand } from './unlock-user.ts';

export const userCommands: readonly Command[] = [
  lockUserCommand,
  unlockUserCommand,
  sendPasswordResetCommand,
  resendInvitationCommand,
  revokeInvitationCommand,
  deleteUserCommand,
  resetSecondFactorCommand,
  exportUsersCommand,
];
