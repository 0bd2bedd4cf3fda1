// The `?` dialog: every shortcut the user can use right now (isAvailable over the registry), grouped by
// section, filterable by typing. 'Right now' is the screen under the dialog: the dialog's own focus (its filter
// field) and its being open do not hide j / k / Enter and the other keys of the list below it. Where the focused
// pane shows a list, the table's own keys (arrows, PageDown, Home, End) are listed too, and always the fields the
// palette's search understands (status:paid, a card's last four…).
import { useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { commandSections, type CommandContext } from '../../commands/command.ts';
import { scoreCommand } from '../../commands/rank.ts';
import { shortcutKeys, shortcutLabel } from '../../commands/shortcut.ts';
import { cardFieldDescription, fieldDescriptions, searchFields } from '../contract/search-query.ts';
import { closeOverlay, shellStore } from '../state/shell-store.ts';
import { Modal } from '../ui/modal.tsx';
import { ShortcutKeys } from '../ui/shortcut-keys.tsx';
import { useAppServices } from './app-services.tsx';
import { useCommandContext } from './command-context.ts';

/** The table's own keys (data-table.tsx), which are not commands: offered while the row has the focus. */
const tableKeys = [
  { id: 'list.down', title: 'Next row; past the last row, the next page', keys: [['↓']] },
  { id: 'list.up', title: 'Previous row; before the first row, the previous page', keys: [['↑']] },
  { id: 'list.pageDown', title: 'Ten rows down; at the end of the page, the next page', keys: [['PageDown']] },
  { id: 'list.pageUp', title: 'Ten rows up; at the top of the page, the previous page', keys: [['PageUp']] },
  { id: 'list.end', title: 'Last row; on the last row, the next page', keys: [['End']] },
  { id: 'list.home', title: 'First row', keys: [['Home']] },
];

/** The palette's search fields (src/contract/search-query.ts), with the ways of writing a card. */
const searchFieldRows = [
  ...searchFields.map((field) => ({ id: `field.${field}`, example: `${field}:`, title: fieldDescriptions[field] })),
  { id: 'field.card', example: 'card:', title: `${cardFieldDescription} (last4 and bin in one)` },
  { id: 'field.digits', example: '4242 · 424242', title: '4 digits alone are a card’s last four, 6 digits its first six ("4242" in quotes stays a word)' },
];

export function ShortcutHelpDialog() {
  const { registry } = useAppServices();
  const { shortcutHelpOpen } = useSnapshot(shellStore);
  const ctx = useCommandContext();
  const [filter, setFilter] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);

  const groups = useMemo(() => {
    const under: CommandContext = { ...ctx, fieldFocused: false, controlFocused: false, overlayOpen: false };
    const withShortcut = registry.available(under).filter((command) => command.shortcut && command.id !== 'help.closeOverlay');
    const matching = filter.trim()
      ? withShortcut.filter((command) => scoreCommand({ ...command, keywords: [...command.keywords, shortcutLabel(command.shortcut ?? '')] }, filter) > 0)
      : withShortcut;
    const listKeys = (ctx.focusedPane?.capabilities ?? []).includes('rows')
      ? tableKeys.filter((entry) => !filter.trim() || `${entry.title} ${entry.keys.flat().join(' ')}`.toLowerCase().includes(filter.trim().toLowerCase()))
      : [];
    return [
      ...commandSections.map((section) => ({
        section: section as string,
        commands: matching
          .filter((command) => command.section === section)
          .map((command) => ({ id: command.id, title: command.title, keys: shortcutKeys(command.shortcut ?? '') })),
      })),
      { section: 'In a list', commands: listKeys },
    ].filter((group) => group.commands.length > 0);
  }, [registry, ctx, filter]);
  const fieldRows = searchFieldRows.filter((row) => !filter.trim() || `${row.example} ${row.title}`.toLowerCase().includes(filter.trim().toLowerCase()));

  const close = () => {
    setFilter('');
    closeOverlay('shortcutHelp');
  };

  return (
    <Modal open={shortcutHelpOpen} title="Keyboard shortcuts" size="lg" onClose={close} closeActionLabel="Close" initialFocus={filterInput}>
      <input
        ref={filterInput}
        type="search"
        className="text-input shortcut-filter"
        placeholder="Filter shortcuts"
        aria-label="Filter shortcuts"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      {groups.length === 0 && fieldRows.length === 0 ? <p className="shortcut-empty">No shortcut matches “{filter}”.</p> : null}
      <div className="shortcut-groups">
        {groups.map((group) => (
          <section key={group.section} className="shortcut-group" aria-labelledby={`shortcut-group-${group.section.replace(/\W/g, '')}`}>
            <h3 id={`shortcut-group-${group.section.replace(/\W/g, '')}`}>{group.section}</h3>
            <ul>
              {group.commands.map((command) => (
                <li key={command.id} className="shortcut-row">
                  <span>{command.title}</span>
                  <ShortcutKeys keys={command.keys} />
                </li>
              ))}
            </ul>
          </section>
        ))}
        {fieldRows.length > 0 ? (
          <section className="shortcut-group" aria-labelledby="shortcut-group-searchfields">
            <h3 id="shortcut-group-searchfields">Search fields (in the palette, Ctrl+K)</h3>
            <ul>
              {fieldRows.map((row) => (
                <li key={row.id} className="shortcut-row">
                  <span>{row.title}</span>
                  <code>{row.example}</code>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </Modal>
  );
}
