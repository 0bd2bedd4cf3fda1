// Sanctions and PEP screening: names normalised (case, accents, transliteration of Cyrillic and Greek, digits and
// signs typed for letters, punctuation, legal forms), compared by a symmetric token Jaro-Winkler score, and weighed
// by date of birth as one signal among several: a near miss lowers the score a little, it never removes a name match.
// Pure functions; server/api/beneficiaries.ts reads the list from the database and stores the alerts.

const cyrillic: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};
const greek: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};
/** Letters NFKD does not decompose into ASCII. */
const latin: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Legal forms and particles that say nothing about who someone is. */
const ignoredTokens = new Set([
  'ltd',
  'limited',
  'llc',
  'plc',
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'sarl',
  'bv',
  'nv',
  'oy',
  'ab',
  'as',
  'srl',
  'spa',
  'ooo',
  'oao',
  'zao',
  'pao',
  'jsc',
  'llp',
  'lp',
  'the',
  'and',
  'of',
  'mr',
  'mrs',
  'ms',
  'dr',
]);

/** Spelling variants that transliteration produces for the same sound (kh/h, ks/x, …), folded to one. */
function foldSpelling(token: string): string {
  return token
    .replace(/kh/g, 'h')
    .replace(/ks/g, 'x')
    .replace(/ph/g, 'f')
    .replace(/w/g, 'v')
    .replace(/yi|iy|ii|yy/g, 'y')
    .replace(/(.)\1+/g, '$1');
}

/** Digits and signs typed for the letters they look like ('V4dim Z0lotaryov'); a 1 reads as i or as l (below). */
const lookalikes: Record<string, string> = { '0': 'o', '2': 'z', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's' };
/** Stands for a 1 among letters until each word's readings are chosen. */
const eitherIorL = '*';

/**
 * In a word that has letters, digits and @ $ stand for letters; a word of digits alone ('Studio 54', a house
 * number) stays as typed. ! and | count only between two letters or digits ('Ph!lippa'), never as punctuation.
 */
function lettersForLookalikes(text: string): string {
  const inner = text
    .replaceAll(eitherIorL, ' ')
    .replace(/(?<=[a-z0-9])!(?=[a-z0-9])/g, '1')
    .replace(/(?<=[a-z0-9])\|(?=[a-z0-9])/g, 'l');
  return inner.replace(/[a-z0-9@$]+/g, (word) =>
    /[a-z]/.test(word) && /[0-9@$]/.test(word) ? [...word].map((char) => (char === '1' ? eitherIorL : (lookalikes[char] ?? char))).join('') : word,
  );
}

/** Lower case, Latin letters, accents dropped, before digits are read as letters. */
function latinLower(name: string): string {
  const transliterate = (text: string) => [...text].map((char) => cyrillic[char] ?? greek[char] ?? latin[char] ?? char).join('');
  // Before decomposing (й is not и), and again after it for accented letters the maps hold bare (ί → ι).
  return transliterate(
    transliterate(name.toLowerCase())
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, ''),
  );
}

const finish = (tokens: string[]) => tokens.filter((token) => token !== '' && !ignoredTokens.has(token)).map(foldSpelling);

/**
 * Every way to read a name: one, or, when a 1 among letters may be an i or an l ('A1-Qarni', 'Ph1lippa Hart1ey'),
 * each word read both ways (the first reading takes i throughout). Past three such words, i throughout or l throughout.
 */
export function nameReadings(name: string): string[][] {
  const words = lettersForLookalikes(latinLower(name))
    .replace(/[^a-z0-9*]+/g, ' ')
    .trim()
    .split(' ');
  const ambiguous = words.filter((word) => word.includes(eitherIorL)).length;
  const read = (word: string, letter: string) => word.replaceAll(eitherIorL, letter);
  if (ambiguous === 0) return [finish(words)];
  if (ambiguous > 3) return [finish(words.map((word) => read(word, 'i'))), finish(words.map((word) => read(word, 'l')))];
  let readings: string[][] = [[]];
  for (const word of words) {
    const choices = word.includes(eitherIorL) ? [read(word, 'i'), read(word, 'l')] : [word];
    readings = readings.flatMap((reading) => choices.map((choice) => [...reading, choice]));
  }
  return readings.map(finish);
}

export function normaliseName(name: string): string[] {
  return nameReadings(name)[0] ?? [];
}

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i += 1) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j += 1) {
      if (!bMatched[j] && a[i] === b[j]) {
        aMatched[i] = true;
        bMatched[j] = true;
        matches += 1;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, k = 0; i < a.length; i += 1) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k += 1;
    if (a[i] !== b[k]) transpositions += 1;
    k += 1;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && a[prefix] === b[prefix]) prefix += 1;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Each token's best partner on the other side, averaged with the tokens' lengths as weights. */
function directed(from: string[], to: string[]): number {
  let weighted = 0;
  let weights = 0;
  for (const token of from) {
    const best = Math.max(...to.map((other) => jaroWinkler(token, other)));
    weighted += best * token.length;
    weights += token.length;
  }
  return weights === 0 ? 0 : weighted / weights;
}

/** 0..1: how alike two names are, whatever their order, spacing, accents, script or digits typed for letters. */
export function nameScore(a: string, b: string): number {
  return readingsScore(nameReadings(a), nameReadings(b));
}

