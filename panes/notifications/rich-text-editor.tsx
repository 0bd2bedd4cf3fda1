// The notification editor (Lexical): headings, paragraphs, bold, italic, bulleted and numbered lists and links,
// with undo and redo, a keyboard-operable toolbar (role=toolbar, arrow keys move between its buttons) and the usual
// shortcuts (Ctrl+B, Ctrl+I, Ctrl+Z). It reports every change as notification blocks (lexical-content.ts), so what
// the author saves is exactly what readers' renderer shows. Loaded only by the authoring screens.
import { $createLinkNode, $isLinkNode, LinkNode, TOGGLE_LINK_COMMAND } from '@lexical/link';
import {
  $createListItemNode,
  $createListNode,
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  ListItemNode,
  ListNode,
  REMOVE_LIST_COMMAND,
} from '@lexical/list';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { $createHeadingNode, HeadingNode, type HeadingTagType } from '@lexical/rich-text';
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isRangeSelection,
  FORMAT_TEXT_COMMAND,
  $isElementNode,
  type ElementNode,
  type LexicalNode,
  REDO_COMMAND,
  UNDO_COMMAND,
} from 'lexical';
import { type KeyboardEvent, useRef, useState } from 'react';
import { safeLinkPattern, type NotificationBlock, type NotificationInline } from '../../src/contract/notifications.ts';
import { blocksOfEditorState, editorBlocksOf, type SerialisedNode } from './lexical-content.ts';

function runNodes(line: readonly NotificationInline[]): LexicalNode[] {
  return line.flatMap((run): LexicalNode[] => {
    const parts = run.text.split('\n');
    const nodes: LexicalNode[] = [];
    parts.forEach((part, index) => {
      if (index > 0) nodes.push($createLineBreakNode());
      if (part === '') return;
      const text = $createTextNode(part);
      if (run.bold) text.toggleFormat('bold');
      if (run.italic) text.toggleFormat('italic');
      if (run.href) {
        const link = $createLinkNode(run.href, { rel: 'noopener noreferrer nofollow', target: '_blank' });
        link.append(text);
        nodes.push(link);
      } else nodes.push(text);
    });
    return nodes;
  });
}

/** Fills an empty editor with a notification's blocks (editing an existing one). */
function $loadBlocks(blocks: readonly NotificationBlock[]): void {
  const root = $getRoot();
  root.clear();
  for (const block of editorBlocksOf(blocks)) {
    if (block.kind === 'bullet' || block.kind === 'number') {
      const list = $createListNode(block.kind);
      for (const line of block.lines) list.append($createListItemNode().append(...runNodes(line)));
      root.append(list);
    } else {
      for (const line of block.lines) {
        const element = block.kind === 'paragraph' ? $createParagraphNode() : $createHeadingNode(block.kind);
        root.append(element.append(...runNodes(line)));
      }
    }
  }
  if (root.getChildrenSize() === 0) root.append($createParagraphNode());
}

type BlockKind = 'paragraph' | HeadingTagType;

