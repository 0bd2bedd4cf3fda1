// A notification's content as readers see it (the reader and the author's preview use this one renderer): blocks
// and runs of text become React elements with text children only, never markup; links are web or mail addresses
// only (the parser drops the whole content otherwise) and open in a new tab without the portal as referrer.
import type { NotificationBlock, NotificationInline } from '../../src/contract/notifications.ts';

function Inline({ inline }: { inline: NotificationInline }) {
  let node = <>{inline.text}</>;
  if (inline.italic) node = <em>{node}</em>;
  if (inline.bold) node = <strong>{node}</strong>;
  if (inline.href)
    node = (
      <a href={inline.href} target="_blank" rel="noopener noreferrer nofollow">
        {node}
      </a>
    );
  return node;
}

const Inlines = ({ inlines }: { inlines: readonly NotificationInline[] }) => (
  <>
    {inlines.map((inline, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: read-only content: a run's place in its block is its identity
      <Inline key={index} inline={inline} />
    ))}
  </>
);

export function ContentBlock({ block }: { block: NotificationBlock }) {
  switch (block.type) {
    case 'paragraph':
      return <p>{block.text}</p>;
    case 'list':
      return (
        <ul>
          {block.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: read-only content: an item's place in its list is its identity
            <li key={index}>{item}</li>
          ))}
        </ul>
      );
    case 'text':
      return (
        <p>
          <Inlines inlines={block.inlines} />
        </p>
      );
    // Level 1 is the notification's title: content headings start one below it.
    case 'heading':
      return block.level === 1 ? (
        <h2>
          <Inlines inlines={block.inlines} />
        </h2>
      ) : block.level === 2 ? (
        <h3>
          <Inlines inlines={block.inlines} />
        </h3>
      ) : (
        <h4>
          <Inlines inlines={block.inlines} />
        </h4>
      );
    case 'richList': {
      const items = block.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: read-only content: an item's place in its list is its identity
        <li key={index}>
          <Inlines inlines={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
  }
}

export function NotificationContentView({ blocks }: { blocks: readonly NotificationBlock[] }) {
  return (
    <div className="notification-content">
      {blocks.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: read-only content: a block's place in the document is its identity
        <ContentBlock key={index} block={block} />
      ))}
    </div>
  );
}
