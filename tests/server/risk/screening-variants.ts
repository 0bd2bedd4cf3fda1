// The labelled screening set: variants of the fictional list's entries that screening should find (other
// transliterations, spacing, initials, digits for letters, reordered names, misspellings, a date of birth a day, a
// month or a year off) and other plausible names it should not. Generated without randomness, so the same set is
// measured before and after a change to the matcher, and the figures can be held to floors and ceilings.
import { screeningList } from '../../../server/risk/screening-list.ts';
import type { ListEntry, PossibleMatch, Screened } from '../../../server/risk/screening.ts';

export type Labelled = { name: string; dateOfBirth: string | null; expected: string | null; how: string };

const persons = screeningList.filter((entry) => entry.kind === 'person');
const companies = screeningList.filter((entry) => entry.kind === 'company');

/** Titles the list carries in front of a name that a payer would not type. */
const withoutTitle = (name: string) => name.replace(/^(Baroness|Sir) /, '');
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every code point from U+0000 up to the end of Latin Extended-B
const latinOnly = (name: string) => !/[^\u0000-\u024f]/.test(name);
const ascii = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/æ/g, 'ae')
    .replace(/ə/g, 'a')
    .replace(/ı/g, 'i');

function parts(entry: ListEntry): { given: string; middle: string[]; family: string } {
  const tokens = withoutTitle(entry.name).split(' ');
  return { given: tokens[0] ?? '', middle: tokens.slice(1, -1), family: tokens[tokens.length - 1] ?? '' };
}

/** Another romanisation of the same sounds: German (w, sch, j, s), French/English (ou, i, ch) and loose (x, f, h). */
const transliterations: ((name: string) => string)[] = [
  (name) =>
    name
      .replace(/v/g, 'w')
      .replace(/V/g, 'W')
      .replace(/sh/g, 'sch')
      .replace(/y(?=[aeiou])/g, 'j')
      .replace(/Y(?=[aeiou])/g, 'J')
      .replace(/^Z|(?<= )Z/g, 'S'),
  (name) =>
    name
      .replace(/(?<=[^aeiou ])u/g, 'ou')
      .replace(/y(?![aeiou])/g, 'i')
      .replace(/kh/g, 'ch')
      .replace(/ya/g, 'ia'),
  (name) => name.replace(/ks/g, 'x').replace(/ph/g, 'f').replace(/kh/g, 'h').replace(/ei/g, 'ey').replace(/ee/g, 'i').replace(/dd/g, 'd').replace(/ss/g, 's'),
];

/** Digits and signs typed for letters, more of them as `level` grows (0: vowels a and o; 1: also e, i, s; 2: also l, t, b). */
function leet(name: string, level: number): string {
  const maps: Record<string, string>[] = [
    { a: '4', o: '0' },
    { a: '4', o: '0', e: '3', i: '1', s: '5' },
    { a: '@', o: '0', e: '3', i: '1', s: '$', l: '1', t: '7', b: '8' },
  ];
  const map = maps[level] ?? {};
  // Only some letters change, as typed: every second candidate letter of each word, starting with the first.
  return name
    .split(' ')
    .map((word) => {
      let seen = 0;
      return [...word]
        .map((char) => {
          const swap = map[char.toLowerCase()];
          if (!swap) return char;
          seen += 1;
          return seen % 2 === 1 ? swap : char;
        })
        .join('');
    })
    .join(' ');
}

/** Deterministic misspellings of the longest word: a dropped letter, two swapped, one doubled, a vowel changed. */
export function misspell(name: string, variant: number): string {
  const tokens = name.split(' ');
  const longest = tokens.reduce((best, token, index) => (token.length > (tokens[best]?.length ?? 0) ? index : best), 0);
  const word = tokens[longest] ?? '';
  const at = Math.max(1, Math.floor(word.length / 2));
  const changed =
    [
      word.slice(0, at) + word.slice(at + 1),
      word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2),
      word.slice(0, at) + (word[at] ?? '') + word.slice(at),
      word.slice(0, at) + ((word[at] ?? 'a') === 'e' ? 'a' : 'e') + word.slice(at + 1),
    ][variant % 4] ?? word;
  tokens[longest] = changed;
  return tokens.join(' ');
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The date a day later, a month earlier, a year later, or with day and month swapped (when that is a date). */
export function shiftedDates(dateOfBirth: string): { how: string; date: string }[] {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const out = [
    { how: 'date of birth a day later', date: isoDate(new Date(Date.UTC(year, month - 1, day + 1))) },
    { how: 'date of birth a month earlier', date: `${year}-${pad(month === 1 ? 12 : month - 1)}-${pad(Math.min(day, 28))}` },
    { how: 'date of birth a year later', date: `${year + 1}-${pad(month)}-${pad(day)}` },
    { how: 'date of birth a year earlier', date: `${year - 1}-${pad(month)}-${pad(day)}` },
  ];
  if (day <= 12 && day !== month) out.push({ how: 'date of birth with day and month swapped', date: `${year}-${pad(day)}-${pad(month)}` });
  return out;
}

