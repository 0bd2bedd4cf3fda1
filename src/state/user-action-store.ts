// Requests the users commands make of the user detail screen (lock, unlock, reset email, invitation, delete): a
// command sets a request, the screen on that route carries it out (asking first where the action needs it).
import { proxy } from 'valtio';

export const userActions = ['lock', 'unlock', 'resetPassword', 'resendInvitation', 'revokeInvitation', 'delete', 'resetSecondFactor'] as const;
export type UserAction = (typeof userActions)[number];

export const userActionStore = proxy({ request: null as { action: UserAction; seq: number } | null });

export function requestUserAction(action: UserAction): void {
  userActionStore.request = { action, seq: (userActionStore.request?.seq ?? 0) + 1 };
}
