// Notifications as a signed-in user reads them (GET /user/notifications, GET /user/notifications/{reference})
// and the content format: JSON text of paragraph and list blocks, rendered as text, never as markup. The answers'
// schemas (arktype) are in notification-schemas.ts; the content is parsed here without arktype, so a notification
// opened from a deep link does not load it on the main thread (a test holds this parser to the schema).

// Authoring: the workflow's statuses, who may read, limits (the schemas are in notification-schemas.ts).
export const notificationStatuses = ['draft', 'readyForPublication', 'published', 'unpublished'] as const;
export type NotificationStatusValue = (typeof notificationStatuses)[number];
export const notificationStatusLabels: Record<NotificationStatusValue, string> = {
  draft: 'Draft',
  readyForPublication: 'Ready for publication',
  published: 'Published',
  unpublished: 'Unpublished',
};
/** Which status may follow which (the same status is an edit); the server holds the same table. */
export const notificationStatusTransitions: Record<NotificationStatusValue, readonly NotificationStatusValue[]> = {
  draft: ['draft', 'readyForPublication', 'published'],
  readyForPublication: ['readyForPublication', 'draft', 'published'],
  published: ['published', 'unpublished'],
  unpublished: ['unpublished', 'draft', 'readyForPublication', 'published'],
};
export const notificationViewRestrictions = ['allUsers', 'internalUsers'] as const;
export const maxNotificationTitleLength = 200;
export const maxNotificationContentLength = 100_000;

export type NotificationInline = { text: string; bold?: boolean; italic?: boolean; href?: string };
export type NotificationBlock =
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'text'; inlines: NotificationInline[] }
  | { type: 'heading'; level: 1 | 2 | 3; inlines: NotificationInline[] }
  | { type: 'richList'; ordered: boolean; items: NotificationInline[][] };

/** Links go to web pages or mail only: a javascript: or data: address is not a link (the schema says the same). */
export const safeLinkPattern = /^(https?:\/\/|mailto:)[^\s]{1,2040}$/i;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function inlineOf(value: unknown): NotificationInline | null {
  if (!isRecord(value) || typeof value.text !== 'string') return null;
  const inline: NotificationInline = { text: value.text };
  if ('bold' in value) {
    if (typeof value.bold !== 'boolean') return null;
    inline.bold = value.bold;
  }
  if ('italic' in value) {
    if (typeof value.italic !== 'boolean') return null;
    inline.italic = value.italic;
  }
  if ('href' in value) {
    if (typeof value.href !== 'string' || !safeLinkPattern.test(value.href)) return null;
    inline.href = value.href;
  }
  return inline;
}

function inlinesOf(value: unknown): NotificationInline[] | null {
  if (!Array.isArray(value)) return null;
  const inlines = value.map(inlineOf);
  return inlines.every((inline): inline is NotificationInline => inline !== null) ? inlines : null;
}

function blockOf(value: unknown): NotificationBlock | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case 'paragraph':
      return typeof value.text === 'string' ? { type: 'paragraph', text: value.text } : null;
    case 'list':
      return Array.isArray(value.items) && value.items.every((item) => typeof item === 'string')
        ? { type: 'list', items: [...(value.items as string[])] }
        : null;
    case 'text': {
      const inlines = inlinesOf(value.inlines);
      return inlines ? { type: 'text', inlines } : null;
    }
    case 'heading': {
      const inlines = inlinesOf(value.inlines);
      return inlines && (value.level === 1 || value.level === 2 || value.level === 3) ? { type: 'heading', level: value.level, inlines } : null;
    }
    case 'richList': {
      if (typeof value.ordered !== 'boolean' || !Array.isArray(value.items)) return null;
      const items = value.items.map(inlinesOf);
      return items.every((item): item is NotificationInline[] => item !== null) ? { type: 'richList', ordered: value.ordered, items } : null;
    }
    default:
      return null;
  }
}

/** The blocks of a notification's content; text that is not JSON shows as one paragraph, JSON of another shape as nothing. */
export function parseNotificationContent(text: string): NotificationBlock[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text.trim() === '' ? [] : [{ type: 'paragraph', text }];
  }
  if (!isRecord(data) || !Array.isArray(data.blocks)) return [];
  const blocks = data.blocks.map(blockOf);
  return blocks.every((block): block is NotificationBlock => block !== null) ? blocks : [];
}
