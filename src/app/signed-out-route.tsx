// '/signed-out': the simple page after sign-out or inactivity, with a way to sign in again (back to the
// same panes after an inactivity sign-out).
import { useState } from 'react';
import { SignedOutPane } from '../../panes/signed-out/signed-out-pane.tsx';
import { useBaseServices } from './app-services.tsx';

export function SignedOutRoute() {
  const { session } = useBaseServices();
  const [{ reason, resumeUrl }] = useState(() => session.signedOutState());
  return (
    <SignedOutPane
      reason={reason}
      onSignIn={() => void session.beginSignIn(reason === 'inactivity' ? resumeUrl : '/dashboard', { forceLogin: reason === 'inactivity' })}
    />
  );
}
