import type { Command } from '../command.ts';

export const reportBugCommand: Command = {
  id: 'help.reportBug',
  title: 'Report bug',
  section: 'Help',
  keywords: ['support', 'ticket', 'problem', 'issue', 'broken'],
  permissions: ['Portal.Tickets.Create'],
  when: (ctx) => ctx.signedIn,
  run: ({ navigate }, args) => navigate('/tickets/add?type=bug', { beside: args.beside === true }),
};
