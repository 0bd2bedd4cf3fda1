// The mail outbox (Technical admins): every message the portal sent or will send, newest first, with its status.
// Each row links to the message; j / k move between rows and Enter (Shift+Enter: beside) opens one. The search
// (recipient or subject contains, any case) applies on Enter and is kept in the address; / focuses it.
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { outboundEmailStatuses, outboundEmailStatusLabels, type OutboundEmailStatusName, type OutboxMessageSummary } from '../../src/contract/outbox.ts';
import { pageSizes } from '../../src/contract/list-query.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { pageOf } from '../notifications/user-notifications-pane.tsx';
import { linkCursor, useRowCursor } from '../overview/row-cursor.ts';
import { outboxQueries } from './outbox-queries.ts';
import '../../src/ui/data-table/data-table.css';
import '../notifications/notifications.css';

export const outboxMessagePath = (id: string) => `/outbox/${encodeURIComponent(id)}`;

const statusTones: Record<OutboundEmailStatusName, string> = {
  queued: 'info',
  sending: 'warning',
  sent: 'success',
  deliveredLocally: 'success',
  failed: 'danger',
};

export type OutboxView = { pageNumber: number; pageSize: number; status: OutboundEmailStatusName | null; search: string };

const maxSearchLength = 100;

/** The search as the server takes it: no control characters, trimmed, at most 100 characters ('' for none). */
const cleanSearch = (raw: string) =>
  raw
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters typed or pasted into the search are what it removes
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, maxSearchLength)
    .trim();

/**
 * page and page size as the inbox reads them (pageOf), the status and the search; anything invalid falls back to
 * the defaults.
 */
export function outboxViewOf(search: string): OutboxView {
  const query = new URLSearchParams(search);
  const status = query.get('status');
  return {
    ...pageOf(search),
    status: (outboundEmailStatuses as readonly string[]).includes(status ?? '') ? (status as OutboundEmailStatusName) : null,
    search: cleanSearch(query.get('search') ?? ''),
  };
}

export function OutboxPane({ search }: PaneProps) {
  const view = outboxViewOf(search);
  const [, navigate] = useLocation();
  const list = useQuery(outboxQueries.list(view.pageNumber, view.pageSize, view.status, view.search));
  const headingId = useId();
  const statusId = useId();
  const searchId = useId();
  const tableRef = useRef<HTMLTableElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(view.search);
  // A link followed (back, forward, a shared address) brings its own search into the field.
  const [shownSearch, setShownSearch] = useState(view.search);
  if (shownSearch !== view.search) {
    setShownSearch(view.search);
    setDraft(view.search);
  }
  const rows: readonly OutboxMessageSummary[] = list.isError ? [] : (list.data?.results ?? []);

  const goTo = (next: { pageNumber: number; pageSize: number; status: string | null; search: string }) => {
    const query = new URLSearchParams({ pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) });
    if (next.status) query.set('status', next.status);
    if (next.search) query.set('search', next.search);
    navigate(`/outbox?${query.toString()}`);
  };
  const { rowHandlers } = useRowCursor(rows, (row) => outboxMessagePath(row.id), { position: linkCursor(tableRef) });
  usePaneCapabilities({ search: () => searchField.current?.focus(), ...rowHandlers() });

  return (
    <section className="notifications-pane" aria-labelledby={headingId}>
      <header className="notifications-header">
        <h1 id={headingId}>Outbox</h1>
        <label htmlFor={statusId}>Status</label>{' '}
        <select id={statusId} value={view.status ?? ''} onChange={(event) => goTo({ ...view, pageNumber: 1, status: event.target.value || null })}>
          <option value="">All</option>
          {outboundEmailStatuses.map((status) => (
            <option key={status} value={status}>
              {outboundEmailStatusLabels[status]}
            </option>
          ))}
        </select>
        <form
          role="search"
          aria-label="Outbox search"
          onSubmit={(event) => {
            event.preventDefault();
            goTo({ ...view, pageNumber: 1, search: cleanSearch(draft) });
          }}
        >
          <label htmlFor={searchId}>Search recipient or subject</label>{' '}
          <input id={searchId} ref={searchField} type="search" value={draft} maxLength={maxSearchLength} onChange={(event) => setDraft(event.target.value)} />{' '}
          <button type="submit" className="button">
            Search
          </button>
        </form>
      </header>
      <p className="outbox-note">
        Every email the portal sends, newest first. Without an SMTP server configured, messages are delivered locally and can be read only here.
      </p>
      {list.isPending ? <Skeleton lines={5} label="Loading the outbox" /> : null}
      {list.isError ? <p role="alert">The outbox could not be loaded.</p> : null}
      {list.isSuccess && rows.length === 0 ? (
        <p className="notifications-empty">
          No emails{view.status ? ` with status ${outboundEmailStatusLabels[view.status]}` : ''}
          {view.search ? ` matching “${view.search}”` : ''}.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <table className="notifications-table" aria-labelledby={headingId} ref={tableRef}>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Recipient</th>
              <th scope="col">Template</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <a className="data-table-link is-name" href={outboxMessagePath(row.id)}>
                    {row.subject}
                  </a>
                </th>
                <td>{row.recipient}</td>
                <td>{row.template}</td>
                <td>{formatDateTime(row.createdAt)}</td>
                <td>
                  <span className="status-chip" data-tone={statusTones[row.status]}>
                    {outboundEmailStatusLabels[row.status]}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data && list.data.numberOfResults > 0 ? (
        <Pagination
          label="Outbox pages"
          pageNumber={view.pageNumber}
          pageSize={view.pageSize}
          pageSizes={pageSizes}
          rowsOnPage={rows.length}
          total={list.data.numberOfResults}
          onPageChange={(next) => goTo({ ...view, pageNumber: next })}
          onPageSizeChange={(next) => goTo({ ...view, pageNumber: 1, pageSize: next })}
        />
      ) : null}
    </section>
  );
}
