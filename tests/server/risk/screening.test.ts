// Screening quality (issue 22): recall on the seeded fictional list for transliterated, misspelt and reordered
// names, and false positives on common names, at each sensitivity. The figures are printed and held to floors.
import { describe, expect, it } from 'vitest';
import { screeningList } from '../../../server/risk/screening-list.ts';
import {
  jaroWinkler, nameScore, normaliseName, screen, sensitivityThresholds, withDateOfBirth, type ScreeningSensitivity,
} from '../../../server/risk/screening.ts';

/** Deterministic misspellings: a dropped letter, two swapped letters, a doubled letter, a vowel changed. */
function misspell(name: string, variant: number): string {
  const tokens = name.split(' ');
  const longest = tokens.reduce((best, token, index) => (token.length > (tokens[best]?.length ?? 0) ? index : best), 0);
  const word = tokens[longest] ?? '';
  const at = Math.max(1, Math.floor(word.length / 2));
  const changed = [
    word.slice(0, at) + word.slice(at + 1),
    word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2),
    word.slice(0, at) + (word[at] ?? '') + word.slice(at),
    word.slice(0, at) + ((word[at] ?? 'a') === 'e' ? 'a' : 'e') + word.slice(at + 1),
  ][variant % 4] ?? word;
  tokens[longest] = changed;
  return tokens.join(' ');
}

type Probe = { expected: string; name: string; dateOfBirth: string | null; how: string };

function probes(): Probe[] {
  const out: Probe[] = [];
  for (const entry of screeningList) {
    const tokens = entry.name.split(' ');
    const firstLast = entry.kind === 'person' ? `${tokens[0]} ${tokens[tokens.length - 1]}` : entry.name;
    const dateOfBirth = entry.dateOfBirth;
    out.push({ expected: entry.id, name: firstLast, dateOfBirth, how: 'first and last name' });
    if (entry.kind === 'person') out.push({ expected: entry.id, name: `${tokens[tokens.length - 1]}, ${tokens[0]}`, dateOfBirth, how: 'reordered' });
    for (const variant of [0, 1, 2, 3]) out.push({ expected: entry.id, name: misspell(firstLast, variant), dateOfBirth, how: `misspelt ${variant}` });
    const nonLatin = entry.aliases.find((alias) => /[^\u0000-\u024f]/.test(alias));
    if (nonLatin) out.push({ expected: entry.id, name: nonLatin, dateOfBirth, how: 'other script' });
    out.push({ expected: entry.id, name: entry.name.toUpperCase().replace(/[-']/g, ' '), dateOfBirth: null, how: 'capitals, no date of birth' });
  }
  return out;
}

const commonGiven = ['James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Susan', 'Richard', 'Jessica', 'Thomas', 'Sarah', 'Mohammed', 'Fatima', 'Wei', 'Olga'];
const commonFamily = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Wright', 'Garcia', 'Müller', 'Martin', 'Rossi', 'Novak', 'Kowalski', 'Ivanov', 'Khan', 'Nguyen', 'Silva'];
const commonCompanies = ['Smith & Sons Ltd', 'Northern Logistics Ltd', 'Harbour Trading Ltd', 'Golden Gate Foods LLC', 'Blue Sky Travel', 'Green Valley Farms', 'Star Shipping Ltd', 'Pacific Electronics Ltd', 'Crescent Bakery', 'Ridge Mining Supplies'];

function commonNames(): { name: string; dateOfBirth: string | null }[] {
  const out: { name: string; dateOfBirth: string | null }[] = [];
  let n = 0;
  for (const given of commonGiven) for (const family of commonFamily) {
    n += 1;
    out.push({ name: `${given} ${family}`, dateOfBirth: `${1950 + (n % 50)}-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}` });
  }
  for (const company of commonCompanies) out.push({ name: company, dateOfBirth: null });
  return out;
}

describe('name normalisation and scores', () => {
  it.each([
    ['Вадим Аркадьевич Золотарёв', ['vadim', 'arkadevich', 'zolotarev']],
    ['Mustafa Kemal Dervişoğlu', ['mustafa', 'kemal', 'dervisoglu']],
    ['Henrik Østergaard-Lindqvist', ['henrik', 'ostergard', 'lindqvist']],
    ['Zolotaya Gavan Trading LLC', ['zolotaya', 'gavan', 'trading']],
    ['Κωνσταντίνος', ['konstantinos']],
  ])('normalises %s', (name, tokens) => {
    expect(normaliseName(name)).toEqual(tokens);
  });

  it('scores the same name 1 and unrelated names low', () => {
    expect(nameScore('Ada Lovelace', 'LOVELACE, Ada')).toBe(1);
    expect(nameScore('Ada Lovelace', 'Bartholomew Quint')).toBeLessThan(0.6);
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
  });

  it('weighs the date of birth: same date up, another year down', () => {
    expect(withDateOfBirth(0.9, '1968-03-14', '1968-03-14')).toBeCloseTo(0.95);
    expect(withDateOfBirth(0.9, '1990-03-14', '1968-03-14')).toBeCloseTo(0.72);
    expect(withDateOfBirth(0.9, null, '1968-03-14')).toBe(0.9);
  });
});

describe('screening quality on the seeded list', () => {
  const all = probes();
  const entries = screeningList;
  const figures: Record<ScreeningSensitivity, { recall: number; falsePositiveRate: number }> = {} as never;
  for (const sensitivity of ['low', 'medium', 'high'] as const) {
    const threshold = sensitivityThresholds[sensitivity];
    const found = all.filter((probe) => screen({ names: [probe.name], dateOfBirth: probe.dateOfBirth }, entries, threshold).some((match) => match.entryId === probe.expected));
    const common = commonNames();
    const falsePositives = common.filter((subject) => screen({ names: [subject.name], dateOfBirth: subject.dateOfBirth }, entries, threshold).length > 0);
    figures[sensitivity] = { recall: found.length / all.length, falsePositiveRate: falsePositives.length / common.length };
  }

  it('reports recall and false positives per sensitivity', () => {
    console.log(`screening figures over ${all.length} probes of ${entries.length} entries and ${commonNames().length} common names:`, JSON.stringify(figures));
    expect(figures.medium.recall).toBeGreaterThanOrEqual(0.95);
    expect(figures.high.recall).toBeGreaterThanOrEqual(figures.medium.recall);
    expect(figures.medium.falsePositiveRate).toBeLessThanOrEqual(0.02);
    expect(figures.low.falsePositiveRate).toBeLessThanOrEqual(figures.medium.falsePositiveRate);
  });

  it('finds transliterated names of the list from their other script, and the reverse', () => {
    const threshold = sensitivityThresholds.medium;
    expect(screen({ names: ['Золотарев Вадим'], dateOfBirth: '1968-03-14' }, entries, threshold)[0]?.entryId).toBe('SL0001');
    expect(screen({ names: ['Wadim Zolotaryov'], dateOfBirth: null }, entries, threshold)[0]?.entryId).toBe('SL0001');
    expect(screen({ names: ['Golden Harbor Trading Ltd'], dateOfBirth: null }, entries, threshold)[0]?.entryId).toBe('SL0101');
  });

  it('lets a different date of birth clear a namesake at medium sensitivity', () => {
    const threshold = sensitivityThresholds.medium;
    expect(screen({ names: ['Kim Song Chol'], dateOfBirth: '1971-03-01' }, entries, threshold).map((match) => match.entryId)).toEqual(['SL0014']);
    expect(screen({ names: ['Kim Song Chol'], dateOfBirth: '1995-08-20' }, entries, threshold)).toEqual([]);
  });
});
