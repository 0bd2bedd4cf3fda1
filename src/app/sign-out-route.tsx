// '/sign-out': ends the session at the provider (id token hint, post-logout redirect to /signed-out).
import { useEffect } from 'react';
import { useBaseServices } from './app-services.tsx';
import { DelayedStatus } from './simple-layout.tsx';

let signingOut = false;

export function SignOutRoute() {
  const { session } = useBaseServices();
  useEffect(() => {
    if (signingOut) return;
    signingOut = true;
    void session.signOut('user').finally(() => {
      signingOut = false;
    });
  }, [session]);
  return <DelayedStatus text="Signing you out…" />;
}
