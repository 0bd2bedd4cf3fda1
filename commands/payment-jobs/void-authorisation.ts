import type { Command } from '../command.ts';

/** Releases an authorisation with nothing captured; it cannot be undone. */
export const voidAuthorisationCommand: Command = {
  id: 'paymentJob.void',
  title: 'Void authorisation',
  section: 'Record',
  keywords: ['void', 'release', 'authorisation', 'cancel authorisation'],
  shortcut: 'Shift+V',
  permissions: ['Portal.Payments.Void'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('void') === true,
  run: ({ state }) => state.paneRequest('void'),
};
