// The tickets contract's schemas (arktype): request bodies and answers. Constants are in tickets.ts.
import { type } from 'arktype';
import { maxCommentLength, maxDescriptionLength, maxSubjectLength, ticketPriorities, ticketStatuses, ticketTypes } from './tickets.ts';

const id = /^[A-Za-z0-9_-]{1,64}$/;

export const ticketBody = type({
  type: type.enumerated(...ticketTypes),
  'priority?': type.enumerated(...ticketPriorities),
  subject: type('string.trim').to(`1 <= string <= ${maxSubjectLength}`),
  description: type('string.trim').to(`1 <= string <= ${maxDescriptionLength}`),
  /** 'Open a ticket about this': a transaction or payment job of the addressed context */
  'linkedTransactionReference?': type(id).or('null'),
  'linkedPaymentJobReference?': type(id).or('null'),
  /** staff only (Portal.Tickets.Read.Internal): the internal user handling it */
  'assigneeId?': type(id).or('null'),
  '+': 'reject',
});
export type TicketBody = typeof ticketBody.infer;

export const ticketUpdateBody = type({
  type: type.enumerated(...ticketTypes),
  priority: type.enumerated(...ticketPriorities),
  status: type.enumerated(...ticketStatuses),
  subject: type('string.trim').to(`1 <= string <= ${maxSubjectLength}`),
  description: type('string.trim').to(`1 <= string <= ${maxDescriptionLength}`),
  assigneeId: type(id).or('null'),
  version: 'number.integer >= 1',
  '+': 'reject',
});
export type TicketUpdateBody = typeof ticketUpdateBody.infer;

export const ticketCommentBody = type({
  text: type('string.trim').to(`1 <= string <= ${maxCommentLength}`),
  'internal?': 'boolean',
  '+': 'reject',
});
export type TicketCommentBody = typeof ticketCommentBody.infer;

export const ticketCommentUpdateBody = type({
  text: type('string.trim').to(`1 <= string <= ${maxCommentLength}`),
  version: 'number.integer >= 1',
  '+': 'reject',
});
export type TicketCommentUpdateBody = typeof ticketCommentUpdateBody.infer;

const person = type({ userId: 'string', name: 'string' });

export const ticketAttachment = type({
  ticketAttachmentId: 'string',
  /** the comment it belongs to, or null for the ticket's own */
  ticketCommentId: 'string | null',
  filename: 'string',
  mimeType: 'string',
  size: 'number',
  uploadedBy: person,
  createdUtc: 'string',
  /** the caller may remove it (the uploader or internal staff) */
  removable: 'boolean',
});
export type TicketAttachment = typeof ticketAttachment.infer;

// Flat object types (spread fields) rather than intersections: arktype builds them faster (the browser's first
// validation waits for every schema of the registry).
const ticketListItemFields = {
  ticketId: 'string',
  businessId: 'string',
  businessName: 'string',
  merchantId: 'string | null',
  merchantName: 'string | null',
  type: type.enumerated(...ticketTypes),
  status: type.enumerated(...ticketStatuses),
  priority: type.enumerated(...ticketPriorities),
  subject: 'string',
  createdUtc: 'string',
  lastUpdatedUtc: 'string',
  createdBy: person,
  assignee: person.or('null'),
  // the requester side wrote after writing staff last replied or opened it (the queue's flag; absent from older servers)
  'updatedByRequester?': 'boolean',
} as const;

export const ticketListItem = type(ticketListItemFields);
export type TicketListItem = typeof ticketListItem.infer;

export const ticketList = type({ results: ticketListItem.array(), numberOfResults: 'number' });
export type TicketList = typeof ticketList.infer;

export const ticketDetail = type({
  ...ticketListItemFields,
  description: 'string',
  version: 'number',
  linkedTransactionReference: 'string | null',
  linkedPaymentJobReference: 'string | null',
  attachments: ticketAttachment.array(),
  allAttachments: ticketAttachment.array(),
  commentCount: 'number',
});
export type TicketDetail = typeof ticketDetail.infer;

export const ticketComment = type({
  ticketCommentId: 'string',
  ticketId: 'string',
  text: 'string',
  internal: 'boolean',
  author: { userId: 'string', name: 'string', staff: 'boolean' },
  createdUtc: 'string',
  lastUpdatedUtc: 'string',
  version: 'number',
  attachments: ticketAttachment.array(),
  editable: 'boolean',
});
export type TicketComment = typeof ticketComment.infer;

/** Newest last; hasOlder: 'Show older comments' can load the batch before the first one (before=<ticketCommentId>). */
export const ticketCommentPage = type({ results: ticketComment.array(), numberOfResults: 'number', hasOlder: 'boolean' });
export type TicketCommentPage = typeof ticketCommentPage.infer;

export const createdTicket = type({ ticketId: 'string' });
export const createdComment = type({ ticketCommentId: 'string' });
export const ticketAssignees = type({ results: person.array() });
