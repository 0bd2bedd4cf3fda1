import type { Command } from '../command.ts';
import { messages } from '../../src/contract/messages.ts';

/** The address bar holds the whole layout, so the link reopens every pane. */
export const copyLinkCommand: Command = {
  id: 'workspace.copyLink',
  title: 'Copy link to this view',
  section: 'Workspace',
  keywords: ['share', 'url', 'clipboard', 'link', 'permalink'],
  when: (ctx) => ctx.signedIn && ctx.route !== null,
  run: async ({ state }) => {
    try {
      await state.copyText(state.currentUrl());
      state.toast({ kind: 'success', message: messages.linkCopied });
    } catch {
      state.toast({ kind: 'warning', message: messages.linkNotCopied });
    }
  },
};