/** Variants of the list's entries, each labelled with the entry it should match. */
export function positives(): Labelled[] {
  const out: Labelled[] = [];
  for (const entry of persons) {
    const { given, middle, family } = parts(entry);
    const dob = entry.dateOfBirth;
    const firstLast = `${given} ${family}`;
    const add = (how: string, name: string, dateOfBirth: string | null = dob) => out.push({ name, dateOfBirth, expected: entry.id, how });
    for (const alias of entry.aliases) add(latinOnly(alias) ? 'listed alias' : 'other script', alias);
    transliterations.forEach((rewrite, index) => {
      add(`transliteration ${index + 1}`, ascii(rewrite(firstLast)));
    });
    add('no accents, capitals', ascii(withoutTitle(entry.name)).toUpperCase());
    add('spacing: hyphens as spaces, run together', `${given}${family.replace(/-/g, '')}`);
    add('spacing: hyphens removed', withoutTitle(entry.name).replace(/-/g, ' ').replace(/ +/g, '  '));
    add('initials: given', `${given[0]}. ${family}`);
    add('initials: given and middle', `${[given, ...middle].map((token) => `${token[0]}.`).join(' ')} ${family}`);
    add('reordered: family, given', `${family}, ${given}`);
    add('reordered: family first', `${family} ${given} ${middle.join(' ')}`.trim());
    for (const level of [0, 1, 2]) add(`digits for letters ${level + 1}`, leet(ascii(firstLast), level));
    add('digits for letters, reordered', leet(ascii(`${family} ${given}`), 1));
    for (const variant of [0, 1, 2, 3]) add(`misspelt ${variant + 1}`, misspell(ascii(firstLast), variant));
    if (dob) for (const { how, date } of shiftedDates(dob)) add(how, firstLast, date);
    if (dob) add('date of birth a year later, misspelt', misspell(ascii(firstLast), 1), shiftedDates(dob)[2]?.date ?? null);
    if (dob) add('date of birth a day later, digits for letters', leet(ascii(firstLast), 0), shiftedDates(dob)[0]?.date ?? null);
    add('no date of birth', firstLast, null);
  }
  for (const entry of companies) {
    const add = (how: string, name: string) => out.push({ name, dateOfBirth: null, expected: entry.id, how });
    for (const alias of entry.aliases) add(latinOnly(alias) ? 'listed alias' : 'other script', alias);
    const bare = ascii(entry.name);
    transliterations.forEach((rewrite, index) => {
      add(`transliteration ${index + 1}`, rewrite(bare));
    });
    add('no accents, capitals', bare.toUpperCase());
    add('spacing: run together', bare.replace(/ (?=\S+$)/, '').replace(/ /, ''));
    add(
      'legal form changed',
      /\b(Ltd|LLC|SA|JSC|SAS|Co Ltd|d\.o\.o\.)$/.test(bare) ? bare.replace(/\b(Co Ltd|Ltd|LLC|SA|JSC|SAS|d\.o\.o\.)$/, 'Limited') : `${bare} Ltd`,
    );
    for (const level of [0, 1, 2]) add(`digits for letters ${level + 1}`, leet(bare, level));
    for (const variant of [0, 1, 2]) add(`misspelt ${variant + 1}`, misspell(bare, variant));
  }
  return out;
}

