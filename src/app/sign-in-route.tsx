// '/sign-in': the provider's redirect back. Exchanges the code (once, even if rendered twice) and goes on
// to the URL the user meant to open.
import { useEffect } from 'react';
import { messages } from '../contract/messages.ts';
import type { Session } from '../auth/session.ts';
import { navigateApp } from './app-navigation.ts';
import { useBaseServices } from './app-services.tsx';
import { DelayedStatus } from './simple-layout.tsx';

const exchanges = new Map<string, Promise<string>>();

function completeOnce(session: Session, url: string): Promise<string> {
  let pending = exchanges.get(url);
  if (!pending) {
    pending = session.completeSignIn(url);
    exchanges.set(url, pending);
  }
  return pending;
}

export function SignInRoute() {
  const { session } = useBaseServices();
  useEffect(() => {
    completeOnce(session, window.location.href)
      .then((intended) => navigateApp(intended, { replace: true }))
      .catch(() => {
        // The session cleared itself, said so and went to '/'.
      });
  }, [session]);
  return <DelayedStatus text={messages.signingIn} />;
}
