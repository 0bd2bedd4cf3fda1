// Support tickets: value sets, the list's declared filters and orderings, limits and the spec's upload messages.
// The server parses with ticketListSpec and the client encodes against the same names, so they cannot drift.
import { ticketPriorities, ticketStatuses, ticketTypes } from './enumerations.ts';
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';

export { ticketPriorities, ticketStatuses, ticketTypes };
export type TicketType = (typeof ticketTypes)[number];
export type TicketStatus = (typeof ticketStatuses)[number];
export type TicketPriority = (typeof ticketPriorities)[number];

export const ticketTypeLabels: Record<TicketType, string> = {
  bug: 'Bug',
  dispute: 'Dispute',
  featureRequest: 'Feature request',
  general: 'General',
  informationRequest: 'Information request',
};
export const ticketStatusLabels: Record<TicketStatus, string> = { Open: 'Open', InProgress: 'In progress', OnHold: 'On hold', Closed: 'Closed' };

export const maxSubjectLength = 200;
export const maxDescriptionLength = 10_000;
export const maxCommentLength = 10_000;
/** Comments come newest last; 'Show older comments' loads earlier ones in batches of this many. */
export const commentBatchSize = 20;
/** Spec section 9: maximum upload 5242880 bytes (5 MB). */
export const maxAttachmentBytes = 5_242_880;
/** Spec section 9: attachment names truncate after 20 characters. */
export const attachmentNameDisplayLength = 20;

/** Types recognised from the file's bytes (never from its name or the browser's claim). */
export const attachmentImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const attachmentDocumentTypes = ['application/pdf'] as const;
export const attachmentExtensions = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.pdf'] as const;

/** The spec's words for each upload failure (context document, sections 5 and 8). */
export const uploadMessages = {
  tooLarge: 'The file exceeded the maximum file size.',
  notImageOrPdf: 'Please choose an image or pdf file',
  invalidFormat: 'Invalid file format',
  uploadFailed: 'Whoops! something went wrong uploading the files.',
  unreadable: 'file upload exception',
  invalidTypeForDispute: `Invalid file type, allowed: ${[...attachmentExtensions, '.csv'].join(', ')}`,
} as const;

/** 'quarterly-settlement-report.pdf' → 'quarterly-settlement…' (the full name stays on hover and for screen readers). */
export function truncatedAttachmentName(name: string): string {
  const characters = [...name];
  return characters.length > attachmentNameDisplayLength ? `${characters.slice(0, attachmentNameDisplayLength).join('')}…` : name;
}

/**
 * The browser's first look at a chosen file (size, then the kind its name and type claim), so an obvious mistake is
 * told at once; the server decides by the bytes. Null when the file may be sent.
 */
export function attachmentProblem(file: { name: string; size: number; type: string }, ticketType: TicketType | null): string | null {
  if (file.size > maxAttachmentBytes) return uploadMessages.tooLarge;
  const name = file.name.toLowerCase();
  const imageOrPdf =
    [...attachmentImageTypes, ...attachmentDocumentTypes].includes(file.type as never) || attachmentExtensions.some((extension) => name.endsWith(extension));
  if (imageOrPdf) return null;
  if (ticketType === 'dispute') return name.endsWith('.csv') ? null : uploadMessages.invalidTypeForDispute;
  return uploadMessages.notImageOrPdf;
}

/** The file picker's accept list for a ticket of this type. */
export function attachmentAccept(ticketType: TicketType | null): string {
  const base = [...attachmentImageTypes, ...attachmentDocumentTypes, ...attachmentExtensions];
  return (ticketType === 'dispute' ? [...base, 'text/csv', '.csv'] : base).join(',');
}

