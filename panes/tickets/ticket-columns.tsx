// The tickets overview's columns, and the chips and names every ticket screen shares.
import {
  ticketStatusLabels,
  ticketTypeLabels,
  truncatedAttachmentName,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../../src/contract/tickets.ts';
import type { TicketListItem } from '../../src/contract/ticket-schemas.ts';
import { formatShortDateTime } from '../../src/format/dates.ts';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';

const statusTones: Record<TicketStatus, 'success' | 'warning' | 'info' | 'neutral'> = {
  Open: 'info',
  InProgress: 'warning',
  OnHold: 'neutral',
  Closed: 'success',
};
const priorityTones: Record<TicketPriority, 'danger' | 'warning' | 'info' | 'neutral'> = { High: 'danger', Medium: 'warning', Low: 'info', Unknown: 'neutral' };

export function TicketStatusChip({ status }: { status: TicketStatus }) {
  return (
    <span className="status-chip" data-tone={statusTones[status]}>
      {ticketStatusLabels[status]}
    </span>
  );
}

export function TicketPriorityChip({ priority }: { priority: TicketPriority }) {
  return (
    <span className="status-chip" data-tone={priorityTones[priority]}>
      {priority === 'Unknown' ? 'No priority' : priority}
    </span>
  );
}

export const typeLabel = (type: TicketType) => ticketTypeLabels[type];

/** A file name cut after 20 characters; the whole name on hover and for screen readers. */
export function AttachmentName({ name }: { name: string }) {
  const shown = truncatedAttachmentName(name);
  if (shown === name) return <span className="attachment-name">{name}</span>;
  return (
    <span className="attachment-name" title={name}>
      <span aria-hidden="true">{shown}</span>
      <span className="visually-hidden">{name}</span>
    </span>
  );
}

export const ticketListColumns: readonly (DataTableColumn<TicketListItem> & { label: string })[] = [
  {
    id: 'ticketId',
    label: 'Ticket',
    header: 'Ticket',
    width: '6.5rem',
    cell: (row) => (
      <a className="data-table-link" href={`/tickets/${encodeURIComponent(row.ticketId)}`} tabIndex={-1}>
        {row.ticketId}
      </a>
    ),
  },
  {
    id: 'subject',
    label: 'Subject',
    header: 'Subject',
    sortField: 'subject',
    width: 'minmax(12rem, 2.4fr)',
    wrap: true,
    // The queue's flag: the requester wrote since support last replied or looked (sent to support staff only).
    cell: (row) =>
      row.updatedByRequester ? (
        <>
          {row.subject}{' '}
          <span className="status-chip ticket-flag" data-tone="warning">
            Updated by requester
          </span>
        </>
      ) : (
        row.subject
      ),
  },
  { id: 'type', label: 'Type', header: 'Type', width: '10.5rem', cell: (row) => typeLabel(row.type) },
  { id: 'status', label: 'Status', header: 'Status', sortField: 'status', width: '7.5rem', cell: (row) => <TicketStatusChip status={row.status} /> },
  {
    id: 'priority',
    label: 'Priority',
    header: 'Priority',
    sortField: 'priority',
    width: '7rem',
    cell: (row) => <TicketPriorityChip priority={row.priority} />,
  },
  {
    id: 'business',
    label: 'Business',
    header: 'Business',
    width: 'minmax(10rem, 1.2fr)',
    wrap: true,
    cell: (row) => (row.merchantName ? `${row.merchantName} (${row.businessName})` : row.businessName),
  },
  { id: 'createdBy', label: 'Requester', header: 'Requester', width: 'minmax(8rem, 1fr)', wrap: true, cell: (row) => row.createdBy.name },
  { id: 'assignee', label: 'Assignee', header: 'Assignee', width: 'minmax(8rem, 1fr)', wrap: true, cell: (row) => row.assignee?.name ?? 'Unassigned' },
  {
    id: 'createdUtc',
    label: 'Created',
    header: 'Created',
    sortField: 'createdUtc',
    width: '10.5rem',
    cell: (row) => <time dateTime={row.createdUtc}>{formatShortDateTime(row.createdUtc)}</time>,
  },
  {
    id: 'lastUpdatedUtc',
    label: 'Last updated',
    header: 'Last updated',
    sortField: 'lastUpdatedUtc',
    width: '10.5rem',
    priority: 1,
    cell: (row) => <time dateTime={row.lastUpdatedUtc}>{formatShortDateTime(row.lastUpdatedUtc)}</time>,
  },
];

export const defaultTicketColumns = ['ticketId', 'subject', 'type', 'status', 'priority', 'business', 'assignee', 'lastUpdatedUtc'];
