// A key that ends a sequence and is also a shortcut of its own ('v r' and 'r'): the sequence typed to its end wins,
// and the single key does not run too (the ticket queue's 'v r' beside the ticket's 'r' for reply).
import { describe, expect, it, vi } from 'vitest';
import type { Command, CommandServices } from '../../commands/command.ts';
import { createCommandRegistry } from '../../commands/registry.ts';
import { createShortcutHandler } from '../../src/app/shortcut-binder.ts';
import { baseContext } from './support.tsx';

describe('shortcut sequences', () => {
  it('run the sequence, not the single key it ends with', () => {
    const reply = vi.fn();
    const view = vi.fn();
    const commands: Command[] = [
      { id: 'test.reply', title: 'Reply', section: 'Record', keywords: [], shortcut: 'r', run: reply },
      { id: 'test.view', title: 'Updated by requester', section: 'Navigation', keywords: [], shortcut: 'v r', run: view },
    ];
    const registry = createCommandRegistry(commands);
    const services = { context: () => baseContext() } as unknown as CommandServices;
    const handler = createShortcutHandler(registry, services);
    const press = (key: string) => handler(new KeyboardEvent('keydown', { key, code: `Key${key.toUpperCase()}`, cancelable: true, bubbles: true }));
    press('v');
    press('r');
    expect(view).toHaveBeenCalledTimes(1);
    expect(reply).not.toHaveBeenCalled();
    // 'r' alone still replies.
    press('r');
    expect(reply).toHaveBeenCalledTimes(1);
  });
});