/** Filters of GET {context}/tickets, by lower-cased name. */
export const ticketFilters = {
  status: { kind: { oneOf: ticketStatuses }, operators: ['eq'] },
  type: { kind: { oneOf: ticketTypes }, operators: ['eq'] },
  priority: { kind: { oneOf: ticketPriorities }, operators: ['eq'] },
  // a user id, or 'none' for tickets nobody is handling yet
  assignee: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: "a user id or 'none'" }, operators: ['eq'] },
  createdutc: { kind: 'date', operators: ['gte', 'lte'] },
  lastupdatedutc: { kind: 'date', operators: ['gte', 'lte'] },
  searchterm: { kind: { pattern: /^[^\u0000-\u001f\u007f]{1,100}$/, description: '1 to 100 printable characters' }, operators: ['eq'] },
  // 'true': tickets the requester side wrote on since writing staff last replied or opened them
  updatedbyrequester: { kind: { oneOf: ['true'] }, operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

export const ticketSortFields = ['createdUtc', 'lastUpdatedUtc', 'priority', 'status', 'subject'] as const;

export const ticketListSpec: ListQuerySpec = {
  filters: ticketFilters,
  sortable: ticketSortFields,
  defaultSort: [{ field: 'lastUpdatedUtc', descending: true }],
  sortStyle: 'ordering',
};

/** Columns of a tickets export (bulk 'export', My report queue); the overview's column ids where they match. */
export const ticketExportColumns = [
  'ticketId',
  'createdUtc',
  'lastUpdatedUtc',
  'type',
  'status',
  'priority',
  'subject',
  'description',
  'business',
  'merchant',
  'createdBy',
  'assignee',
  'comments',
  'lastComment',
] as const;
export type TicketExportColumn = (typeof ticketExportColumns)[number];
export const ticketExportColumnLabels: Record<TicketExportColumn, string> = {
  ticketId: 'Ticket',
  createdUtc: 'Created',
  lastUpdatedUtc: 'Last updated',
  type: 'Type',
  status: 'Status',
  priority: 'Priority',
  subject: 'Subject',
  description: 'Description',
  business: 'Business',
  merchant: 'Merchant',
  createdBy: 'Requester',
  assignee: 'Assignee',
  // what the reader may see: internal notes count and show only for those with Portal.Tickets.Read.Internal there
  comments: 'Comments',
  lastComment: 'Latest comment',
};

/**
 * The support queue's views (Zendesk's basics), each a set of the list's own filters, so a view is a URL like any
 * other filter: all tickets, Open, updated by the requester since staff last replied or looked, mine, unassigned.
 * A view sets these keys and leaves the others (search, type, priority, dates) as they are.
 */
export const ticketQueueViews = ['all', 'open', 'updatedByRequester', 'mine', 'unassigned'] as const;
export type TicketQueueView = (typeof ticketQueueViews)[number];
export const ticketQueueViewLabels: Record<TicketQueueView, string> = {
  all: 'All tickets',
  open: 'Open',
  updatedByRequester: 'Updated by requester',
  mine: 'Mine',
  unassigned: 'Unassigned',
};
/** The views only support staff work with (the queue's own ideas: assignment and the requester's flag). */
export const staffQueueViews: readonly TicketQueueView[] = ['updatedByRequester', 'mine', 'unassigned'];
export const ticketQueueViewShortcuts: Record<TicketQueueView, string> = {
  all: 'v a',
  open: 'v o',
  updatedByRequester: 'v r',
  mine: 'v m',
  unassigned: 'v u',
};
const viewKeys = ['status', 'assignee', 'updatedbyrequester'] as const;

/** The filter values (as the URL holds them) a view sets; `userId` is the signed-in user's (Mine). */
export function ticketQueueViewFilters(view: TicketQueueView, userId: string | null): Record<(typeof viewKeys)[number], string | undefined> {
  const none = { status: undefined, assignee: undefined, updatedbyrequester: undefined };
  switch (view) {
    case 'all':
      return none;
    case 'open':
      return { ...none, status: '[eq]open' };
    case 'updatedByRequester':
      return { ...none, updatedbyrequester: '[eq]true' };
    case 'mine':
      return { ...none, assignee: userId ? `[eq]${userId}` : undefined };
    case 'unassigned':
      return { ...none, assignee: '[eq]none' };
  }
}

/** The view the filters show, or null when they mix its keys otherwise (a status and an assignee filter, say). */
export function ticketQueueViewOf(filters: Readonly<Record<string, string | undefined>>, userId: string | null): TicketQueueView | null {
  const normal = (value: string | undefined) => value?.toLowerCase();
  return (
    ticketQueueViews.find((view) => {
      const wanted = ticketQueueViewFilters(view, userId);
      return viewKeys.every((key) => normal(wanted[key]) === normal(filters[key]));
    }) ?? null
  );
}

/** The overview's URL for a view (the pane adds the remembered scope). */
export function ticketQueueViewPath(view: TicketQueueView, userId: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(ticketQueueViewFilters(view, userId))) if (value !== undefined) params.set(key, value);
  const query = params.toString();
  return `/tickets${query ? `?${query}` : ''}`;
}
