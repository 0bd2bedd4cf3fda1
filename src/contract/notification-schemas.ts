// The notifications contract's schemas (arktype): the list and detail answers and the content format. The
// browser's parser of the content (notifications.ts) checks the same shape without arktype.
import { type } from 'arktype';
import { maxNotificationContentLength, maxNotificationTitleLength, notificationStatuses, notificationViewRestrictions } from './notifications.ts';
import { pagedResults } from './paged.ts';

export const userNotificationSummary = type({
  reference: 'string',
  title: 'string',
  publishedUtc: 'string | null',
  lastEditedUtc: 'string | null',
  unread: 'boolean',
});
export type UserNotificationSummary = typeof userNotificationSummary.infer;

export const userNotificationList = pagedResults(userNotificationSummary);
export type UserNotificationList = typeof userNotificationList.infer;

export const userNotificationDetail = type({
  reference: 'string',
  title: 'string',
  /** JSON text of notificationContent */
  content: 'string',
  publishedUtc: 'string | null',
  lastEditedUtc: 'string | null',
});
export type UserNotificationDetail = typeof userNotificationDetail.infer;

/** A run of formatted text; a link only to http(s) or mailto (never javascript: or data:). */
export const notificationInline = type({
  text: 'string',
  'bold?': 'boolean',
  'italic?': 'boolean',
  'href?': type(/^(https?:\/\/|mailto:)[^\s]{1,2040}$/i),
});

/**
 * Blocks: plain paragraphs and lists (the original format), and the rich-text editor's formatted text (runs of
 * bold, italic and linked text), headings (levels 1 to 3) and ordered or bulleted lists of runs.
 */
export const notificationBlock = type({ type: "'paragraph'", text: 'string' })
  .or({ type: "'list'", items: 'string[]' })
  .or({ type: "'text'", inlines: notificationInline.array() })
  .or({ type: "'heading'", level: '1 | 2 | 3', inlines: notificationInline.array() })
  .or({ type: "'richList'", ordered: 'boolean', items: notificationInline.array().array() });

export const notificationContent = type({ blocks: notificationBlock.array() });
export type NotificationContent = typeof notificationContent.infer;

// ── authoring (Portal.Notifications.Create) ──

export { maxNotificationContentLength, maxNotificationTitleLength, notificationStatuses, notificationViewRestrictions };

const id = type(/^[A-Za-z0-9_-]{1,64}$/);

export const notificationAudience = type({ partnerIds: id.array().atMostLength(50), businessIds: id.array().atMostLength(200), '+': 'reject' });

/** Businesses and partners an author may address, by name (GET /notifications/audience). */
export const audienceCandidate = type({ kind: "'business' | 'partner'", id: 'string', name: 'string', partnerName: 'string | null' });
export type AudienceCandidate = typeof audienceCandidate.infer;
export const audienceCandidateList = type({ results: audienceCandidate.array() });
export const audienceCandidateQuery = type({ 'term?': 'string <= 100', 'ids?': 'string <= 4000', '+': 'reject' });

const notificationFields = {
  title: type('string.trim').to(`1 <= string <= ${maxNotificationTitleLength}`),
  /** JSON text of notificationContent */
  content: `1 <= string <= ${maxNotificationContentLength}`,
  viewRestriction: type.enumerated(...notificationViewRestrictions),
  status: type.enumerated(...notificationStatuses),
  'publishAtUtc?': 'string.date.iso | null',
  'audience?': notificationAudience.or('null'),
} as const;

export const notificationBody = type({ ...notificationFields, '+': 'reject' });
export type NotificationBody = typeof notificationBody.infer;

export const notificationUpdateBody = type({ ...notificationFields, version: 'number.integer >= 1', '+': 'reject' });
export type NotificationUpdateBody = typeof notificationUpdateBody.infer;

const authoredNotificationFields = {
  reference: 'string',
  title: 'string',
  status: type.enumerated(...notificationStatuses),
  viewRestriction: type.enumerated(...notificationViewRestrictions),
  publishAtUtc: 'string | null',
  publishedUtc: 'string | null',
  lastEditedUtc: 'string',
  audience: notificationAudience.or('null'),
  readCount: 'number',
} as const;

export const authoredNotificationSummary = type(authoredNotificationFields);
export type AuthoredNotificationSummary = typeof authoredNotificationSummary.infer;

export const authoredNotificationList = pagedResults(authoredNotificationSummary);
export type AuthoredNotificationList = typeof authoredNotificationList.infer;

export const authoredNotification = type({ ...authoredNotificationFields, content: 'string', version: 'number' });
export type AuthoredNotification = typeof authoredNotification.infer;

export const createdNotification = type({ reference: 'string' });

/** PUT /user/notifications/{reference}/read-state and /user/notifications/read-state (all: read only) */
export const readStateBody = type({ read: 'boolean', '+': 'reject' });
