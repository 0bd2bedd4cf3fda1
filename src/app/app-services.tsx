// The app's services, given to the tree through context so tests can hand in fakes.
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { CommandServices } from '../../commands/command.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import type { InactivityTimings } from '../auth/inactivity.ts';
import type { Session } from '../auth/session.ts';

export type AppServices = {
  session: Session;
  registry: CommandRegistry;
  commandServices: CommandServices;
  queryClient: QueryClient;
  inactivity: InactivityTimings;
};

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('AppServicesContext is missing: render inside <AppServicesContext value={…}>.');
  return services;
}
