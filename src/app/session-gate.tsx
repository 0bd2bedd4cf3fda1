// Everything but the public pages needs a session: resume it (one refresh attempt when the access token
// has expired), or go to the provider keeping the whole URL (pane layout included) to come back to.
import { type ReactNode, useEffect, useState } from 'react';
import { messages } from '../contract/messages.ts';
import { currentBrowserUrl } from './app-navigation.ts';
import { useBaseServices } from './app-services.tsx';
import { DelayedStatus, SimpleLayout } from './simple-layout.tsx';

type GateState = 'checking' | 'ready' | 'redirecting' | 'stopped' | 'failed';

export function SessionGate({ children }: { children: ReactNode }) {
  const { session } = useBaseServices();
  const [state, setState] = useState<GateState>(() => (session.isAuthorised() && session.hasProfile() ? 'ready' : 'checking'));

  useEffect(() => {
    if (state !== 'checking') return undefined;
    let cancelled = false;
    const signIn = () => {
      if (session.signInIsLooping()) {
        setState('stopped');
        return;
      }
      setState('redirecting');
      session.beginSignIn(currentBrowserUrl()).catch((error: unknown) => {
        console.error('[session] could not reach the identity provider', error);
        if (!cancelled) setState('failed');
      });
    };
    session
      .resume()
      .then((result) => {
        if (cancelled) return;
        if (result === 'ready') setState('ready');
        else signIn();
      })
      .catch(() => {
        // A failed refresh has cleared the session, told the user and gone to '/'.
      });
    return () => {
      cancelled = true;
    };
  }, [session, state]);

  if (state === 'ready') return <>{children}</>;
  if (state === 'stopped' || state === 'failed') {
    return (
      <SimpleLayout>
        <div className="pane-message">
          <h1>{state === 'failed' ? messages.generalError : 'We could not sign you in'}</h1>
          <p className="pane-message-text">
            {state === 'failed' ? 'The sign-in service did not answer.' : 'Signing in failed twice in a row, so we stopped trying automatically.'}
          </p>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setState('redirecting');
              void session.beginSignIn(currentBrowserUrl()).catch(() => setState('failed'));
            }}
          >
            Sign in
          </button>
        </div>
      </SimpleLayout>
    );
  }
  return (
    <SimpleLayout>
      <DelayedStatus text={messages.signingIn} />
    </SimpleLayout>
  );
}
