// The record search's query language, shared by the palette (client) and GET /search (server):
//   status:paid amount:>100 currency:EUR merchant:"Little Wren" email:jo@ method:card date:last-week is:refunded TX6DE
// Free words and field clauses (name:value), a card by what a caller reads out (a bare 4-digit word is its last four,
// a bare 6-digit word its first six; or last4:4242, bin:424242, card:…4242, card:424242…4242), quoted values ("Little Wren", with \" and \\ inside), comparisons on
// amount and date (>, >=, <, <=, =, and ranges a..b), relative dates (today, yesterday, this-week, last-week,
// this-month, last-month, this-year, last-year, last-7-days … last-366-days). Nothing here throws: what cannot be read
// becomes a positioned problem (shown inline under the palette's input), and the rest of the query still counts.
// formatQuery(parseQuery(text).query) is the canonical spelling, and parseQuery(formatQuery(q)).query equals q for
// every valid q (property-tested). Kept small: no imports beyond the value sets.
import { channels, paymentMethods, paymentStatuses } from './enumerations.ts';

export const searchFields = ['status', 'amount', 'currency', 'merchant', 'email', 'method', 'channel', 'date', 'is', 'order', 'in', 'last4', 'bin'] as const;
export type SearchField = (typeof searchFields)[number];

export const comparisons = ['>=', '<=', '>', '<', '='] as const;
export type Comparison = (typeof comparisons)[number];

export const isValues = ['payment', 'refund', 'refunded', 'capture'] as const;
export const inValues = ['transactions', 'payments'] as const;
export const relativeDates = [
  'today',
  'yesterday',
  'this-week',
  'last-week',
  'this-month',
  'last-month',
  'this-year',
  'last-year',
  'last-7-days',
  'last-30-days',
  'last-90-days',
] as const;
const lastDaysPattern = /^last-(\d{1,3})-days$/;
const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;
const amountPattern = /^\d{1,12}(\.\d{1,3})?$/;

/** What each field means, for the completion list and the problems' wording. */
export const fieldDescriptions: Record<SearchField, string> = {
  status: 'payment status',
  amount: 'amount in major units (>, >=, <, <=, a..b)',
  currency: 'three-letter currency code',
  merchant: 'merchant name',
  email: 'start of the customer’s email',
  method: 'payment method',
  channel: 'channel',
  date: 'date (today, last-week, 2026-01-31, a..b, >=…)',
  is: 'payment, refund or capture',
  order: 'start of an order number',
  in: 'transactions or payments',
  last4: 'the card’s last four digits (or type the 4 digits alone)',
  bin: 'the card’s first six digits, its BIN (or type the 6 digits alone)',
};

/**
 * card: is a way of writing last4 and bin, not a field of its own: card:4242 and card:…4242 are last4:4242,
 * card:424242 is bin:424242, card:424242…4242 (or 424242******4242) is both.
 */
export const cardFieldDescription = 'a card as masked: …4242, 424242…, 424242…4242';
const cardValuePattern = /^(?:(\d{6})[.…*xX•]*|[.…*xX•]*)(\d{4})?$/;
const last4Pattern = /^\d{4}$/;
const binPattern = /^\d{6}$/;

/** Fields whose value is one of a closed set (declared spelling); matched case-insensitively. */
export const fieldValueSets: Partial<Record<SearchField, readonly string[]>> = {
  status: paymentStatuses,
  method: paymentMethods,
  channel: channels,
  is: isValues,
  in: inValues,
};

export type Word = { kind: 'word'; text: string };
/** A field clause; `to` only for ranges (op '..'). Values are canonical: closed sets in their declared spelling, currencies upper-case. */
export type FieldClause = { kind: 'field'; field: SearchField; op: Comparison | '..'; value: string; to?: string };
export type Clause = Word | FieldClause;
export type SearchQuery = { clauses: Clause[] };
/** A problem with the text from start to end (offsets in the input), in words for the user. */
export type QueryProblem = { start: number; end: number; message: string };
export type ParsedQuery = { query: SearchQuery; problems: QueryProblem[]; spans: { start: number; end: number; clause: Clause | null }[] };

const comparable = new Set<SearchField>(['amount', 'date']);

export function isRelativeDate(value: string): boolean {
  if ((relativeDates as readonly string[]).includes(value)) return true;
  const days = lastDaysPattern.exec(value);
  return days !== null && Number(days[1]) >= 1 && Number(days[1]) <= 366 && String(Number(days[1])) === days[1];
}

