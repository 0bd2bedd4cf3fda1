// Sanctions and PEP screening (issue 22): names normalised (case, accents, transliteration of Cyrillic and Greek,
// punctuation, legal forms), compared by a symmetric token Jaro-Winkler score, and weighed by date of birth.
// Pure functions; server/api/beneficiaries.ts reads the list from the database and stores the alerts.

const cyrillic: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', ґ: 'g', д: 'd', е: 'e', ё: 'e', є: 'ye', ж: 'zh', з: 'z', и: 'i', і: 'i', ї: 'yi', й: 'y', к: 'k',
  л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};
const greek: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x', ο: 'o', π: 'p',
  ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
/** Letters NFKD does not decompose into ASCII. */
const latin: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Legal forms and particles that say nothing about who someone is. */
const ignoredTokens = new Set([
  'ltd', 'limited', 'llc', 'plc', 'inc', 'corp', 'corporation', 'co', 'company', 'gmbh', 'ag', 'sa', 'sarl', 'bv', 'nv', 'oy', 'ab', 'as',
  'srl', 'spa', 'ooo', 'oao', 'zao', 'pao', 'jsc', 'llp', 'lp', 'the', 'and', 'of', 'mr', 'mrs', 'ms', 'dr',
]);

/** Spelling variants that transliteration produces for the same sound (kh/h, ks/x, …), folded to one. */
function foldSpelling(token: string): string {
  return token.replace(/kh/g, 'h').replace(/ks/g, 'x').replace(/ph/g, 'f').replace(/w/g, 'v').replace(/yi|iy|ii|yy/g, 'y').replace(/(.)\1+/g, '$1');
}

export function normaliseName(name: string): string[] {
  const transliterate = (text: string) => [...text].map((char) => cyrillic[char] ?? greek[char] ?? latin[char] ?? char).join('');
  // Before decomposing (й is not и), and again after it for accented letters the maps hold bare (ί → ι).
  const lower = transliterate(transliterate(name.toLowerCase()).normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
  return lower.replace(/[^a-z0-9]+/g, ' ').trim().split(' ')
    .filter((token) => token !== '' && !ignoredTokens.has(token))
    .map(foldSpelling);
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
      if (!bMatched[j] && a[i] === b[j]) { aMatched[i] = true; bMatched[j] = true; matches += 1; break; }
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

/** 0..1: how alike two names are, whatever their order, spacing, accents or script. */
export function nameScore(a: string, b: string): number {
  const left = normaliseName(a);
  const right = normaliseName(b);
  if (left.length === 0 || right.length === 0) return 0;
  const tokens = (directed(left, right) + directed(right, left)) / 2;
  // 'Abu Bakr' and 'Abubakr': the joined, sorted tokens catch what splitting hides.
  const joined = jaroWinkler([...left].sort().join(''), [...right].sort().join(''));
  const together = jaroWinkler(left.join(''), right.join(''));
  return Math.max(tokens, joined * 0.97, together * 0.97);
}

/**
 * The date of birth weighs in when both sides have one: the same date raises the score, another year lowers it
 * sharply (a namesake), the same year with another day a little (data entry errors happen).
 */
export function withDateOfBirth(score: number, screened: string | null, listed: string | null): number {
  if (!screened || !listed) return score;
  if (listed.length === 4) return screened.startsWith(listed) ? Math.min(1, score + 0.02) : score * 0.8;
  if (screened === listed) return Math.min(1, score + 0.05);
  if (screened.slice(0, 4) === listed.slice(0, 4)) return score - 0.03;
  return score * 0.8;
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
  const names = subject.names.filter((name) => name.trim() !== '');
  for (const entry of entries) {
    let best: PossibleMatch | null = null;
    for (const listed of [entry.name, ...entry.aliases]) {
      for (const name of names) {
        const raw = nameScore(name, listed);
        if (raw < threshold - 0.1) continue;
        const score = entry.kind === 'person' ? withDateOfBirth(raw, subject.dateOfBirth, entry.dateOfBirth) : raw;
        if (!best || score > best.score) best = { entryId: entry.id, score, matchedName: listed, screenedName: name };
      }
    }
    if (best && best.score >= threshold) matches.push(best);
  }
  return matches.sort((a, b) => b.score - a.score || a.entryId.localeCompare(b.entryId));
}
