// A command is data: the one way an action happens. The palette, the shortcut binder, the `?` dialog and
// the menus all list and run commands, and all ask isAvailable() (registry.ts) whether one may run now.
import type { QueryClient } from '@tanstack/react-query';
import type { PortalApi } from '../src/api/http-client.ts';
import type { ContextSelections } from '../src/contract/context.ts';
import type { PermissionName } from '../src/contract/permissions.ts';
import type { RecordSearchResult } from '../src/contract/shell-responses.ts';
import type { ShellOverlay } from '../src/state/shell-store.ts';
import type { ToastInput } from '../src/state/toast-store.ts';
import type { PaneCapability } from '../src/state/workspace-store.ts';

export const commandSections = ['Navigation', 'Workspace', 'Table', 'Dashboard', 'Record', 'Context', 'Session', 'Help'] as const;
export type CommandSection = (typeof commandSections)[number];

/** A serialisable picture of "now": every `when` is a pure function of it. */
export type CommandContext = {
  signedIn: boolean;
  /** permissions in the applied context (all of the user's without one) */
  permissions: readonly string[];
  /** the focused pane's route: table id and pattern, and its path */
  route: { id: string | null; pattern: string | null; path: string } | null;
  context: {
    partnerId: string | null;
    businessId: string | null;
    merchantId: string | null;
    configurationId: string | null;
    /** null when no configuration is selected */
    virtualTerminalMenuEnabled: boolean | null;
    camAutoRemittance: boolean | null;
    grossSettlement: boolean | null;
  };
  /**
   * Where the user holds roles (spec: a business page needs a role at root, partner or business level; a
   * merchant page also accepts one at merchant level). Merchant keys are 'businessId/merchantId'. Absent
   * means no roles are known (no page-access condition holds).
   */
  access?: { rootOrPartner: boolean; businessIds: readonly string[]; merchantKeys: readonly string[] };
  focusedPane: { id: string; capabilities: readonly PaneCapability[] } | null;
  paneCount: number;
  focusedIndex: number;
  maxPanes: number;
  /** rows selected in the focused pane's table */
  selectionCount: number;
  /** a text field, select or editable element has focus */
  fieldFocused: boolean;
  /** a button, link, tab or menu item has focus, or focus is inside a dialog: Enter and letters are its own */
  controlFocused: boolean;
  /** a shell overlay (palette, shortcut help, context switcher) is open */
  overlayOpen: boolean;
  /**
   * a button of a list's filter bar (its role="search" form) has focus, no popup of it: j / k still move the list's
   * cursor from there (Enter stays the button's). Absent means false.
   */
  filterBarFocused?: boolean;
  /** the context a visible switch left ('Business › Merchant'), while 'Back to <previous context>' can return to it */
  previousContext?: string | null;
};

export type CommandArgs = {
  /** open the result in a new pane beside the focused one */
  beside?: boolean;
  /** the palette's record look-up result to open */
  record?: RecordSearchResult;
};

export type WorkspaceActions = {
  openBeside: (path: string) => void;
  closePane: () => Promise<unknown> | undefined;
  focusNext: (step: 1 | -1) => void;
  move: (step: 1 | -1) => void;
  resize: (deltaPercent: number) => void;
};

export type CommandServices = {
  /** the picture of now at the moment the command runs */
  context: () => CommandContext;
  navigate: (path: string, options?: { beside?: boolean; replace?: boolean }) => Promise<unknown> | undefined;
  queryClient: QueryClient;
  api: PortalApi;
  state: {
    workspace: WorkspaceActions;
    openOverlay: (overlay: ShellOverlay) => void;
    closeTopOverlay: () => void;
    paneRequest: (capability: PaneCapability, argument?: number) => void;
    toast: (toast: ToastInput) => void;
    applyContext: (selections: ContextSelections) => void;
    /** applies a context the person is told about, keeping the one left for 'Back to <previous context>' */
    switchContextVisibly?: (selections: ContextSelections) => void;
    /** applies the context a visible switch left again; false when there is none */
    backToPreviousContext?: () => boolean;
    currentUrl: () => string;
    copyText: (text: string) => Promise<void>;
  };
};

export type Command = {
  /** namespaced: nav.transactions, table.export, workspace.openBeside */
  id: string;
  title: string;
  section: CommandSection;
  keywords: readonly string[];
  /** tinykeys syntax: '$mod+k', 'Shift+X', 'g t' */
  shortcut?: string;
  /** every one is required */
  permissions?: readonly PermissionName[];
  when?: (ctx: CommandContext) => boolean;
  /** needs arguments (a record to open): run by the palette, never listed on its own */
  requiresArgs?: boolean;
  run: (services: CommandServices, args: CommandArgs) => unknown;
};
