// The composition root: the one query client, the session and the one HTTP client. The command registry
// joins in the shell's chunk (shell-services.tsx).
import { configureApi } from '../api/api-client.ts';
import { createHttpClient } from '../api/http-client.ts';
import { createQueryClient } from '../api/query-client.ts';
import { fetchPolicy } from '../api/user-queries.ts';
import { deferValidationDuringFirstLoad, setLateDriftHandler } from '../api/validate.ts';
import { defaultInactivityTimings } from '../auth/inactivity.ts';
import type { OidcClient } from '../auth/oidc-client.ts';
import { oidcSettings } from '../auth/oidc-settings.ts';
import { createSession } from '../auth/session.ts';
import { messages } from '../contract/messages.ts';
import { clearContext } from '../state/context-store.ts';
import { requestConfirmation, resetShell } from '../state/shell-store.ts';
import { showToast } from '../state/toast-store.ts';
import { workspaceStore } from '../state/workspace-store.ts';
import { navigateApp } from './app-navigation.ts';
import type { BaseServices } from './app-services.tsx';

export function composeApp(): BaseServices {
  const queryClient = createQueryClient();
  let oidc: Promise<OidcClient> | null = null;
  const session = createSession({
    loadOidc: () => {
      oidc ??= import('../auth/oidc-client.ts')
        .then((module) => module.createOidcClient(oidcSettings()))
        .catch((error: unknown) => {
          oidc = null;
          throw error;
        });
      return oidc;
    },
    fetchPolicy: () => fetchPolicy(),
    now: () => Date.now(),
    storage: window.sessionStorage,
    assign: (url) => window.location.assign(url),
    navigateApp,
    notify: (toast) => {
      showToast(toast);
    },
    onCleared: () => {
      queryClient.clear();
      clearContext();
      resetShell();
      workspaceStore.panes = [];
    },
  });
  const clientDeps = {
    baseURL: '/api/portal',
    getAccessToken: () => session.getAccessToken(),
    refreshAccessToken: () => session.refreshAccessToken(),
    confirmConflict: () => requestConfirmation('conflict'),
    onConflictDiscarded: () => {
      void queryClient.invalidateQueries();
    },
    notify: (toast: Parameters<typeof showToast>[0]) => {
      showToast(toast);
    },
  };
  configureApi(createHttpClient(clientDeps), createHttpClient({ ...clientDeps, baseURL: '/api/gateway' }));
  // An answer handed on before its schema arrived and found wrong afterwards: tell the user, as for any fault.
  deferValidationDuringFirstLoad();
  setLateDriftHandler(() => showToast({ kind: 'danger', message: messages.generalError }));
  return { session, queryClient, inactivity: defaultInactivityTimings };
}
