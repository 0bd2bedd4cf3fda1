// The permissions of the applied context, as the session fetched them (the ticket screens show what the server
// would allow: staff's workflow controls, the composer, the internal-note switch).
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';

export function useGrantedHere(): readonly string[] {
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  return session.permissions[permissionScope(applied as ContextSelections).key] ?? [];
}
