import type { Command } from '../command.ts';

/** Saves the focused virtual terminal settings (offered while they have unsaved changes). */
export const saveVirtualTerminalSettingsCommand: Command = {
  id: 'virtualTerminal.saveSettings',
  title: 'Save virtual terminal settings',
  section: 'Record',
  keywords: ['virtual terminal', 'settings', 'save'],
  permissions: ['Portal.Settings.Update'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('saveSettings') === true,
  run: ({ state }) => state.paneRequest('saveSettings'),
};
