// Shared harness of the shell's component tests: fresh stores, a command context builder, fake app
// services around the real registry, and a render helper with the providers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { type Mock, vi } from 'vitest';
import type { CommandContext, CommandServices } from '../../commands/command.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import { configureApi } from '../../src/api/api-client.ts';
import type { PortalApi } from '../../src/api/http-client.ts';
import { areaCommands } from '../../commands/area-commands.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { AppServicesContext, type AppServices } from '../../src/app/app-services.tsx';
import { createCommandServices } from '../../src/app/command-services.ts';
import { credentialsStore } from '../../src/auth/credentials-store.ts';
import { defaultInactivityTimings } from '../../src/auth/inactivity.ts';
import type { Session } from '../../src/auth/session.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import type { StoredPreset } from '../../src/contract/filter-presets.ts';
import type { AuthorizationPolicy } from '../../src/contract/policy.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { paletteStore } from '../../src/state/palette-store.ts';
import { clearSessionProfile, permissionScope, setPermissions, setProfile } from '../../src/state/session-store.ts';
import { resetShell } from '../../src/state/shell-store.ts';
import { clearToasts } from '../../src/state/toast-store.ts';
import { loadLayout, setHistoryWriter, workspaceStore } from '../../src/state/workspace-store.ts';

export const internalPolicy: AuthorizationPolicy = { roles: ['TechnicalAdmin'], partnerPolicy: null, businessPolicies: [] };

export const merchantContext: ContextSelections = {
  business: { id: 'B1', title: 'Alpha Trading', camAutoRemittance: false },
  merchant: { id: 'M1', title: 'Alpha Online', grossSettlement: false },
  configuration: { id: 'C1', title: 'Webshop', switches: { virtualTerminalMenuEnabled: true } },
};

export function baseContext(overrides: Partial<CommandContext> = {}): CommandContext {
  return {
    signedIn: true,
    permissions: [],
    route: { id: 'dashboard', pattern: '/dashboard', path: '/dashboard' },
    context: {
      partnerId: null,
      businessId: null,
      merchantId: null,
      configurationId: null,
      virtualTerminalMenuEnabled: null,
      camAutoRemittance: null,
      grossSettlement: null,
    },
    access: { rootOrPartner: true, businessIds: [], merchantKeys: [] },
    focusedPane: { id: 'pane-1', capabilities: [] },
    paneCount: 1,
    focusedIndex: 0,
    maxPanes: 4,
    selectionCount: 0,
    fieldFocused: false,
    controlFocused: false,
    overlayOpen: false,
    ...overrides,
  };
}

/** Every store back to nothing: no session, no context, no panes, no toasts, no overlays. */
export function resetStores(): void {
  setHistoryWriter(null);
  credentialsStore.credentials = null;
  clearSessionProfile();
  contextStore.applied = {};
  resetShell();
  clearToasts();
  paletteStore.recent = [];
  workspaceStore.panes = [];
  workspaceStore.focusedIndex = 0;
  workspaceStore.resizeRequest = null;
  sessionStorage.clear();
}

/** A signed-in user with the given permissions in the given context, and panes showing `paths`. */
export function signIn(options: {
  permissions: readonly string[];
  context?: ContextSelections;
  policy?: AuthorizationPolicy;
  paths?: string[];
  focused?: number;
}): void {
  credentialsStore.credentials = { accessToken: 'token', expiresIn: 900, validUntilUtc: Date.now() + 900_000 };
  setProfile({ sub: 'user-1', email: 'ada@demo.test', given_name: 'Ada', family_name: 'Lovelace' }, options.policy ?? internalPolicy);
  contextStore.applied = options.context ?? {};
  setPermissions(permissionScope(contextStore.applied).key, options.permissions);
  loadLayout({ paths: options.paths ?? ['/dashboard'], focused: options.focused ?? 0 });
}

export function fakeSession(overrides: Partial<Session> = {}): Session {
  return {
    isAuthorised: () => true,
    hasRefreshToken: () => true,
    hasProfile: () => true,
    signInIsLooping: () => false,
    beginSignIn: vi.fn(async () => undefined),
    completeSignIn: vi.fn(async () => '/dashboard'),
    getAccessToken: vi.fn(async () => 'token'),
    refreshAccessToken: vi.fn(async () => 'token'),
    resume: vi.fn(async () => 'ready' as const),
    signOut: vi.fn(async () => undefined),
    signedOutState: () => ({ reason: 'user' as const, resumeUrl: '/dashboard' }),
    clear: vi.fn(),
    fail: vi.fn(),
    watchInactivity: () => () => undefined,
    ...overrides,
  };
}

/** GET answers by path; user settings not given answer as the server does when unset (value null), anything else undefined. */
export function fakeApi(answers: Record<string, (options: unknown) => unknown> = {}): PortalApi & { get: ReturnType<typeof vi.fn> } {
  const api = {
    request: vi.fn(async () => undefined),
    get: vi.fn(async (path: string, options: unknown) => {
      const answer = answers[path];
      if (answer) return answer(options);
      if (path.startsWith('/user-settings/')) return { key: decodeURIComponent(path.slice('/user-settings/'.length)), value: null };
      return undefined;
    }),
    post: vi.fn(async () => undefined),
    put: vi.fn(async () => undefined),
    patch: vi.fn(async () => undefined),
    delete: vi.fn(async () => undefined),
  };
  configureApi(api as unknown as PortalApi);
  return api as unknown as PortalApi & { get: ReturnType<typeof vi.fn> };
}

/**
 * The filter-preset routes as the overviews use them, on a fake API: a POST saves a preset (shared with the business when
 * posted under /businesses/…, else personal), GET /filter-presets lists what was saved (`list` is its answer), a DELETE
 * removes them. `stored` is what was saved.
 */
export function fakePresetStore(ownerName = 'Pat Test') {
  const stored: StoredPreset[] = [];
  return {
    stored,
    list: () => ({ results: [...stored] }),
    attach(api: PortalApi) {
      (api.post as unknown as Mock).mockImplementation(async (path: string, body: { page: string; name: string; filters: Record<string, string> }) => {
        const shared = path.startsWith('/businesses/');
        const preset: StoredPreset = {
          id: `FP${stored.length}`,
          page: body.page,
          name: body.name,
          filters: body.filters,
          relativeDate: null,
          sharing: shared ? 'business' : 'personal',
          businessId: shared ? (path.split('/')[2] ?? null) : null,
          role: null,
          isDefault: false,
          ownerName,
          editable: true,
          version: 1,
          updatedUtc: '2026-11-01T10:00:00.000Z',
        };
        stored.push(preset);
        return preset;
      });
      (api.delete as unknown as Mock).mockImplementation(async () => {
        stored.length = 0;
      });
    },
  };
}

export function createServices(options: { registry?: CommandRegistry; session?: Session; commandServices?: CommandServices } = {}): AppServices {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    session: options.session ?? fakeSession(),
    // The areas' commands arrive after the first screen in the app; panes under test get them from the start.
    registry: options.registry ?? createAppRegistry(undefined, areaCommands),
    commandServices: options.commandServices ?? createCommandServices(queryClient),
    queryClient,
    inactivity: defaultInactivityTimings,
  };
}

export function renderWithServices(ui: ReactNode, services: AppServices = createServices()) {
  return {
    services,
    ...render(
      <AppServicesContext value={services}>
        <QueryClientProvider client={services.queryClient}>{ui}</QueryClientProvider>
      </AppServicesContext>,
    ),
  };
}
