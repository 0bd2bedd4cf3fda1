import type { Command } from '../command.ts';

export const giveFeedbackCommand: Command = {
  id: 'help.giveFeedback',
  title: 'Give feedback',
  section: 'Help',
  keywords: ['support', 'ticket', 'idea', 'feature request', 'suggestion'],
  permissions: ['Portal.Tickets.Create'],
  when: (ctx) => ctx.signedIn,
  run: ({ navigate }, args) => navigate('/tickets/add?type=featureRequest', { beside: args.beside === true }),
};
