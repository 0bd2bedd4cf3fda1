import type { Command } from '../command.ts';

/** Offered while a beneficiary the caller may approve is focused (the server's four-eyes and alert checks passed). */
export const approveBeneficiaryCommand: Command = {
  id: 'beneficiary.approve',
  title: 'Approve this beneficiary',
  section: 'Record',
  keywords: ['beneficiary', 'approve', 'four eyes', 'payout'],
  shortcut: 'Shift+Y',
  permissions: ['Mapi.Beneficiary.Approve'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('approve') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('approve'),
};
