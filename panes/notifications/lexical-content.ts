// The rich-text editor's document (Lexical's serialised editor state) into the notification document readers get,
// and back: headings, paragraphs of runs (bold, italic, links), bulleted and numbered lists. Anything else the
// editor could hold (other formats, nested lists, unknown nodes) is reduced to its text, so what is saved is only
// ever what the reader's renderer shows. Links to anything but http(s) or mailto lose their address, keep their text.
import { safeLinkPattern, type NotificationBlock, type NotificationInline } from '../../src/contract/notifications.ts';

/** The parts of Lexical's serialised nodes read here (SerializedLexicalNode and its kinds). */
export type SerialisedNode = {
  type: string;
  children?: SerialisedNode[];
  text?: string;
  format?: number | string;
  tag?: string;
  listType?: string;
  url?: string;
};

const boldBit = 1;
const italicBit = 2;

function runsOf(nodes: readonly SerialisedNode[], href?: string): NotificationInline[] {
  const runs: NotificationInline[] = [];
  for (const node of nodes) {
    if (node.type === 'text' && typeof node.text === 'string') {
      const format = typeof node.format === 'number' ? node.format : 0;
      const run: NotificationInline = { text: node.text };
      if (format & boldBit) run.bold = true;
      if (format & italicBit) run.italic = true;
      if (href) run.href = href;
      runs.push(run);
    } else if (node.type === 'linebreak') {
      runs.push(href ? { text: '\n', href } : { text: '\n' });
    } else if ((node.type === 'link' || node.type === 'autolink') && node.children) {
      const url = typeof node.url === 'string' && safeLinkPattern.test(node.url) ? node.url : undefined;
      runs.push(...runsOf(node.children, url));
    } else if (node.children) {
      runs.push(...runsOf(node.children, href));
    }
  }
  // Neighbouring runs with the same formatting are one run.
  return runs.reduce<NotificationInline[]>((merged, run) => {
    const last = merged[merged.length - 1];
    if (last && last.bold === run.bold && last.italic === run.italic && last.href === run.href) last.text += run.text;
    else merged.push({ ...run });
    return merged;
  }, []);
}

function listItemsOf(list: SerialisedNode): NotificationInline[][] {
  const items: NotificationInline[][] = [];
  for (const item of list.children ?? []) {
    const nested = (item.children ?? []).filter((child) => child.type === 'list');
    const own = runsOf((item.children ?? []).filter((child) => child.type !== 'list'));
    if (own.length > 0) items.push(own);
    // A nested list's items follow as items of their own (readers see one level).
    for (const inner of nested) items.push(...listItemsOf(inner));
  }
  return items;
}

const isBlank = (runs: readonly NotificationInline[]) => runs.every((run) => run.text.trim() === '');

/** Lexical's editor state (editorState.toJSON()) as notification blocks; blank paragraphs are dropped. */
export function blocksOfEditorState(state: { root: SerialisedNode }): NotificationBlock[] {
  const blocks: NotificationBlock[] = [];
  for (const node of state.root.children ?? []) {
    if (node.type === 'heading') {
      const runs = runsOf(node.children ?? []);
      const level = node.tag === 'h1' ? 1 : node.tag === 'h2' ? 2 : 3;
      if (!isBlank(runs)) blocks.push({ type: 'heading', level, inlines: runs });
    } else if (node.type === 'list') {
      const items = listItemsOf(node);
      if (items.length > 0) blocks.push({ type: 'richList', ordered: node.listType === 'number', items });
    } else {
      const runs = runsOf(node.children ?? (typeof node.text === 'string' ? [node] : []));
      if (!isBlank(runs)) blocks.push({ type: 'text', inlines: runs });
    }
  }
  return blocks;
}

/** The JSON text the API stores. */
export const contentText = (blocks: readonly NotificationBlock[]) => JSON.stringify({ blocks });

/** A notification's blocks as runs per block, for loading them into the editor (older plain blocks included). */
export type EditorBlock = { kind: 'paragraph' | 'h1' | 'h2' | 'h3' | 'bullet' | 'number'; lines: NotificationInline[][] };

export function editorBlocksOf(blocks: readonly NotificationBlock[]): EditorBlock[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every case (TypeScript checks it with noImplicitReturns)
  return blocks.map((block): EditorBlock => {
    switch (block.type) {
      case 'paragraph':
        return { kind: 'paragraph', lines: [[{ text: block.text }]] };
      case 'list':
        return { kind: 'bullet', lines: block.items.map((item) => [{ text: item }]) };
      case 'text':
        return { kind: 'paragraph', lines: [block.inlines] };
      case 'heading':
        return { kind: block.level === 1 ? 'h1' : block.level === 2 ? 'h2' : 'h3', lines: [block.inlines] };
      case 'richList':
        return { kind: block.ordered ? 'number' : 'bullet', lines: block.items };
    }
  });
}
