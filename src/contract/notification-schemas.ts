// The notifications contract's schemas (arktype): the list and detail answers and the content format. The
// browser's parser of the content (notifications.ts) checks the same shape without arktype.
import { type } from 'arktype';
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
