// Binds every registered shortcut with tinykeys. A key press runs the one command available for it now
// (isAvailable, the same rule the palette and help use). Shortcuts never fire while typing in a field,
// except Escape; Escape that a dialog already handled is left alone.
import { useEffect } from 'react';
import { createKeybindingsHandler } from 'tinykeys';
import type { CommandServices } from '../../commands/command.ts';
import type { CommandRegistry } from '../../commands/registry.ts';
import { recordRecentCommand } from '../state/palette-store.ts';
import { isTypingTarget } from './command-context.ts';

export function createShortcutHandler(registry: CommandRegistry, services: CommandServices): EventListener {
  const bindings: Record<string, (event: KeyboardEvent) => void> = {};
  for (const shortcut of registry.shortcuts()) {
    bindings[shortcut] = (event) => {
      if (event.defaultPrevented) return;
      const command = registry.resolveShortcut(shortcut, services.context());
      if (!command) return;
      event.preventDefault();
      recordRecentCommand(command.id);
      void command.run(services, {});
    };
  }
  return createKeybindingsHandler(bindings, {
    ignore: (event) => {
      if (event.repeat || event.isComposing) return true;
      if (event.key === 'Escape') return false;
      return isTypingTarget(event.target instanceof Element ? event.target : null);
    },
  });
}

export function useShortcutBinder(registry: CommandRegistry, services: CommandServices): void {
  useEffect(() => {
    let handler = createShortcutHandler(registry, services);
    window.addEventListener('keydown', handler);
    // The areas' commands arrive after the first screen: their keys are bound as they come.
    const unsubscribe = registry.subscribe(() => {
      window.removeEventListener('keydown', handler);
      handler = createShortcutHandler(registry, services);
      window.addEventListener('keydown', handler);
    });
    return () => {
      unsubscribe();
      window.removeEventListener('keydown', handler);
    };
  }, [registry, services]);
}