function Toolbar({ onLinkProblem }: { onLinkProblem: (problem: string | null) => void }) {
  const [editor] = useLexicalComposerContext();
  const bar = useRef<HTMLDivElement>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [url, setUrl] = useState('https://');

  // The selected top-level blocks become paragraphs or headings (lists stay lists: 'No list' first).
  const setBlock = (kind: BlockKind) =>
    editor.update(() => {
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) return;
      const blocks = new Map<string, ElementNode>();
      for (const node of selection.getNodes()) {
        const block = node.getTopLevelElement();
        if (block && $isElementNode(block)) blocks.set(block.getKey(), block);
      }
      for (const block of blocks.values()) {
        if (block.getType() === 'list') continue;
        block.replace(kind === 'paragraph' ? $createParagraphNode() : $createHeadingNode(kind), true);
      }
    });
  const applyLink = () => {
    const address = url.trim();
    if (address !== '' && !safeLinkPattern.test(address)) {
      onLinkProblem('Links must start with https://, http:// or mailto:');
      return;
    }
    onLinkProblem(null);
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, address === '' ? null : { url: address, rel: 'noopener noreferrer nofollow', target: '_blank' });
    setLinkOpen(false);
    editor.focus();
  };
  const removeLink = () =>
    editor.update(() => {
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) return;
      const link = selection
        .getNodes()
        .map((node) => (node.getParent() && $isLinkNode(node.getParent()) ? node.getParent() : node))
        .find($isLinkNode);
      if (link) editor.dispatchCommand(TOGGLE_LINK_COMMAND, null);
    });

  // A toolbar is one tab stop; arrow keys move between its buttons (WAI-ARIA toolbar pattern).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>(':scope > button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    event.preventDefault();
    buttons[(at + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length]?.focus();
  };
  // The accessible name starts with the visible text ('H1, Heading 1'), so speech input can say what it reads.
  const button = (label: string, action: () => void, text: string, index: number) => {
    const [description, keys] = label.split(/ \((.*)\)$/);
    const same = description !== undefined && (description === text || description === `${text}…`);
    const name = same ? description : `${text}, ${description ?? label}`;
    return (
      <button
        type="button"
        className="button button-ghost"
        aria-label={name}
        title={label}
        tabIndex={index === 0 ? 0 : -1}
        aria-keyshortcuts={keys ? keys.replace('Ctrl', 'Control') : undefined}
        onMouseDown={(event) => event.preventDefault()}
        onClick={action}
      >
        {text}
      </button>
    );
  };
  return (
    <>
      <div ref={bar} className="editor-toolbar" role="toolbar" aria-label="Formatting" onKeyDown={onKeyDown}>
        {button('Paragraph', () => setBlock('paragraph'), '¶', 0)}
        {button('Heading 1', () => setBlock('h1'), 'H1', 1)}
        {button('Heading 2', () => setBlock('h2'), 'H2', 2)}
        {button('Heading 3', () => setBlock('h3'), 'H3', 3)}
        {button('Bold (Ctrl+B)', () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'bold'), 'B', 4)}
        {button('Italic (Ctrl+I)', () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'italic'), 'I', 5)}
        {button('Bulleted list', () => editor.dispatchCommand(INSERT_UNORDERED_LIST_COMMAND, undefined), '• List', 6)}
        {button('Numbered list', () => editor.dispatchCommand(INSERT_ORDERED_LIST_COMMAND, undefined), '1. List', 7)}
        {button('Remove list', () => editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined), 'No list', 8)}
        {button('Link…', () => setLinkOpen(true), 'Link', 9)}
        {button('Remove link', removeLink, 'Unlink', 10)}
        {button('Undo (Ctrl+Z)', () => editor.dispatchCommand(UNDO_COMMAND, undefined), 'Undo', 11)}
        {button('Redo (Ctrl+Y)', () => editor.dispatchCommand(REDO_COMMAND, undefined), 'Redo', 12)}
      </div>
      {linkOpen ? (
        <div className="editor-link" role="group" aria-label="Link address">
          <label>
            Address of the selected text
            <input
              type="url"
              value={url}
              // biome-ignore lint/a11y/noAutofocus: the link field opens on a key press asking for the address; it takes the keyboard
              autoFocus
              onChange={(event) => setUrl(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  applyLink();
                }
                if (event.key === 'Escape') {
                  event.preventDefault();
                  event.stopPropagation();
                  setLinkOpen(false);
                  editor.focus();
                }
              }}
            />
          </label>
          <button type="button" className="button" onClick={applyLink}>
            Apply link
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              setLinkOpen(false);
              editor.focus();
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}
    </>
  );
}

export function RichTextEditor({
  label,
  initialBlocks,
  onChange,
}: {
  label: string;
  initialBlocks: readonly NotificationBlock[];
  onChange: (blocks: NotificationBlock[]) => void;
}) {
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const initialConfig = {
    namespace: 'notification',
    nodes: [HeadingNode, ListNode, ListItemNode, LinkNode],
    onError: (error: Error) => {
      throw error;
    },
    editorState: () => $loadBlocks(initialBlocks),
    theme: { text: { bold: 'editor-bold', italic: 'editor-italic' }, link: 'editor-link-text' },
  };
  return (
    <div className="rich-text-editor">
      <LexicalComposer initialConfig={initialConfig}>
        <Toolbar onLinkProblem={setLinkProblem} />
        {linkProblem ? (
          <p role="alert" className="notification-field-problem">
            {linkProblem}
          </p>
        ) : null}
        <RichTextPlugin
          contentEditable={<ContentEditable className="editor-content notification-content" aria-label={label} aria-multiline="true" role="textbox" />}
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={(value) => safeLinkPattern.test(value)} />
        <OnChangePlugin ignoreSelectionChange onChange={(state) => onChange(blocksOfEditorState(state.toJSON() as unknown as { root: SerialisedNode }))} />
      </LexicalComposer>
    </div>
  );
}
