import type { Command } from '../command.ts';

export const signOutCommand: Command = {
  id: 'session.signOut',
  title: 'Logout',
  section: 'Session',
  keywords: ['sign out', 'log out', 'logout', 'exit', 'leave'],
  when: (ctx) => ctx.signedIn,
  run: ({ navigate }) => navigate('/sign-out'),
};
