import type { Command } from '../command.ts';

/**
 * 'Back to <previous context>': undoes a visible context switch (opening a record of another merchant from the
 * palette) in one key. Shift+Z: free in the registry and not among the spec's shortcuts (?, /, Shift+1, Shift+2,
 * Shift+D, Shift+F, Shift+X, Shift+C, Shift+E, Shift+N, Esc); Z as in undo.
 */
export const backToPreviousContextCommand: Command = {
  id: 'context.back',
  title: 'Back to previous context',
  section: 'Context',
  keywords: ['undo', 'return', 'previous', 'context', 'business', 'merchant', 'switch back'],
  shortcut: 'Shift+Z',
  when: (ctx) => ctx.signedIn && Boolean(ctx.previousContext),
  run: ({ context, state }) => {
    const previous = context().previousContext;
    if (!previous || !state.backToPreviousContext?.()) return;
    state.toast({ kind: 'success', message: `Back to ${previous}.` });
  },
};
