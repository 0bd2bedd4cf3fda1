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

export const notificationBlock = type({ type: "'paragraph'", text: 'string' }).or({ type: "'list'", items: 'string[]' });

export const notificationContent = type({ blocks: notificationBlock.array() });
export type NotificationContent = typeof notificationContent.infer;
