import type { Command } from '../command.ts';

/** Offered to risk analysts while a beneficiary with an open screening alert is focused: opens the decision dialog. */
export const resolveScreeningAlertCommand: Command = {
  id: 'beneficiary.resolveAlert',
  title: 'Resolve the next open screening alert',
  section: 'Record',
  keywords: ['sanctions', 'pep', 'screening', 'alert', 'dismiss', 'confirm', 'false positive'],
  shortcut: 'Shift+L',
  permissions: ['Mapi.Screening.Resolve'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('resolveAlert') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('resolveAlert'),
};
