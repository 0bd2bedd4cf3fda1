// '/': clears the session and goes to the dashboard (which then signs in afresh).
import { useEffect } from 'react';
import { navigateApp } from './app-navigation.ts';
import { useBaseServices } from './app-services.tsx';
import { DelayedStatus } from './simple-layout.tsx';

export function RootRoute() {
  const { session } = useBaseServices();
  useEffect(() => {
    session.clear();
    navigateApp('/dashboard', { replace: true });
  }, [session]);
  return <DelayedStatus text="Starting…" />;
}
