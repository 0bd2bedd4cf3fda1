import { describe, expect, it } from 'vitest';
import { blocksOfEditorState, editorBlocksOf } from '../../../panes/notifications/lexical-content.ts';
import { parseNotificationContent } from '../../../src/contract/notifications.ts';

const text = (value: string, format = 0) => ({ type: 'text', text: value, format });

describe('the editor’s document as a notification', () => {
  it('keeps headings, bold and italic runs, links and both kinds of list, and nothing else', () => {
    const state = {
      root: {
        type: 'root',
        children: [
          { type: 'heading', tag: 'h1', children: [text('Fee changes')] },
          {
            type: 'paragraph',
            children: [
              text('From '),
              text('April', 1),
              text(' on', 2),
              { type: 'linebreak' },
              { type: 'link', url: 'https://example.com/fees', children: [text('read more')] },
            ],
          },
          { type: 'paragraph', children: [text('   ')] },
          {
            type: 'list',
            listType: 'number',
            children: [
              { type: 'listitem', children: [text('one')] },
              { type: 'listitem', children: [text('two'), { type: 'list', listType: 'bullet', children: [{ type: 'listitem', children: [text('two a')] }] }] },
            ],
          },
          { type: 'paragraph', children: [{ type: 'link', url: 'javascript:alert(1)', children: [text('click')] }, text('<b>not markup</b>', 1 | 2 | 4)] },
          { type: 'quote', children: [text('quoted')] },
        ],
      },
    };
    const blocks = blocksOfEditorState(state);
    expect(blocks).toEqual([
      { type: 'heading', level: 1, inlines: [{ text: 'Fee changes' }] },
      {
        type: 'text',
        inlines: [
          { text: 'From ' },
          { text: 'April', bold: true },
          { text: ' on', italic: true },
          { text: '\n' },
          { text: 'read more', href: 'https://example.com/fees' },
        ],
      },
      { type: 'richList', ordered: true, items: [[{ text: 'one' }], [{ text: 'two' }], [{ text: 'two a' }]] },
      { type: 'text', inlines: [{ text: 'click' }, { text: '<b>not markup</b>', bold: true, italic: true }] },
      { type: 'text', inlines: [{ text: 'quoted' }] },
    ]);
    // What is saved is exactly what readers' parser accepts.
    expect(parseNotificationContent(JSON.stringify({ blocks }))).toEqual(blocks);
  });

  it('loads older plain paragraphs and lists into the editor as runs', () => {
    expect(
      editorBlocksOf([
        { type: 'paragraph', text: 'Hello' },
        { type: 'list', items: ['a', 'b'] },
      ]),
    ).toEqual([
      { kind: 'paragraph', lines: [[{ text: 'Hello' }]] },
      { kind: 'bullet', lines: [[{ text: 'a' }], [{ text: 'b' }]] },
    ]);
  });
});
