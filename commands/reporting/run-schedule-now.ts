import type { Command } from '../command.ts';

/**
 * 'Run now' in My report queue: the current schedule (the row holding focus, or the only one) queues one run of the
 * period just ended. The pane declares 'runSchedule' only while that schedule says the server would run it
 * (mayRunNow: the report's permissions in its context, as making it checks them).
 */
export const runScheduleNowCommand: Command = {
  id: 'reporting.runScheduleNow',
  title: 'Run now',
  section: 'Record',
  keywords: ['run now', 'schedule', 'scheduled export', 'statement', 'report queue', 'again', 'trigger'],
  shortcut: 'Shift+R',
  permissions: ['Portal.Reports.Create'],
  when: (ctx) => ctx.route?.id === 'reportQueue' && ctx.focusedPane?.capabilities.includes('runSchedule') === true && !ctx.fieldFocused && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('runSchedule'),
};
