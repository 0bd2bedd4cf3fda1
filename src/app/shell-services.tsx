// The shell's part of the services: the command registry (every command, created once) and what commands
// may do. Lives in the shell's chunk.
import { type ReactNode, useMemo } from 'react';
import { createAppRegistry } from './app-registry.ts';
import { type AppServices, AppServicesContext, hasShellServices, useBaseServices } from './app-services.tsx';
import { createCommandServices } from './command-services.ts';

let created: Pick<AppServices, 'registry' | 'commandServices'> | null = null;

export function ShellServices({ children }: { children: ReactNode }) {
  const base = useBaseServices();
  const services = useMemo<AppServices>(() => {
    if (hasShellServices(base)) return base;
    created ??= { registry: createAppRegistry(undefined, [], { areasToCome: true }), commandServices: createCommandServices(base.queryClient) };
    return { ...base, ...created };
  }, [base]);
  return <AppServicesContext value={services}>{children}</AppServicesContext>;
}