function validIsoDate(value: string): boolean {
  if (!isoDatePattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The canonical value of a field, or a problem in words. */
function checkValue(field: SearchField, raw: string): { value: string } | { problem: string } {
  if (raw === '') return { problem: `${field}: needs a value (${fieldDescriptions[field]})` };
  const set = fieldValueSets[field];
  if (set) {
    const found = set.find((candidate) => candidate.toLowerCase() === raw.toLowerCase());
    return found ? { value: found } : { problem: `${field}: '${raw}' is not one of ${set.join(', ')}` };
  }
  switch (field) {
    case 'amount':
      return amountPattern.test(raw) ? { value: raw } : { problem: `amount: '${raw}' is not an amount like 100 or 12.50` };
    case 'last4':
      return last4Pattern.test(raw) ? { value: raw } : { problem: `last4: '${raw}' is not the card’s last four digits, like 4242` };
    case 'bin':
      return binPattern.test(raw) ? { value: raw } : { problem: `bin: '${raw}' is not the card’s first six digits, like 424242` };
    case 'currency':
      return /^[A-Za-z]{3}$/.test(raw) ? { value: raw.toUpperCase() } : { problem: `currency: '${raw}' is not a three-letter code like EUR` };
    case 'date': {
      const lower = raw.toLowerCase();
      if (isRelativeDate(lower)) return { value: lower };
      return validIsoDate(raw) ? { value: raw } : { problem: `date: '${raw}' is not a date like 2026-01-31, today or last-week` };
    }
    default:
      return { value: raw };
  }
}

type Token = { start: number; end: number; name: string | null; op: string; value: string; quoted: boolean; unterminated: boolean };

/** Reads a bare or quoted run from `index`; returns its text and where it ended. */
function readValue(text: string, index: number): { value: string; end: number; quoted: boolean; unterminated: boolean } {
  if (text[index] === '"') {
    let value = '';
    let at = index + 1;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\' && at + 1 < text.length) at += 1;
      value += text[at];
      at += 1;
    }
    const unterminated = at >= text.length;
    return { value, end: unterminated ? at : at + 1, quoted: true, unterminated };
  }
  let at = index;
  while (at < text.length && !/\s/.test(text[at] ?? '')) at += 1;
  return { value: text.slice(index, at), end: at, quoted: false, unterminated: false };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    if (/\s/.test(text[index] ?? '')) {
      index += 1;
      continue;
    }
    const start = index;
    const field = /^([A-Za-z][A-Za-z0-9]*):/.exec(text.slice(index));
    if (field?.[1]) {
      let at = index + field[0].length;
      const op = /^(>=|<=|>|<|=)?/.exec(text.slice(at))?.[0] ?? '';
      at += op.length;
      const read = readValue(text, at);
      tokens.push({ start, end: read.end, name: field[1].toLowerCase(), op, value: read.value, quoted: read.quoted, unterminated: read.unterminated });
      index = read.end;
    } else {
      const read = readValue(text, index);
      tokens.push({ start, end: read.end, name: null, op: '', value: read.value, quoted: read.quoted, unterminated: read.unterminated });
      index = read.end;
    }
  }
  return tokens;
}

