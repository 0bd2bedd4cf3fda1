// What the shell starts once the first screen has settled (shell.tsx), from this chunk of its own so the first load
// does not carry it: the areas' commands, the imports of every other screen, and the live events stream.
import type { QueryClient } from '@tanstack/react-query';
import { areaCommands } from '../../commands/area-commands.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import type { Session } from '../auth/session.ts';
import { startLiveEvents } from './live-events.ts';

/**
 * Registers the areas' commands (commands/area-commands.ts): the first load carries only the commands every screen
 * needs. Registering twice (a remounted shell) is harmless.
 */
export function registerAreaCommands(registry: CommandRegistry): void {
  const fresh = areaCommands.filter((command) => !registry.get(command.id));
  if (fresh.length > 0) registry.registerAll(fresh);
}

/** Starts the after-first-screen work; the returned function stops what keeps running (the events stream). */
export function startAfterFirstScreen(registry: CommandRegistry, session: Pick<Session, 'getAccessToken' | 'signOut'>, queryClient: QueryClient): () => void {
  registerAreaCommands(registry);
  // The imports of every other screen (routes.ts areaPane), so opening one later waits for its own chunk only.
  void import('./area-panes.ts').catch(() => undefined);
  return startLiveEvents(session, queryClient);
}
