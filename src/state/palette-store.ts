// Recently used commands, most recent first. Only command ids (no user data), kept per browser profile.
import { proxy, subscribe } from 'valtio';

const storageKey = 'portal.palette.recent';
export const maxRecentCommands = 20;

function restore(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string').slice(0, maxRecentCommands) : [];
  } catch {
    return [];
  }
}

export const paletteStore = proxy<{ recent: string[] }>({ recent: restore() });

subscribe(paletteStore, () => {
  try {
    globalThis.localStorage?.setItem(storageKey, JSON.stringify(paletteStore.recent));
  } catch {
    // storage full or disabled: recents stay in memory
  }
});

/** Commands the palette does not list (opening and closing overlays): never "recent" either. */
export const commandsHiddenFromPalette: ReadonlySet<string> = new Set(['help.openPalette', 'help.closeOverlay']);

export function recordRecentCommand(id: string): void {
  // Unchanged when it is already the most recent: a new list would re-rank and re-render the palette for nothing.
  if (commandsHiddenFromPalette.has(id) || paletteStore.recent[0] === id) return;
  paletteStore.recent = [id, ...paletteStore.recent.filter((recent) => recent !== id)].slice(0, maxRecentCommands);
}
