// The palette's ranking: prefix beats word start beats substring beats scattered letters; recent first.
import { describe, expect, it } from 'vitest';
import { rankCommands, scoreCommand } from '../../commands/rank.ts';

const item = (id: string, title: string, keywords: string[] = []) => ({ id, title, keywords, section: 'Navigation' });
const items = [
  item('nav.transactions', 'Go to transactions', ['payments']),
  item('nav.partnerTransactions', 'Partner transactions'),
  item('table.export', 'Export…', ['download', 'csv']),
  item('nav.tickets', 'Go to support tickets', ['help']),
  item('workspace.copyLink', 'Copy link to this view', ['share']),
];

describe('rankCommands', () => {
  it('needs every typed word to match', () => {
    expect(scoreCommand(items[0]!, 'go trans')).toBeGreaterThan(0);
    expect(scoreCommand(items[0]!, 'go xyz')).toBe(0);
  });

  it('puts title prefixes before word starts before keywords', () => {
    expect(rankCommands(items, 'partner', [], 10).map((ranked) => ranked.id)).toEqual(['nav.partnerTransactions']);
    expect(rankCommands(items, 'trans', [], 10).map((ranked) => ranked.id)).toEqual(['nav.transactions', 'nav.partnerTransactions']);
    expect(rankCommands(items, 'csv', [], 10).map((ranked) => ranked.id)).toEqual(['table.export']);
  });

  it('lists recently used commands first when nothing is typed', () => {
    expect(rankCommands(items, '', ['workspace.copyLink', 'nav.tickets'], 3).map((ranked) => ranked.id)).toEqual([
      'workspace.copyLink',
      'nav.tickets',
      'nav.transactions',
    ]);
  });

  it('boosts a recent command among equal matches', () => {
    expect(rankCommands(items, 'transactions', ['nav.partnerTransactions'], 2)[0]?.id).toBe('nav.partnerTransactions');
  });

  it('puts an action of the screen before a navigation that matches as well', () => {
    const here = [item('nav.schedules', 'Scheduled statements and reports'), { ...item('reporting.schedule', 'Schedule statement…'), section: 'Table' }];
    expect(rankCommands(here, 'schedule', [], 10).map((ranked) => ranked.id)).toEqual(['reporting.schedule', 'nav.schedules']);
    // A better match still wins.
    expect(rankCommands(here, 'scheduled', [], 10).map((ranked) => ranked.id)).toEqual(['nav.schedules']);
  });

  it('caps the result', () => {
    const many = Array.from({ length: 1000 }, (_, index) => item(`c${index}`, `Command ${index}`));
    expect(rankCommands(many, 'command', [], 50)).toHaveLength(50);
  });
});

describe('scattered letters', () => {
  it('match within a word or across word initials, not anywhere', () => {
    expect(scoreCommand(items[0]!, 'trnsctns')).toBeGreaterThan(0);
    expect(scoreCommand(items[0]!, 'gtt')).toBeGreaterThan(0);
    expect(scoreCommand(items[4]!, 'csv')).toBe(0);
  });
});
