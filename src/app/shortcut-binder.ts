// Binds every registered shortcut with tinykeys. A key press runs the one command available for it now
// (isAvailable, the same rule the palette and help use). Shortcuts never fire while typing in a field,
// except Escape and chords with Ctrl or ⌘ (they type nothing); Escape that a dialog already handled is left alone. A sequence (G then T) waits two seconds for
// its second key.
import { useEffect, useRef } from 'react';
import { createKeybindingsHandler } from 'tinykeys';
import { subscribe } from 'valtio';
import type { CommandServices } from '../../commands/command.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import { recordRecentCommand } from '../state/palette-store.ts';
import { sessionStore } from '../state/session-store.ts';
import { isControlTarget, isTypingTarget } from './command-context.ts';
import { keepFocusAfter } from './focus-keeper.ts';

export const sequenceTimeoutMs = 2000;

/** While `muted`, a completed binding runs nothing (the binder replays keys already handled into a new handler). */
export interface ShortcutGate {
  muted: boolean;
}

/** Runs the command a shortcut resolves to now; false when none is available. */
function runShortcut(registry: CommandRegistry, services: CommandServices, shortcut: string, event?: KeyboardEvent): boolean {
  const command = registry.resolveShortcut(shortcut, services.context());
  if (!command) return false;
  event?.preventDefault();
  recordRecentCommand(command.id);
  void keepFocusAfter(command.run(services, {}));
  return true;
}

export function createShortcutHandler(
  registry: CommandRegistry,
  services: CommandServices,
  gate: ShortcutGate = { muted: false },
  onUnavailable?: (shortcut: string) => void,
): EventListener {
  const bindings: Record<string, (event: KeyboardEvent) => void> = {};
  // Sequences first: tinykeys tries the bindings in this order for each key, and the handler that runs marks the
  // event handled, so 'v r' (a sequence typed to its end) wins over 'r' alone (reply) on the same key press.
  const parts = (shortcut: string) => shortcut.trim().split(/\s+/).length;
  for (const shortcut of [...registry.shortcuts()].sort((a, b) => parts(b) - parts(a))) {
    bindings[shortcut] = (event) => {
      if (gate.muted || event.defaultPrevented) return;
      if (!runShortcut(registry, services, shortcut, event)) onUnavailable?.(shortcut);
    };
  }
  return createKeybindingsHandler(bindings, {
    timeout: sequenceTimeoutMs,
    ignore: (event) => {
      if (event.repeat || event.isComposing) return true;
      if (event.key === 'Escape') return false;
      // A chord with Ctrl or ⌘ types nothing: the palette (Ctrl+K), save and the panes' keys work from a field too.
      if (event.ctrlKey || event.metaKey) return false;
      return isTypingTarget(event.target instanceof Element ? event.target : null);
    },
  });
}

/**
 * A key that ran nothing, pressed this long before the areas' commands arrived, runs the command it is bound to then
 * (not one a focused control or field took: Enter on a dialog's button once opened the first row of the table below).
 */
export const lateKeyMs = 1000;

/**
 * One keydown listener for the shell's life. The areas' commands arrive after the first screen: their keys are bound
 * as they come, by a new tinykeys handler. So that a sequence begun before they came still ends (G pressed, the
 * commands arrive, then J), the keys of the last two seconds are replayed into the new handler, muted: the replay
 * only rebuilds the half-typed sequence. One key is not muted: the last one, if it ran nothing and was pressed within
 * `lateKeyMs` (a quick j on the first record, before its command had come). A key that ran nothing also calls
 * `onUnboundKey` (the shell then fetches the areas' commands at once instead of waiting for the first screen to settle).
 */
export function useShortcutBinder(registry: CommandRegistry, services: CommandServices, onUnboundKey?: () => void): void {
  const unbound = useRef(onUnboundKey);
  unbound.current = onUnboundKey;
  useEffect(() => {
    const gate: ShortcutGate = { muted: false };
    // A shortcut completed while the applied context's permissions were still on their way (G J right after
    // applying a context): it runs when they arrive, within the sequence timeout, unless another key came since.
    let waiting: { shortcut: string; at: number } | null = null;
    // The shell's context says so (command-context.ts GuardContext); a context without the flag is never waiting.
    const permissionsPending = () => (services.context() as { permissionsLoaded?: boolean }).permissionsLoaded === false;
    const unavailable = (shortcut: string) => {
      if (permissionsPending()) waiting = { shortcut, at: performance.now() };
    };
    const stopWaiting = subscribe(sessionStore, () => {
      const pending = waiting;
      if (!pending || permissionsPending()) return;
      waiting = null;
      if (performance.now() - pending.at < sequenceTimeoutMs) runShortcut(registry, services, pending.shortcut);
    });
    let handler = createShortcutHandler(registry, services, gate, unavailable);
    let recent: { event: KeyboardEvent; at: number; late: boolean }[] = [];
    const forget = (now: number) => {
      recent = recent.filter((key) => now - key.at < sequenceTimeoutMs);
    };
    const listener = (event: Event) => {
      if (!(event instanceof KeyboardEvent)) return;
      const now = performance.now();
      forget(now);
      const modifier = modifierKeys.has(event.key);
      if (!modifier) waiting = null;
      handler(event);
      const target = event.target instanceof Element ? event.target : null;
      const ran = event.defaultPrevented;
      // A key that a focused field typed, or that a focused control acted on (Enter or Space on a dialog's button),
      // was handled there: it is never run again as a shortcut when the areas' commands arrive, whatever has the
      // focus by then. A j on a focused row link still is (the link does nothing with it).
      const activation = event.key === 'Enter' || event.key === ' ';
      const late = !ran && !isTypingTarget(target) && !(activation && isControlTarget(target));
      recent.push({ event, at: now, late });
      if (!ran && !modifier && !isTypingTarget(target)) unbound.current?.();
    };
    window.addEventListener('keydown', listener);
    const unsubscribe = registry.subscribe(() => {
      handler = createShortcutHandler(registry, services, gate, unavailable);
      const now = performance.now();
      forget(now);
      const last = recent.at(-1);
      try {
        for (const key of recent) {
          gate.muted = !(key === last && key.late && now - key.at < lateKeyMs);
          handler(key.event);
        }
      } finally {
        gate.muted = false;
      }
    });
    return () => {
      unsubscribe();
      stopWaiting();
      window.removeEventListener('keydown', listener);
    };
  }, [registry, services]);
}

const modifierKeys = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'Tab']);
