// What commands may do, wired to the real stores and the one API client.
import type { QueryClient } from '@tanstack/react-query';
import type { CommandServices } from '../../commands/command.ts';
import { api } from '../api/api-client.ts';
import { applyContext, backToPreviousContext, switchContextVisibly } from '../state/context-store.ts';
import { closeTopOverlay, openOverlay } from '../state/shell-store.ts';
import { showToast } from '../state/toast-store.ts';
import { closePane, focusNextPane, moveFocusedPane, openBeside, requestResize, sendPaneRequest } from '../state/workspace-store.ts';
import { openPath } from './app-navigation.ts';
import { currentCommandContext } from './command-context.ts';

export function createCommandServices(queryClient: QueryClient): CommandServices {
  return {
    context: () => currentCommandContext(),
    navigate: (path, options) => openPath(path, options),
    queryClient,
    api,
    state: {
      workspace: {
        openBeside: (path) => {
          openBeside(path);
        },
        closePane: () => closePane(),
        focusNext: focusNextPane,
        move: moveFocusedPane,
        resize: requestResize,
      },
      openOverlay,
      closeTopOverlay,
      paneRequest: sendPaneRequest,
      toast: (toast) => {
        showToast(toast);
      },
      applyContext,
      switchContextVisibly,
      backToPreviousContext,
      currentUrl: () => window.location.href,
      copyText: async (text) => {
        await navigator.clipboard.writeText(text);
      },
    },
  };
}
