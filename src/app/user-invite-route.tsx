// '/user-invite': the invitation page, given the way to sign the new account in once it is created (the acceptance
// left the provider a single-use hand-off; the login is asked for, so an account already signed in is not reused).
import { UserInvitePage } from '../../panes/users/user-invite-page.tsx';
import type { PaneProps } from '../state/pane-scope.tsx';
import { useBaseServices } from './app-services.tsx';

export function UserInviteRoute(props: PaneProps) {
  const { session } = useBaseServices();
  return <UserInvitePage {...props} onAccountReady={() => session.beginSignIn('/dashboard', { forceLogin: true })} />;
}
