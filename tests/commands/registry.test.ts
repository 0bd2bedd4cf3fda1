// The registry: one availability rule, refusal of duplicate ids and colliding shortcuts.
import { describe, expect, it, vi } from 'vitest';
import type { Command } from '../../commands/command.ts';
import { collisionsIn, CommandRegistryError, createCommandRegistry, isAvailable } from '../../commands/registry.ts';
import { normaliseShortcut, shortcutKeys, shortcutLabel, shortcutsCollide } from '../../commands/shortcut.ts';
import { paneCapabilities } from '../../src/state/workspace-store.ts';
import { areaCommands } from '../../commands/area-commands.ts';
import { registerAreaCommands } from '../../src/app/after-first-screen.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { routes } from '../../src/app/routes.ts';
import { baseContext } from '../app/support.tsx';

const command = (id: string, extra: Partial<Command> = {}): Command => ({ id, title: id, section: 'Help', keywords: [], run: vi.fn(), ...extra });

describe('isAvailable', () => {
  it.each([
    ['no rules', command('a'), baseContext(), true],
    ['held permission', command('a', { permissions: ['Mapi.Users.Read'] }), baseContext({ permissions: ['Mapi.Users.Read'] }), true],
    [
      'one of two permissions',
      command('a', { permissions: ['Mapi.Users.Read', 'Mapi.Users.Create'] }),
      baseContext({ permissions: ['Mapi.Users.Read'] }),
      false,
    ],
    ['when false', command('a', { when: (ctx) => ctx.paneCount > 1 }), baseContext(), false],
    ['when true', command('a', { when: (ctx) => ctx.paneCount > 1 }), baseContext({ paneCount: 2 }), true],
    [
      'permission held but when false',
      command('a', { permissions: ['Mapi.Users.Read'], when: () => false }),
      baseContext({ permissions: ['Mapi.Users.Read'] }),
      false,
    ],
  ] as const)('%s', (_name, candidate, ctx, expected) => {
    expect(isAvailable(candidate, ctx)).toBe(expected);
  });
});

describe('registry', () => {
  it('refuses a duplicate id', () => {
    const registry = createCommandRegistry([command('nav.home')]);
    expect(() => registry.register(command('nav.home'))).toThrow(CommandRegistryError);
  });

  it('refuses a shortcut that collides with an always-available one', () => {
    const registry = createCommandRegistry([command('a', { shortcut: 'Shift+X' })]);
    expect(() => registry.register(command('b', { shortcut: 'shift+x', when: () => true }))).toThrow(/collides/);
    expect(() => registry.register(command('c', { shortcut: 'Shift+KeyX' }))).toThrow(/collides/);
  });

  it('refuses a sequence that starts with another shortcut', () => {
    const registry = createCommandRegistry([command('g', { shortcut: 'g' })]);
    expect(() => registry.register(command('gt', { shortcut: 'g t' }))).toThrow(/collides/);
  });

  it('accepts one shortcut for commands whose when rules keep them apart, and runs the one available', () => {
    const tableExport = command('table.export', { shortcut: 'Shift+X', when: (ctx) => ctx.paneCount === 1 });
    const other = command('other.export', { shortcut: 'Shift+X', when: (ctx) => ctx.paneCount === 2 });
    const registry = createCommandRegistry([tableExport, other]);
    expect(registry.resolveShortcut('Shift+X', baseContext({ paneCount: 1 }))?.id).toBe('table.export');
    expect(registry.resolveShortcut('Shift+X', baseContext({ paneCount: 2 }))?.id).toBe('other.export');
    expect(registry.resolveShortcut('Shift+X', baseContext({ paneCount: 3 }))).toBeNull();
  });

  it('runs neither when two conditional commands claim a shortcut at once', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const registry = createCommandRegistry([command('a', { shortcut: 'Shift+X', when: () => true }), command('b', { shortcut: 'Shift+X', when: () => true })]);
    expect(registry.resolveShortcut('Shift+X', baseContext())).toBeNull();
    expect(collisionsIn(registry, baseContext())).toEqual([['a', 'b']]);
    error.mockRestore();
  });

  it('lists available commands without argument-taking ones, in section order', () => {
    const registry = createCommandRegistry([
      command('help.x', { section: 'Help' }),
      command('nav.x', { section: 'Navigation' }),
      command('record.open', { section: 'Record', requiresArgs: true }),
      command('nav.hidden', { section: 'Navigation', when: () => false }),
    ]);
    expect(registry.available(baseContext()).map((candidate) => candidate.id)).toEqual(['nav.x', 'help.x']);
  });
});

