// The palette's record search, loaded when the palette first opens or the user types (never part of the
// first load): records found by GET /search grouped under a heading per kind, completion of field names and values,
// the overview a field query describes (Enter opens it, Shift+Enter beside), and problems of the query explained
// inline, under the input, never as a toast. What the query cannot use (a clause in error, a word beside fields that
// is neither a reference nor an email) is said there, and the overview opens with the rest and says it too.
//
// No keystroke waits for the network: the look-up follows the query 250 ms after the last key, through react-query
// keyed by the query (an answer is only shown under the query it answers; one left behind is aborted).
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { looksLikeRecordQuery, searchQueries } from '../api/search-queries.ts';
import { calendarDate } from '../contract/calendar-date.ts';
import type { RecordSearchResult } from '../contract/shell-responses.ts';
import { isFieldQuery, overviewLink } from './record-search-link.ts';
import { completionsFor, fieldQueryWords, fieldsOf, formatClause, parseQuery, unusedWordsMessage } from '../contract/search-query.ts';
import './record-search.css';

export const recordDebounceMs = 250;
const commonCurrencies = ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'HUF', 'JPY', 'NOK', 'PLN', 'SEK', 'USD'];

const kindHeadings: Record<RecordSearchResult['kind'], string> = {
  transaction: 'Transactions',
  paymentJob: 'Payment jobs',
  customer: 'Customers',
  ticket: 'Tickets',
  user: 'Users',
  business: 'Businesses',
  merchant: 'Merchants',
  invoice: 'Invoices',
};
const kindLabels: Record<RecordSearchResult['kind'], string> = {
  transaction: 'Transaction',
  paymentJob: 'Payment job',
  customer: 'Customer',
  ticket: 'Ticket',
  user: 'User',
  business: 'Business',
  merchant: 'Merchant',
  invoice: 'Invoice',
};

export const recordValue = (record: RecordSearchResult) => `record:${record.kind}:${record.id}`;
export const overviewValue = 'search:overview';
const completionValue = (text: string) => `complete:${text}`;

