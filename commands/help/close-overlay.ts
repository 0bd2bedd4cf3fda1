import type { Command } from '../command.ts';

/** Escape: dialogs and menus close themselves on it too; this covers the shell's overlays and lists Esc. */
export const closeOverlayCommand: Command = {
  id: 'help.closeOverlay',
  title: 'Close dialog or menu',
  section: 'Help',
  keywords: ['escape', 'dismiss', 'close'],
  shortcut: 'Escape',
  when: (ctx) => ctx.overlayOpen,
  run: ({ state }) => state.closeTopOverlay(),
};