describe('shortcuts', () => {
  it.each([
    ['$mod+k', 'control+k'],
    ['Shift+X', 'shift+x'],
    ['Shift+Digit1', 'shift+1'],
    ['g t', 'g t'],
    ['Control+Shift+BracketRight', 'control+shift+bracketright'],
    ['[Shift]+?', '?'],
  ])('normalises %s as %s', (shortcut, expected) => {
    expect(normaliseShortcut(shortcut)).toBe(expected);
  });

  it('collides equal and prefix sequences only', () => {
    expect(shortcutsCollide('g t', 'g t')).toBe(true);
    expect(shortcutsCollide('g', 'g t')).toBe(true);
    expect(shortcutsCollide('g t', 'g d')).toBe(false);
    expect(shortcutsCollide('Shift+D', 'g d')).toBe(false);
  });

  it('reads as people write it', () => {
    expect(shortcutKeys('$mod+k')).toEqual([['Ctrl', 'K']]);
    expect(shortcutKeys('[Shift]+?')).toEqual([['?']]);
    expect(shortcutLabel('g t')).toBe('G then T');
    expect(shortcutLabel('Control+BracketRight')).toBe('Ctrl+]');
  });
});

describe('the app registry', () => {
  // Everything the app ever registers: the start-up commands and the areas' commands that follow the first screen.
  const registry = createAppRegistry(routes, areaCommands);
  const allPermissions = registry.all().flatMap((candidate) => candidate.permissions ?? []);

  it('builds without duplicate ids or unconditional collisions', () => {
    expect(registry.all().length).toBeGreaterThan(40);
  });

  it('has no two commands available at once for one shortcut, in any pane state', () => {
    const contexts = [
      baseContext({ permissions: allPermissions }),
      baseContext({ permissions: allPermissions, overlayOpen: true, paneCount: 4, focusedIndex: 1 }),
      ...paneCapabilities.map((capability) => baseContext({ permissions: allPermissions, focusedPane: { id: 'p', capabilities: [capability] } })),
      baseContext({ permissions: allPermissions, focusedPane: { id: 'p', capabilities: [...paneCapabilities] }, paneCount: 2 }),
    ];
    for (const ctx of contexts) expect(collisionsIn(registry, ctx)).toEqual([]);
  });

  it('starts without the areas’ commands and registers them once, telling subscribers, when their chunk arrives', () => {
    const atStart = createAppRegistry();
    const someArea = areaCommands[0];
    if (!someArea) throw new Error('no area commands');
    expect(atStart.get(someArea.id)).toBeUndefined();
    let told = 0;
    atStart.subscribe(() => {
      told += 1;
    });
    registerAreaCommands(atStart);
    expect(atStart.get(someArea.id)).toBe(someArea);
    expect(told).toBe(1);
    expect(atStart.version()).toBe(1);
    // A remounted shell asks again: nothing is registered twice and nothing throws.
    registerAreaCommands(atStart);
    expect(atStart.all().filter((command) => command.id === someArea.id)).toHaveLength(1);
    expect(atStart.all().length).toBe(registry.all().length);
  });

  it('makes every documented shortcut a palette command', () => {
    const documented = ['[Shift]+?', '/', 'Shift+Digit1', 'Shift+Digit2', 'Shift+D', 'Shift+F', 'Shift+X', 'Shift+C', 'Shift+E', 'Shift+N', 'Escape'];
    const shortcuts = registry
      .all()
      .filter((candidate) => !candidate.requiresArgs)
      .map((candidate) => candidate.shortcut);
    for (const shortcut of documented) expect(shortcuts).toContain(shortcut);
  });

  it('offers table commands only where the focused pane declares them', () => {
    const exportCommand = registry.get('table.export');
    expect(exportCommand && isAvailable(exportCommand, baseContext())).toBe(false);
    expect(exportCommand && isAvailable(exportCommand, baseContext({ focusedPane: { id: 'p', capabilities: ['export'] } }))).toBe(true);
  });

  it('offers Report bug and Give feedback only with Portal.Tickets.Create', () => {
    for (const id of ['help.reportBug', 'help.giveFeedback']) {
      const candidate = registry.get(id);
      expect(candidate && isAvailable(candidate, baseContext())).toBe(false);
      expect(candidate && isAvailable(candidate, baseContext({ permissions: ['Portal.Tickets.Create'] }))).toBe(true);
    }
  });
});
