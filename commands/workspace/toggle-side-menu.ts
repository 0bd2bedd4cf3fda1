// Collapses the side menu to a narrow rail (and expands it again) for more room for the panes. Ctrl+B (⌘B), as in
// editors: `[` stays the previous page's key. The state lasts for the tab's session (shell-store.ts); the menu moves
// the focus to its toggle when the focus was on an entry it hides (side-menu.tsx).
import { toggleSideMenu } from '../../src/state/shell-store.ts';
import type { Command } from '../command.ts';

export const toggleSideMenuCommand: Command = {
  id: 'workspace.toggleSideMenu',
  title: 'Collapse or expand the side menu',
  section: 'Workspace',
  keywords: ['side menu', 'sidebar', 'navigation', 'collapse', 'expand', 'hide', 'show', 'menu'],
  shortcut: '$mod+KeyB',
  when: (ctx) => ctx.signedIn && !ctx.overlayOpen,
  run: () => {
    toggleSideMenu();
  },
};
