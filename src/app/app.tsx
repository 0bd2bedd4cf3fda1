// The app: public pages in the simple layout, everything else behind the session gate in the shell.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { dismissToast, toastStore } from '../state/toast-store.ts';
import { ToastRegion } from '../ui/toast-region.tsx';
import { isAppLevelPath } from './app-navigation.ts';
import { AppServicesContext, type BaseServices, useBaseServices } from './app-services.tsx';
import { ChunkBoundary } from './chunk-boundary.tsx';
import { matchPath } from './route-match.ts';
import { SessionGate } from './session-gate.tsx';
import { SimpleLayout } from './simple-layout.tsx';

const Shell = lazy(() => import('./shell.tsx').then((module) => ({ default: module.Shell })));
const NotFoundPane = lazy(() => import('../../panes/not-found/not-found-pane.tsx').then((module) => ({ default: module.NotFoundPane })));

function Toasts() {
  const { toasts } = useSnapshot(toastStore);
  return <ToastRegion toasts={toasts} onDismiss={dismissToast} />;
}

function TopLevel() {
  const { session } = useBaseServices();
  const [pathname] = useBrowserLocation();
  const match = matchPath(pathname);

  if (match?.route.public && isAppLevelPath(pathname)) {
    const Page = match.route.pane;
    return (
      <SimpleLayout>
        <ChunkBoundary resetKey={match.route.id}>
          <Page params={match.params} search={window.location.search} capability={match.route.capability} />
        </ChunkBoundary>
      </SimpleLayout>
    );
  }
  if (match?.route.id === 'notFound' && !session.isAuthorised()) {
    return (
      <SimpleLayout>
        <ChunkBoundary resetKey="notFound">
          <NotFoundPane />
        </ChunkBoundary>
      </SimpleLayout>
    );
  }
  return (
    <SessionGate>
      <Suspense fallback={null}>
        <Shell />
      </Suspense>
    </SessionGate>
  );
}

export function App({ services }: { services: BaseServices }) {
  return (
    <AppServicesContext value={services}>
      <QueryClientProvider client={services.queryClient}>
        <TopLevel />
        <Toasts />
      </QueryClientProvider>
    </AppServicesContext>
  );
}