export type RecordSearchProps = {
  query: string;
  /** the palette is open (closed, nothing is looked up) */
  active: boolean;
  configurationId: string | null;
  /** the values of the rows shown, in order, and whether an answer is still awaited (for the palette's selection) */
  onRows: (rows: { values: string[]; busy: boolean }) => void;
  onOpenRecord: (record: RecordSearchResult) => void;
  onOpenPath: (path: string) => void;
  onQueryChange: (query: string) => void;
  /** where notes about the query go: beside the list, not in it (a listbox holds options and groups only) */
  notes: HTMLElement | null;
};

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function RecordSearch({ query, active, configurationId, onRows, onOpenRecord, onOpenPath, onQueryChange, notes }: RecordSearchProps) {
  const parsed = useMemo(() => parseQuery(query), [query]);
  const term = useDebounced(query.trim(), recordDebounceMs);
  const searching = active && looksLikeRecordQuery(term);
  const records = useQuery({ ...searchQueries.records(term), enabled: searching });
  const recordResults = searching ? (records.data ?? []) : [];
  const stale = searching && (term !== query.trim() || records.isFetching);

  // Merchant names: those completing the merchant:… being typed, or resolving the one written.
  const typedMerchant = /(?:^|\s)merchant:"?([^"\s]*)$/i.exec(query)?.[1];
  const writtenMerchant = fieldsOf(parsed.query).find((clause) => clause.field === 'merchant')?.value;
  const merchantPrefix = typedMerchant ?? writtenMerchant;
  const merchants = useQuery({ ...searchQueries.merchants(merchantPrefix ?? ''), enabled: active && merchantPrefix !== undefined });
  const merchantRows = merchants.data ?? [];

  const completions = useMemo(
    () => completionsFor(query, { merchants: [...new Set(merchantRows.map((row) => row.name))], currencies: commonCurrencies }),
    [query, merchantRows],
  );
  const fieldQuery = isFieldQuery(parsed.query);
  // A problem with the token still being typed waits while a completion is on offer.
  const problems = parsed.problems.filter((problem) => !(problem.end === query.length && completions.length > 0));
  // The overview opens with what the preview used; what it could not use goes along for the list to name.
  const link =
    fieldQuery && !(writtenMerchant !== undefined && merchants.isPending)
      ? overviewLink(parsed.query, {
          today: calendarDate(new Date()),
          merchants: merchantRows,
          configurationId,
          unused: problems.map((problem) => query.slice(problem.start, problem.end)),
        })
      : null;
  const unusedWords = fieldQuery ? fieldQueryWords(parsed.query).unused : [];

  const values = [
    ...(link && 'path' in link ? [overviewValue] : []),
    ...completions.map((completion) => completionValue(completion.text)),
    ...recordResults.map(recordValue),
  ];
  const valuesKey = values.join('\n');
  const busy = searching && (records.isFetching || term !== query.trim());
  useLayoutEffect(() => {
    onRows({ values: valuesKey ? valuesKey.split('\n') : [], busy });
  }, [valuesKey, busy, onRows]);

  const groups = new Map<RecordSearchResult['kind'], RecordSearchResult[]>();
  for (const record of recordResults) groups.set(record.kind, [...(groups.get(record.kind) ?? []), record]);

  const noteText: ReactNode = (
    <>
      {problems.length > 0 ? (
        <div className="record-search-problems">
          {problems.map((problem) => (
            <p key={`${problem.start}-${problem.message}`} className="record-search-problem">
              <code>
                {query.slice(Math.max(0, problem.start - 12), problem.start)}
                <mark>{query.slice(problem.start, problem.end) || ' '}</mark>
              </code>{' '}
              {problem.message}
            </p>
          ))}
        </div>
      ) : null}
      {unusedWords.length > 0 ? <p className="record-search-problem">{unusedWordsMessage(unusedWords)}</p> : null}
      {link && 'problem' in link ? <p className="record-search-problem">{link.problem}</p> : null}
      {searching && records.isError ? <p className="record-search-problem">The record look-up failed. Try again in a moment.</p> : null}
      {/* In the status line, not the list: cmdk's Loading is a progressbar, which a listbox may not hold (axe). */}
      {searching && records.isFetching && recordResults.length === 0 ? <p className="record-search-loading">Looking up records…</p> : null}
    </>
  );

  return (
    <>
      {notes ? createPortal(noteText, notes) : null}
      {link && 'path' in link ? (
        <Command.Group heading="Overview">
          <Command.Item value={overviewValue} onSelect={() => onOpenPath(link.path)} className="palette-item">
            <span className="palette-item-title">
              {link.label}
              <span className="palette-item-description">{fieldsOf(parsed.query).map(formatClause).join(' ')}</span>
            </span>
            <span className="palette-item-meta">
              <span className="palette-item-section">Filtered view</span>
            </span>
          </Command.Item>
        </Command.Group>
      ) : null}
      {completions.length > 0 ? (
        <Command.Group heading="Complete">
          {completions.map((completion) => (
            <Command.Item
              key={completion.text}
              value={completionValue(completion.text)}
              onSelect={() => onQueryChange(completion.text)}
              className="palette-item"
            >
              <span className="palette-item-title">{completion.label}</span>
              <span className="palette-item-meta">
                <span className="palette-item-section">{completion.detail}</span>
              </span>
            </Command.Item>
          ))}
        </Command.Group>
      ) : null}
      {[...groups].map(([kind, rows]) => (
        <Command.Group key={kind} heading={kindHeadings[kind]} className={stale ? 'record-search-stale' : undefined}>
          {rows.map((record) => (
            <Command.Item key={recordValue(record)} value={recordValue(record)} onSelect={() => onOpenRecord(record)} className="palette-item">
              <span className="palette-item-title">
                {record.title}
                <span className="palette-item-description">{record.description}</span>
              </span>
              <span className="palette-item-meta">
                <span className="palette-item-section">{kindLabels[record.kind]}</span>
              </span>
            </Command.Item>
          ))}
        </Command.Group>
      ))}
    </>
  );
}