function readingsScore(a: readonly string[][], b: readonly string[][]): number {
  let best = 0;
  for (const left of a) for (const right of b) best = Math.max(best, tokenScore(left, right));
  return best;
}

function tokenScore(left: string[], right: string[]): number {
  if (left.length === 0 || right.length === 0) return 0;
  const tokens = (directed(left, right) + directed(right, left)) / 2;
  // 'Abu Bakr' and 'Abubakr': the joined, sorted tokens catch what splitting hides.
  const joined = jaroWinkler([...left].sort().join(''), [...right].sort().join(''));
  const together = jaroWinkler(left.join(''), right.join(''));
  // 'Jorge Ocampo' for 'Jorge Luis Mendívil Ocampo': each token of a name of two or more closely matches one of a
  // longer name. A shortened name weighs less than a full one (a given and a family name shared by chance are not
  // rare), and an initial does not count as found ('A Hartley' is not 'Philippa Aldwych Hartley').
  const [short, long] = left.length <= right.length ? [left, right] : [right, left];
  const found = short.every((token) => Math.max(...long.map((other) => jaroWinkler(token, other))) >= 0.9);
  const contained = short.length >= 2 && short.length < long.length && found ? directed(short, long) * 0.9 : 0;
  return Math.max(tokens, joined * 0.97, together * 0.97, contained);
}

const dayMs = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / dayMs;

/**
 * How a date of birth moves a name's score when both sides have one. The same date raises it; a near miss (a day or
 * a month off, day and month swapped, the same year, a year off or its last two digits swapped) lowers it a little,
 * as data entry errors are common and a listed person must not slip through on one; a few years off, or the same
 * day and month with one digit of the year mistyped, lowers it more; a date far off lowers it most, so that at the default sensitivity a namesake with another life clears, while a
 * perfect name still alerts at the high one.
 */
export const dateOfBirthWeights = { same: 0.05, sameYear: 0.02, near: -0.03, fewYears: -0.08, far: -0.15 } as const;

export function dateOfBirthSignal(screened: string | null, listed: string | null): keyof typeof dateOfBirthWeights | null {
  if (!screened || !listed) return null;
  const screenedYear = Number(screened.slice(0, 4));
  const listedYear = Number(listed.slice(0, 4));
  const years = Math.abs(screenedYear - listedYear);
  const swappedDigits = screened.slice(0, 2) === listed.slice(0, 2) && screened[2] === listed[3] && screened[3] === listed[2];
  if (screened.length === 4 || listed.length === 4) {
    if (years === 0) return 'sameYear';
    return years === 1 ? 'near' : years <= 3 ? 'fewYears' : 'far';
  }
  if (screened === listed) return 'same';
  const sameMonthDay = screened.slice(5) === listed.slice(5);
  const days = Math.abs(dayNumber(screened) - dayNumber(listed));
  if (years === 0 || days <= 31 || (sameMonthDay && (years === 1 || swappedDigits))) return 'near';
  const oneDigitOff = [...screened.slice(0, 4)].filter((digit, index) => digit !== listed[index]).length === 1;
  return years <= 3 || (sameMonthDay && oneDigitOff) ? 'fewYears' : 'far';
}

export function withDateOfBirth(score: number, screened: string | null, listed: string | null): number {
  const signal = dateOfBirthSignal(screened, listed);
  return signal === null ? score : Math.min(1, Math.max(0, score + dateOfBirthWeights[signal]));
}

export const screeningSensitivities = ['low', 'medium', 'high'] as const;
export type ScreeningSensitivity = (typeof screeningSensitivities)[number];

/** The score at or above which a possible match becomes an alert (higher sensitivity: lower threshold, more alerts). */
export const sensitivityThresholds: Record<ScreeningSensitivity, number> = { low: 0.93, medium: 0.88, high: 0.83 };

export type ListEntry = { id: string; kind: 'person' | 'company'; name: string; aliases: readonly string[]; dateOfBirth: string | null };
export type Screened = { names: readonly string[]; dateOfBirth: string | null };
export type PossibleMatch = { entryId: string; score: number; matchedName: string; screenedName: string };

/** Every list entry whose best name pairing reaches the threshold, best first. */
export function screen(subject: Screened, entries: readonly ListEntry[], threshold: number): PossibleMatch[] {
  const matches: PossibleMatch[] = [];
  const names = subject.names.filter((name) => name.trim() !== '').map((name) => ({ name, readings: nameReadings(name) }));
  for (const entry of entries) {
    let best: PossibleMatch | null = null;
    for (const listed of [entry.name, ...entry.aliases]) {
      const listedReadings = nameReadings(listed);
      for (const { name, readings } of names) {
        const raw = readingsScore(readings, listedReadings);
        if (raw < threshold - 0.1) continue;
        const score = entry.kind === 'person' ? withDateOfBirth(raw, subject.dateOfBirth, entry.dateOfBirth) : raw;
        if (!best || score > best.score) best = { entryId: entry.id, score, matchedName: listed, screenedName: name };
      }
    }
    if (best && best.score >= threshold) matches.push(best);
  }
  return matches.sort((a, b) => b.score - a.score || a.entryId.localeCompare(b.entryId));
}
