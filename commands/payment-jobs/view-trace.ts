import type { Command } from '../command.ts';

/** Opens the trace of the job's latest payment. */
export const viewTraceCommand: Command = {
  id: 'paymentJob.viewTrace',
  title: 'View trace',
  section: 'Record',
  keywords: ['trace', 'gateway', 'log', 'messages', 'acquirer'],
  shortcut: 'Shift+T',
  permissions: ['Portal.Traces.Read'],
  // Declared by the payment job detail only while the focused job allows it (the server checks again).
  when: (ctx) => ctx.focusedPane?.capabilities.includes('viewTrace') === true,
  run: ({ state }) => state.paneRequest('viewTrace'),
};
