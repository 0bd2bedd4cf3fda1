import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notificationContent } from '../../src/contract/notification-schemas.ts';
import { parseNotificationContent } from '../../src/contract/notifications.ts';

// Runs of text near the format: formatted, linked (safe and hostile addresses), with wrong or extra fields.
const nearInline = fc.oneof(
  fc.record({ text: fc.string(), bold: fc.boolean(), italic: fc.boolean() }, { requiredKeys: ['text'] }),
  fc.record({
    text: fc.string(),
    href: fc.constantFrom('https://example.com/a', 'mailto:help@example.com', 'javascript:alert(1)', 'data:text/html,x', 'https://a b', ''),
  }),
  fc.record({ text: fc.jsonValue(), bold: fc.jsonValue(), extra: fc.jsonValue() }, { requiredKeys: [] }),
);

// Values near the format: blocks of every kind, of wrong kinds, with wrong or extra fields.
const nearBlock = fc.oneof(
  fc.record({ type: fc.constant('paragraph'), text: fc.string() }),
  fc.record({ type: fc.constant('list'), items: fc.array(fc.string(), { maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom('paragraph', 'list', 'heading', 7), text: fc.jsonValue(), items: fc.jsonValue() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('paragraph'), text: fc.string(), extra: fc.jsonValue() }),
  fc.record({ type: fc.constant('list'), items: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }) }),
  fc.record({ type: fc.constant('text'), inlines: fc.array(nearInline, { maxLength: 3 }) }),
  fc.record({ type: fc.constant('heading'), level: fc.constantFrom(1, 2, 3, 4, '2'), inlines: fc.array(nearInline, { maxLength: 3 }) }),
  fc.record({
    type: fc.constant('richList'),
    ordered: fc.oneof(fc.boolean(), fc.constant('yes')),
    items: fc.array(fc.array(nearInline, { maxLength: 2 }), { maxLength: 3 }),
  }),
  fc.jsonValue(),
);
const nearContent = fc.oneof(fc.record({ blocks: fc.array(nearBlock, { maxLength: 4 }) }), fc.record({ blocks: fc.jsonValue() }), fc.jsonValue());

type LooseInline = { text: string; bold?: boolean; italic?: boolean; href?: string };
type LooseBlock = { type: string; text?: string; items?: unknown[]; inlines?: LooseInline[]; level?: number; ordered?: boolean };

/** Only the declared fields (arktype keeps undeclared keys; the parser hands on only declared ones). */
const declaredInline = (inline: LooseInline) => ({
  text: inline.text,
  ...('bold' in inline ? { bold: inline.bold } : {}),
  ...('italic' in inline ? { italic: inline.italic } : {}),
  ...('href' in inline ? { href: inline.href } : {}),
});
const declared = (block: LooseBlock) => {
  switch (block.type) {
    case 'paragraph':
      return { type: 'paragraph', text: block.text };
    case 'list':
      return { type: 'list', items: block.items };
    case 'text':
      return { type: 'text', inlines: (block.inlines ?? []).map(declaredInline) };
    case 'heading':
      return { type: 'heading', level: block.level, inlines: (block.inlines ?? []).map(declaredInline) };
    default:
      return { type: 'richList', ordered: block.ordered, items: (block.items as LooseInline[][]).map((item) => item.map(declaredInline)) };
  }
};

describe('parseNotificationContent', () => {
  it('accepts exactly what the contract schema accepts, and hands on the same blocks', () => {
    fc.assert(
      fc.property(nearContent, (data) => {
        const text = JSON.stringify(data);
        const checked = notificationContent(data);
        const parsed = parseNotificationContent(text);
        if (checked instanceof type.errors) expect(parsed).toEqual([]);
        else expect(parsed).toEqual((checked.blocks as LooseBlock[]).map(declared));
      }),
      { numRuns: 2000 },
    );
  });

  it('shows text that is not JSON as one paragraph, and blank text as nothing', () => {
    expect(parseNotificationContent('Maintenance <b>tonight</b>')).toEqual([{ type: 'paragraph', text: 'Maintenance <b>tonight</b>' }]);
    expect(parseNotificationContent('   ')).toEqual([]);
  });
});
