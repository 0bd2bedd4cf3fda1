// Signs out after the inactivity timeout; a minute before, a dialog counts down and offers to stay. The tabs of
// the portal share their activity (a BroadcastChannel): activity in any of them keeps all signed in, and when the
// time is up they sign out together.
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { inactivityWarningMessage, messages } from '../contract/messages.ts';
import { startInactivityMonitor, type InactivityMonitor } from '../auth/inactivity.ts';
import { shellStore } from '../state/shell-store.ts';
import { DeferredModal } from '../ui/deferred-modal.tsx';
import { currentBrowserUrl } from './app-navigation.ts';
import { useBaseServices } from './app-services.tsx';

export function InactivityWatch() {
  const { session, inactivity } = useBaseServices();
  const { inactivityWarning } = useSnapshot(shellStore);
  const monitor = useRef<InactivityMonitor | null>(null);
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('portal-activity') : null;
    const timeOut = () => {
      shellStore.inactivityWarning = false;
      void session.signOut('inactivity', currentBrowserUrl());
    };
    if (tabs) {
      tabs.onmessage = ({ data }: MessageEvent<{ at?: number }>) => {
        if (data.at) monitor.current?.heard(data.at);
        else {
          monitor.current?.stop();
          timeOut();
        }
      };
    }
    monitor.current = startInactivityMonitor({
      ...inactivity,
      onActivity: (at) => tabs?.postMessage({ at }),
      onResume: () => {
        shellStore.inactivityWarning = false;
      },
      onWarn: (remainingMs) => {
        setDeadline(Date.now() + remainingMs);
        setNow(Date.now());
        shellStore.inactivityWarning = true;
      },
      onTimeout: () => {
        tabs?.postMessage({});
        timeOut();
      },
    });
    const forget = session.watchInactivity({ timedOut: () => monitor.current?.timedOut() ?? false, resumeUrl: currentBrowserUrl });
    return () => {
      forget();
      tabs?.close();
      monitor.current?.stop();
      monitor.current = null;
      shellStore.inactivityWarning = false;
    };
  }, [session, inactivity]);

  useEffect(() => {
    if (!inactivityWarning) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [inactivityWarning]);

  const stay = () => {
    shellStore.inactivityWarning = false;
    monitor.current?.stayActive();
  };
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));

  return (
    <DeferredModal
      open={inactivityWarning}
      title={messages.inactivityWarningTitle}
      role="alertdialog"
      size="sm"
      onClose={stay}
      closeOnOutsideClick={false}
      description={<p>{inactivityWarningMessage(seconds)}</p>}
      footer={
        <>
          <button type="button" className="button" onClick={() => void session.signOut('user')}>
            Sign out now
          </button>
          <button type="button" className="button button-primary" onClick={stay}>
            {messages.inactivityWarningStay}
          </button>
        </>
      }
    />
  );
}
