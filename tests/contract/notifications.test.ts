import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notificationContent } from '../../src/contract/notification-schemas.ts';
import { parseNotificationContent } from '../../src/contract/notifications.ts';

// Values near the format: blocks of either kind, of wrong kinds, with wrong or extra fields.
const nearBlock = fc.oneof(
  fc.record({ type: fc.constant('paragraph'), text: fc.string() }),
  fc.record({ type: fc.constant('list'), items: fc.array(fc.string(), { maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom('paragraph', 'list', 'heading', 7), text: fc.jsonValue(), items: fc.jsonValue() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('paragraph'), text: fc.string(), extra: fc.jsonValue() }),
  fc.record({ type: fc.constant('list'), items: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }) }),
  fc.jsonValue(),
);
const nearContent = fc.oneof(
  fc.record({ blocks: fc.array(nearBlock, { maxLength: 4 }) }),
  fc.record({ blocks: fc.jsonValue() }),
  fc.jsonValue(),
);

/** Only the declared fields of a block (arktype keeps undeclared keys; the parser hands on only declared ones). */
const declared = (block: { type: string; text?: string; items?: string[] }) =>
  block.type === 'paragraph' ? { type: 'paragraph', text: block.text } : { type: 'list', items: block.items };

describe('parseNotificationContent', () => {
  it('accepts exactly what the contract schema accepts, and hands on the same blocks', () => {
    fc.assert(fc.property(nearContent, (data) => {
      const text = JSON.stringify(data);
      const checked = notificationContent(data);
      const parsed = parseNotificationContent(text);
      if (checked instanceof type.errors) expect(parsed).toEqual([]);
      else expect(parsed).toEqual(checked.blocks.map(declared));
    }), { numRuns: 2000 });
  });

  it('shows text that is not JSON as one paragraph, and blank text as nothing', () => {
    expect(parseNotificationContent('Maintenance <b>tonight</b>')).toEqual([{ type: 'paragraph', text: 'Maintenance <b>tonight</b>' }]);
    expect(parseNotificationContent('   ')).toEqual([]);
  });
});
