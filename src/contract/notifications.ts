// Notifications as a signed-in user reads them (GET /user/notifications, GET /user/notifications/{reference})
// and the content format: JSON text of paragraph and list blocks, rendered as text, never as markup.
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
export type NotificationBlock = typeof notificationBlock.infer;

export const notificationContent = type({ blocks: notificationBlock.array() });
export type NotificationContent = typeof notificationContent.infer;

/** The blocks of a notification's content; text that is not the block format shows as one paragraph. */
export function parseNotificationContent(text: string): NotificationBlock[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text.trim() === '' ? [] : [{ type: 'paragraph', text }];
  }
  const parsed = notificationContent(data);
  if (parsed instanceof type.errors) return [];
  return parsed.blocks;
}
