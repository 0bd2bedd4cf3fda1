// The `?` dialog: every shortcut the user can use right now (isAvailable over the registry), grouped by
// section, filterable by typing.
import { useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { commandSections } from '../../commands/command.ts';
import { scoreCommand } from '../../commands/rank.ts';
import { shortcutKeys, shortcutLabel } from '../../commands/shortcut.ts';
import { closeOverlay, shellStore } from '../state/shell-store.ts';
import { Modal } from '../ui/modal.tsx';
import { ShortcutKeys } from '../ui/shortcut-keys.tsx';
import { useAppServices } from './app-services.tsx';
import { useCommandContext } from './command-context.ts';

export function ShortcutHelpDialog() {
  const { registry } = useAppServices();
  const { shortcutHelpOpen } = useSnapshot(shellStore);
  const ctx = useCommandContext();
  const [filter, setFilter] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);

  const groups = useMemo(() => {
    const withShortcut = registry.available(ctx).filter((command) => command.shortcut);
    const matching = filter.trim()
      ? withShortcut.filter((command) => scoreCommand({ ...command, keywords: [...command.keywords, shortcutLabel(command.shortcut ?? '')] }, filter) > 0)
      : withShortcut;
    return commandSections
      .map((section) => ({ section, commands: matching.filter((command) => command.section === section) }))
      .filter((group) => group.commands.length > 0);
  }, [registry, ctx, filter]);

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
      {groups.length === 0 ? <p className="shortcut-empty">No shortcut matches “{filter}”.</p> : null}
      <div className="shortcut-groups">
        {groups.map((group) => (
          <section key={group.section} className="shortcut-group" aria-labelledby={`shortcut-group-${group.section}`}>
            <h3 id={`shortcut-group-${group.section}`}>{group.section}</h3>
            <ul>
              {group.commands.map((command) => (
                <li key={command.id} className="shortcut-row">
                  <span>{command.title}</span>
                  <ShortcutKeys keys={shortcutKeys(command.shortcut ?? '')} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Modal>
  );
}
