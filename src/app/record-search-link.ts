// A field query as a link to the overview it describes: the transactions overview (or, with in:payments, the payment
// jobs of the configuration in context) with the same URL filter parameters its own filter bar writes
// (src/contract/date-range-filter.ts, amount-filter.ts, list-state.ts), so the link is shareable and the overview shows
// the filters as applied. The link opens the list with exactly what the preview used: the preview looks across
// everything the user may see, so the list does too (scope=all, whatever context is applied), an amount without a
// currency compares each row in its own currency in both, and what the query could not use travels along (unused=…)
// for the list to say so.
import { encodeDateRange } from '../contract/date-range-filter.ts';
import { encodeAmount } from '../contract/amount-filter.ts';
import { compactFilters, encodeAnyOf, encodeSearchTerm } from '../contract/list-state.ts';
import { encodeFilter } from '../contract/list-query.ts';
import { amountClauseBounds, dateClauseRange, type FieldClause, fieldQueryWords, fieldsOf, type SearchQuery, wordsOf } from '../contract/search-query.ts';
import { searchScopeParameter, unusedSearchParameter } from '../contract/transactions.ts';

export type OverviewTarget = 'transactions' | 'payments';
export type OverviewLink = { target: OverviewTarget; path: string; label: string } | { target: OverviewTarget; problem: string };
export type MerchantName = { id: string; name: string };

/** Does this query describe an overview (any field clause)? Free words alone are a record look-up. */
export const isFieldQuery = (query: SearchQuery) => fieldsOf(query).length > 0;

function amountFilter(clauses: FieldClause[]): string | undefined {
  let min: number | null = null;
  let max: number | null = null;
  for (const clause of clauses) {
    const bounds = amountClauseBounds(clause);
    if (bounds.min !== null) min = Math.max(min ?? 0, Number(bounds.min));
    if (bounds.max !== null) max = Math.min(max ?? Number.MAX_SAFE_INTEGER, Number(bounds.max));
  }
  if (min !== null && max !== null && min === max) return encodeAmount({ mode: 'exact', exact: String(min), min: '', max: '' });
  return encodeAmount({ mode: 'range', exact: '', min: min === null ? '' : String(min), max: max === null ? '' : String(max) });
}

function dateFilter(clauses: FieldClause[], today: string): { start: string | null; end: string | null } {
  let start: string | null = null;
  let end: string | null = null;
  for (const clause of clauses) {
    const range = dateClauseRange(clause, today);
    if (range.start && (!start || range.start > start)) start = range.start;
    if (range.end && (!end || range.end < end)) end = range.end;
  }
  return { start, end };
}

const query = (params: Record<string, string>) => {
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
};

/**
 * The overview link of a field query, or why there is none (a merchant nobody may see, payment jobs without a
 * configuration). `merchants` are the merchants the user may see (for merchant:"Little Wren" → merchantid).
 */
export function overviewLink(
  parsed: SearchQuery,
  options: { today: string; merchants: readonly MerchantName[]; configurationId: string | null; unused?: readonly string[] },
): OverviewLink {
  const fields = fieldsOf(parsed);
  const of = (name: FieldClause['field']) => fields.filter((clause) => clause.field === name);
  const values = (name: FieldClause['field']) => of(name).map((clause) => clause.value);
  const target: OverviewTarget = values('in').includes('payments') && !values('in').includes('transactions') ? 'payments' : 'transactions';
  const words = wordsOf(parsed).join(' ');
  const range = dateFilter(of('date'), options.today);
  const date = range.start || range.end ? encodeDateRange(range) : undefined;

  if (target === 'payments') {
    if (!options.configurationId) return { target, problem: 'Payment jobs are listed per configuration: choose a configuration in the context first.' };
    const unsupported = fields.find((clause) => ['merchant', 'channel', 'is', 'currency', 'last4', 'bin'].includes(clause.field));
    if (unsupported) return { target, problem: `The payment jobs overview has no ${unsupported.field} filter.` };
    const [email] = values('email');
    const [order] = values('order');
    const params = compactFilters({
      status: encodeAnyOf(values('status')),
      paymentmethod: encodeAnyOf(values('method')),
      amount: of('amount').length > 0 ? amountFilter(of('amount')) : undefined,
      createdatetimeutc: date,
      email: email ? encodeFilter([{ operator: 'eq', value: email }]) : undefined,
      ordernumber: order ? encodeFilter([{ operator: 'eq', value: order }]) : undefined,
      reference: words ? encodeFilter([{ operator: 'eq', value: words.toUpperCase() }]) : undefined,
    });
    return { target, path: `/configurations/${encodeURIComponent(options.configurationId)}/payments${query(params)}`, label: 'Open payment jobs' };
  }

  if (of('order').length > 0) return { target, problem: 'Order numbers filter payment jobs: add in:payments.' };
  const merchantIds: string[] = [];
  for (const name of values('merchant')) {
    const lower = name.toLowerCase();
    const exact = options.merchants.filter((merchant) => merchant.name.toLowerCase() === lower);
    const starting = exact.length > 0 ? exact : options.merchants.filter((merchant) => merchant.name.toLowerCase().startsWith(lower));
    if (starting.length !== 1) {
      return {
        target,
        problem:
          starting.length === 0 ? `No merchant you can see is called '${name}'.` : `${starting.length} merchants are called '${name}…': complete the name.`,
      };
    }
    merchantIds.push(starting[0]?.id ?? '');
  }
  if (merchantIds.length > 1) return { target, problem: 'The overview filters one merchant at a time.' };
  const [email] = values('email');
  const kinds = values('is').map((value) => (value === 'refunded' ? 'refund' : value));
  const anyOf = (name: FieldClause['field']) =>
    values(name).length > 0 ? encodeFilter(values(name).map((value) => ({ operator: 'eq' as const, value }))) : undefined;
  // The words the preview used (one reference or email); the others are said to be unused, in the palette and the list.
  const { term, unused: unusedWords } = fieldQueryWords(parsed);
  const unused = [...(options.unused ?? []), ...unusedWords];
  const params = compactFilters({
    status: encodeAnyOf(values('status')),
    paymentmethod: encodeAnyOf(values('method')),
    channel: encodeAnyOf(values('channel')),
    kind: encodeAnyOf(kinds),
    currency: anyOf('currency'),
    last4: anyOf('last4'),
    bin: anyOf('bin'),
    merchantid: merchantIds[0] ? encodeFilter([{ operator: 'eq', value: merchantIds[0] }]) : undefined,
    amount: of('amount').length > 0 ? amountFilter(of('amount')) : undefined,
    date,
    searchterm: encodeSearchTerm(term ?? email ?? ''),
  });
  const scoped = {
    ...params,
    [searchScopeParameter.name]: searchScopeParameter.all,
    ...(unused.length > 0 ? { [unusedSearchParameter]: unused.join(' ') } : {}),
  };
  return { target, path: `/transactions${query(scoped)}`, label: 'Open transactions' };
}