export function parseQuery(text: string): ParsedQuery {
  const clauses: Clause[] = [];
  const problems: QueryProblem[] = [];
  const spans: ParsedQuery['spans'] = [];
  for (const token of tokenize(text)) {
    const problem = (message: string) => {
      problems.push({ start: token.start, end: token.end, message });
      spans.push({ start: token.start, end: token.end, clause: null });
    };
    if (token.unterminated) {
      problem('A quote is not closed: add " at the end of the value');
      continue;
    }
    if (token.name === null) {
      if (token.value === '') continue;
      // The digits a caller reads out: 4 are the card's last four, 6 its first six (quoted, they stay a word).
      const cardField = token.quoted ? null : last4Pattern.test(token.value) ? 'last4' : binPattern.test(token.value) ? 'bin' : null;
      if (cardField) {
        const clause: FieldClause = { kind: 'field', field: cardField, op: '=', value: token.value };
        clauses.push(clause);
        spans.push({ start: token.start, end: token.end, clause });
        continue;
      }
      const word: Word = { kind: 'word', text: token.value };
      clauses.push(word);
      spans.push({ start: token.start, end: token.end, clause: word });
      continue;
    }
    if (token.name === 'card') {
      const card = token.op === '' ? cardValuePattern.exec(token.value) : null;
      if (!card || (!card[1] && !card[2])) {
        problem(`card: '${token.op}${token.value}' is not ${cardFieldDescription}`);
        continue;
      }
      const cardClauses: FieldClause[] = [
        ...(card[1] ? [{ kind: 'field' as const, field: 'bin' as const, op: '=' as const, value: card[1] }] : []),
        ...(card[2] ? [{ kind: 'field' as const, field: 'last4' as const, op: '=' as const, value: card[2] }] : []),
      ];
      clauses.push(...cardClauses);
      spans.push({ start: token.start, end: token.end, clause: cardClauses[0] ?? null });
      continue;
    }
    const field = searchFields.find((candidate) => candidate === token.name);
    if (!field) {
      problem(`'${token.name}' is not a field; use ${[...searchFields, 'card'].join(', ')}`);
      continue;
    }
    let op: Comparison | '..' = (token.op || '=') as Comparison;
    let raw = token.value;
    let to: string | undefined;
    if (comparable.has(field) && !token.quoted && token.op === '' && raw.includes('..')) {
      const [from = '', until = '', ...rest] = raw.split('..');
      if (rest.length > 0 || from === '' || until === '') {
        problem(`${field}: a range is written from..to, like ${field === 'amount' ? '50..100' : '2026-01-01..2026-01-31'}`);
        continue;
      }
      op = '..';
      raw = from;
      to = until;
    }
    if (token.op !== '' && !comparable.has(field)) {
      problem(`${field}: takes no comparison (only amount and date do)`);
      continue;
    }
    if (op !== '=' && field === 'date' && isRelativeDate(raw.toLowerCase())) {
      problem(`date: ${raw} is a period; compare with a day like 2026-01-31, or write date:${raw}`);
      continue;
    }
    const checked = checkValue(field, raw);
    if ('problem' in checked) {
      problem(checked.problem);
      continue;
    }
    let clause: FieldClause = { kind: 'field', field, op, value: checked.value };
    if (to !== undefined) {
      const end = checkValue(field, to);
      if ('problem' in end) {
        problem(end.problem);
        continue;
      }
      if (field === 'date' && (isRelativeDate(checked.value) || isRelativeDate(end.value))) {
        problem('date: a range runs between two days, like 2026-01-01..2026-01-31');
        continue;
      }
      clause = { ...clause, to: end.value };
    }
    clauses.push(clause);
    spans.push({ start: token.start, end: token.end, clause });
  }
  return { query: { clauses }, problems, spans };
}

