// Notifications as a signed-in user reads them (GET /user/notifications, GET /user/notifications/{reference})
// and the content format: JSON text of paragraph and list blocks, rendered as text, never as markup. The answers'
// schemas (arktype) are in notification-schemas.ts; the content is parsed here without arktype, so a notification
// opened from a deep link does not load it on the main thread (a test holds this parser to the schema).
export type { NotificationContent, UserNotificationDetail, UserNotificationList, UserNotificationSummary } from './notification-schemas.ts';

export type NotificationBlock = { type: 'paragraph'; text: string } | { type: 'list'; items: string[] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isBlock(value: unknown): value is NotificationBlock {
  if (!isRecord(value)) return false;
  if (value.type === 'paragraph') return typeof value.text === 'string';
  if (value.type === 'list') return Array.isArray(value.items) && value.items.every((item) => typeof item === 'string');
  return false;
}

/** The blocks of a notification's content; text that is not JSON shows as one paragraph, JSON of another shape as nothing. */
export function parseNotificationContent(text: string): NotificationBlock[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text.trim() === '' ? [] : [{ type: 'paragraph', text }];
  }
  if (!isRecord(data) || !Array.isArray(data.blocks) || !data.blocks.every(isBlock)) return [];
  return data.blocks.map((block) => (block.type === 'paragraph' ? { type: 'paragraph', text: block.text } : { type: 'list', items: [...block.items] }));
}
