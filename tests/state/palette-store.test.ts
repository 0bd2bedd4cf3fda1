// Recently used commands: most recent first, capped, without the overlay commands, and the same list (the same
// array) when the command run is already the most recent, so the palette does not re-rank for nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { maxRecentCommands, paletteStore, recordRecentCommand } from '../../src/state/palette-store.ts';

describe('recent commands', () => {
  beforeEach(() => {
    paletteStore.recent = [];
  });

  it('puts the command run first, once, and keeps at most the cap', () => {
    recordRecentCommand('nav.users');
    recordRecentCommand('nav.transactions');
    recordRecentCommand('nav.users');
    expect(paletteStore.recent).toEqual(['nav.users', 'nav.transactions']);
    for (let index = 0; index < maxRecentCommands + 5; index += 1) recordRecentCommand(`bulk.c${index}`);
    expect(paletteStore.recent).toHaveLength(maxRecentCommands);
    expect(paletteStore.recent[0]).toBe(`bulk.c${maxRecentCommands + 4}`);
  });

  it('leaves the list as it is when the command is already the most recent', () => {
    recordRecentCommand('nav.users');
    const before = paletteStore.recent;
    recordRecentCommand('nav.users');
    expect(paletteStore.recent).toBe(before);
  });

  it('does not record opening or closing the overlays', () => {
    recordRecentCommand('nav.users');
    recordRecentCommand('help.openPalette');
    recordRecentCommand('help.closeOverlay');
    expect(paletteStore.recent).toEqual(['nav.users']);
  });
});