const needsQuotes = (value: string) => value === '' || /[\s"\\]/.test(value) || /^(>|<|=)/.test(value);
const quote = (value: string) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;

export function formatClause(clause: Clause): string {
  if (clause.kind === 'word') {
    // A bare word with a colon after letters would read as a field, and 4 or 6 digits as a card: quoted, it stays a word.
    return needsQuotes(clause.text) || /^[A-Za-z][A-Za-z0-9]*:/.test(clause.text) || last4Pattern.test(clause.text) || binPattern.test(clause.text)
      ? quote(clause.text)
      : clause.text;
  }
  if (clause.op === '..') return `${clause.field}:${clause.value}..${clause.to ?? ''}`;
  const op = clause.op === '=' ? '' : clause.op;
  const rangeLike = comparable.has(clause.field) && clause.value.includes('..');
  const value = needsQuotes(clause.value) || rangeLike ? quote(clause.value) : clause.value;
  return `${clause.field}:${op}${value}`;
}

export function formatQuery(query: SearchQuery): string {
  return query.clauses.map(formatClause).join(' ');
}

/** A word worth a prefix look-up of references and ids (the record search's rule): 4 to 64 characters ids are made of. */
export const referenceWordPattern = /^[A-Za-z0-9_-]{4,64}$/;

/**
 * What a field query does with its free words, in the palette's preview and in the list it opens alike: the first
 * reference-like word finds transactions by reference prefix, else the first word with an @ finds them by the start of
 * the customer's email. Every other word is not used, and is said to be (never silently dropped).
 */
export function fieldQueryWords(query: SearchQuery): { term: string | null; unused: string[] } {
  const words = query.clauses
    .filter((clause): clause is Word => clause.kind === 'word')
    .map((clause) => clause.text.trim())
    .filter((text) => text !== '');
  const term = words.find((word) => referenceWordPattern.test(word)) ?? words.find((word) => word.includes('@')) ?? null;
  const used = term === null ? -1 : words.indexOf(term);
  return { term, unused: words.filter((_word, index) => index !== used) };
}

/** The note for words a field query does not use. */
export const unusedWordsMessage = (words: readonly string[]) =>
  `${words.map((word) => `'${word}'`).join(', ')} ${words.length === 1 ? 'is' : 'are'} not used: beside fields, one word finds a reference (4 characters or more) or the start of an email.`;

export const wordsOf = (query: SearchQuery) => query.clauses.filter((clause): clause is Word => clause.kind === 'word').map((clause) => clause.text);
export const fieldsOf = (query: SearchQuery) => query.clauses.filter((clause): clause is FieldClause => clause.kind === 'field');

// ---------------------------------------------------------------------------------------------------
// Dates: a relative date or a comparison becomes a range of calendar days [start, end] (either may be open)

export type DayRange = { start: string | null; end: string | null };

function shiftDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function monthStart(iso: string, monthsBack: number): string {
  const date = new Date(`${iso.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - monthsBack);
  return date.toISOString().slice(0, 10);
}

/** The days a date clause covers, given today's calendar date (weeks start on Monday). */
export function dateClauseRange(clause: FieldClause, today: string): DayRange {
  if (clause.op === '..') return { start: clause.value, end: clause.to ?? clause.value };
  if (clause.op !== '=') {
    switch (clause.op) {
      case '>':
        return { start: shiftDays(clause.value, 1), end: null };
      case '>=':
        return { start: clause.value, end: null };
      case '<':
        return { start: null, end: shiftDays(clause.value, -1) };
      case '<=':
        return { start: null, end: clause.value };
    }
  }
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const days = lastDaysPattern.exec(clause.value);
  if (days) return { start: shiftDays(today, 1 - Number(days[1])), end: today };
  switch (clause.value) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday':
      return { start: shiftDays(today, -1), end: shiftDays(today, -1) };
    case 'this-week':
      return { start: shiftDays(today, -weekday), end: today };
    case 'last-week':
      return { start: shiftDays(today, -weekday - 7), end: shiftDays(today, -weekday - 1) };
    case 'this-month':
      return { start: monthStart(today, 0), end: today };
    case 'last-month':
      return { start: monthStart(today, 1), end: shiftDays(monthStart(today, 0), -1) };
    case 'this-year':
      return { start: `${today.slice(0, 4)}-01-01`, end: today };
    case 'last-year': {
      const year = String(Number(today.slice(0, 4)) - 1).padStart(4, '0');
      return { start: `${year}-01-01`, end: `${year}-12-31` };
    }
    default:
      return { start: clause.value, end: clause.value };
  }
}

/** Amount clause → inclusive bounds in major units; strict comparisons move by the finest unit (thousandths). */
export function amountClauseBounds(clause: FieldClause): { min: string | null; max: string | null } {
  const step = (value: string, by: number) => {
    const milli = Math.round(Number(value) * 1000) + by;
    return (Math.max(0, milli) / 1000).toString();
  };
  switch (clause.op) {
    case '..':
      return { min: clause.value, max: clause.to ?? clause.value };
    case '>':
      return { min: step(clause.value, 1), max: null };
    case '>=':
      return { min: clause.value, max: null };
    case '<':
      return { min: null, max: step(clause.value, -1) };
    case '<=':
      return { min: null, max: clause.value };
    default:
      return { min: clause.value, max: clause.value };
  }
}

// ---------------------------------------------------------------------------------------------------
// Completion: what the last token of the input may become

export type Completion = { label: string; detail: string; text: string };
export type CompletionSources = { merchants?: readonly string[]; currencies?: readonly string[] };

/** Suggestions for the token the input ends with (`sta` → status:, `status:pa` → status:paid); `text` is the whole new input. */
export function completionsFor(input: string, sources: CompletionSources = {}, limit = 8): Completion[] {
  const match = /(^|\s)([A-Za-z0-9]*)(?::(>=|<=|>|<|=)?("?)([^\s"]*))?$/.exec(input);
  if (!match) return [];
  const before = input.slice(0, (match.index ?? 0) + (match[1]?.length ?? 0));
  const name = (match[2] ?? '').toLowerCase();
  if (input.slice(before.length).indexOf(':') < 0) {
    if (name === '') return [];
    return searchFields
      .filter((field) => field.startsWith(name) && field !== name)
      .slice(0, limit)
      .map((field) => ({ label: `${field}:`, detail: fieldDescriptions[field], text: `${before}${field}:` }));
  }
  const field = searchFields.find((candidate) => candidate === name);
  if (!field) return [];
  const op = match[3] ?? '';
  const partial = (match[5] ?? '').toLowerCase();
  const values: readonly string[] =
    fieldValueSets[field] ??
    (field === 'date' ? (op ? [] : relativeDates) : field === 'merchant' ? (sources.merchants ?? []) : field === 'currency' ? (sources.currencies ?? []) : []);
  return values
    .filter((value) => value.toLowerCase().startsWith(partial) && value.toLowerCase() !== partial)
    .slice(0, limit)
    .map((value) => {
      const clause = formatClause({ kind: 'field', field, op: (op || '=') as Comparison, value });
      return { label: clause, detail: fieldDescriptions[field], text: `${before}${clause} ` };
    });
}