const givenNames = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Susan',
  'Richard',
  'Jessica',
  'Thomas',
  'Sarah',
  'Mohammed',
  'Fatima',
  'Wei',
  'Olga',
  'Sergei',
  'Natalia',
  'Ahmed',
  'Aisha',
  'Giorgos',
  'Maria',
  'Pedro',
  'Lucia',
  'Hiroshi',
  'Yuki',
  'Chinedu',
  'Ngozi',
  'Anders',
  'Ingrid',
  'Pavel',
  'Katarzyna',
  'Mehmet',
  'Ayse',
  'Rahul',
  'Priya',
];
const familyNames = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Wright',
  'Garcia',
  'Müller',
  'Martin',
  'Rossi',
  'Novak',
  'Kowalski',
  'Ivanov',
  'Khan',
  'Nguyen',
  'Silva',
  'Petrov',
  'Sokolova',
  'Haddad',
  'Yilmaz',
  'Papadopoulos',
  'Fernandez',
  'Tanaka',
  'Okafor',
  'Andersen',
  'Horvat',
  'Kuznetsov',
  'Rahman',
  'Lindqvist',
  'Dubois',
  'Moreau',
  'Schmidt',
  'Chen',
  'Lee',
  'Park',
  'Sharma',
];
const companyNames = [
  'Smith & Sons Ltd',
  'Northern Logistics Ltd',
  'Harbour Trading Ltd',
  'Golden Gate Foods LLC',
  'Blue Sky Travel',
  'Green Valley Farms',
  'Star Shipping Ltd',
  'Pacific Electronics Ltd',
  'Crescent Bakery',
  'Ridge Mining Supplies',
  'Kiln House Ceramics',
  'Weaver & Loom Textiles Ltd',
  'Millstone Flour Company',
  'Fellside Tents GmbH',
  'Oak & Ash Joinery',
  'Silver Birch Consulting',
  'Red Kite Media',
  'Aegean Olive Oil Co',
  'Baltic Amber Imports',
  'Lotus Garden Restaurant',
  'Eastern Star Cleaning',
  'Harbour View Dental',
  'Mendip Stone Supplies',
  'Atlas Freight Forwarding',
  'Cedar Tree Builders',
  'Blue Harbour Seafood',
  'Golden Wheat Bakery',
  'Northern Star Security',
  'Kestrel Accountancy',
  'Zenith Petroleum Services',
];

/** A spread of dates from 1940 to 2005 that is not any listed date. */
function otherDate(n: number): string {
  return `${1940 + ((n * 7) % 66)}-${pad(1 + ((n * 5) % 12))}-${pad(1 + ((n * 11) % 28))}`;
}

/**
 * Names screening should not match: common given and family names of many origins (with dates of birth), relatives
 * who share a listed person's family name but not the given name or the date, and ordinary companies.
 */
export function negatives(): Labelled[] {
  const out: Labelled[] = [];
  let n = 0;
  for (const [g, given] of givenNames.entries()) {
    for (const [f, family] of familyNames.entries()) {
      // Every third pairing, shifted each row: 40 × 40 / 3 ≈ 530 people.
      if ((g + f) % 3 !== 0) continue;
      n += 1;
      out.push({ name: `${given} ${family}`, dateOfBirth: otherDate(n), expected: null, how: 'other person' });
    }
  }
  for (const [index, entry] of persons.entries()) {
    const { family } = parts(entry);
    const given = givenNames[(index * 7) % givenNames.length] ?? 'Anna';
    out.push({
      name: `${given} ${family}`,
      dateOfBirth: otherDate(1000 + index),
      expected: null,
      how: 'relative: same family name, other given name and date',
    });
  }
  for (const name of companyNames) out.push({ name, dateOfBirth: null, expected: null, how: 'other company' });
  return out;
}

export type ScreenFunction = (subject: Screened, entries: readonly ListEntry[], threshold: number) => PossibleMatch[];
export type Figures = { recall: number; found: number; falsePositives: number; falsePositiveRate: number; missedByHow: Record<string, number> };
export type Measured = { positives: number; negatives: number; byThreshold: Figures[] };

/**
 * Recall (the expected entry among the matches) and false positives (any match for a negative) at each threshold.
 * Each name is screened once, at the lowest threshold: a match at a higher one is a match there with that score.
 */
export function measure(screen: ScreenFunction, thresholds: readonly number[], entries: readonly ListEntry[] = screeningList): Measured {
  const lowest = Math.min(...thresholds);
  const wanted = positives();
  const unwanted = negatives();
  const scores = (probe: Labelled) => screen({ names: [probe.name], dateOfBirth: probe.dateOfBirth }, entries, lowest);
  const expectedScores = wanted.map((probe) => ({ probe, score: scores(probe).find((match) => match.entryId === probe.expected)?.score ?? -1 }));
  const bestOther = unwanted.map((probe) => Math.max(-1, ...scores(probe).map((match) => match.score)));
  const byThreshold = thresholds.map((threshold) => {
    const missedByHow: Record<string, number> = {};
    for (const { probe, score } of expectedScores) if (score < threshold) missedByHow[probe.how] = (missedByHow[probe.how] ?? 0) + 1;
    const found = expectedScores.filter(({ score }) => score >= threshold).length;
    const falsePositives = bestOther.filter((score) => score >= threshold).length;
    return { recall: found / wanted.length, found, falsePositives, falsePositiveRate: falsePositives / unwanted.length, missedByHow };
  });
  return { positives: wanted.length, negatives: unwanted.length, byThreshold };
}
