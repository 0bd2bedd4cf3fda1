// The app's services, given to the tree through context so tests can hand in fakes. The entry provides the
// base (session, query client, inactivity timings); the shell, a lazy chunk, adds the command registry and
// what commands may do, so every command and what it imports stays out of the first load.
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { CommandServices } from '../../commands/command.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import type { InactivityTimings } from '../auth/inactivity.ts';
import type { Session } from '../auth/session.ts';

export type BaseServices = {
  session: Session;
  queryClient: QueryClient;
  inactivity: InactivityTimings;
};

export type AppServices = BaseServices & {
  registry: CommandRegistry;
  commandServices: CommandServices;
};

export const AppServicesContext = createContext<BaseServices | AppServices | null>(null);

export function hasShellServices(services: BaseServices | AppServices): services is AppServices {
  return 'registry' in services && 'commandServices' in services;
}

/** Session, query client and timings: available everywhere. */
export function useBaseServices(): BaseServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('AppServicesContext is missing: render inside <AppServicesContext value={…}>.');
  return services;
}

/** Everything, the registry included: inside the shell. */
export function useAppServices(): AppServices {
  const services = useBaseServices();
  if (!hasShellServices(services)) throw new Error('The command registry is provided by the shell: render inside <Shell> (or hand it in).');
  return services;
}
