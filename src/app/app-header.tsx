// The top bar: brand, the applied context with 'Switch context', the palette, help, the bell with the
// unread count and the profile menu. Menu entries are registry commands, offered when isAvailable says so.
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { shortcutKeys } from '../../commands/shortcut.ts';
import { isAvailable } from '../../commands/registry.ts';
import { notificationQueries } from '../api/notification-queries.ts';
import type { ContextSelections } from '../contract/context.ts';
import { contextStore } from '../state/context-store.ts';
import { sessionStore } from '../state/session-store.ts';
import { DropdownMenu } from '../ui/dropdown-menu.tsx';
import type { MenuItem } from '../ui/menu-item.ts';
import { BellIcon, HelpIcon, SearchIcon } from '../ui/icons.tsx';
import { ShortcutKeys } from '../ui/shortcut-keys.tsx';
import { useAppServices } from './app-services.tsx';
import { useCommandContext } from './command-context.ts';

function useCommandItems(entries: readonly { id: string; label?: string; href?: string }[]): MenuItem[] {
  const { registry, commandServices } = useAppServices();
  const ctx = useCommandContext(undefined, { overlays: false });
  return entries.flatMap((entry): MenuItem[] => {
    const command = registry.get(entry.id);
    if (!command || !isAvailable(command, ctx)) return [];
    const item: MenuItem = { id: command.id, label: entry.label ?? command.title };
    if (command.shortcut) item.shortcut = shortcutKeys(command.shortcut);
    if (entry.href) item.href = entry.href;
    else item.onSelect = () => void command.run(commandServices, {});
    return [item];
  });
}

function ContextDisplay() {
  const { applied } = useSnapshot(contextStore) as { applied: ContextSelections };
  const parts = [applied.partner?.title, applied.business?.title, applied.merchant?.title, applied.configuration?.title]
    // A name once: a merchant and its configuration often share the title.
    .filter((part, index, all): part is string => Boolean(part) && part !== all[index - 1]);
  const { registry, commandServices } = useAppServices();
  const ctx = useCommandContext(undefined, { overlays: false });
  const switchCommand = registry.get('context.switch');
  return (
    <div className="context-display">
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: kept as it was: the line is found by this name (tests, journeys); a role that allows it would change what screen readers announce */}
      <p className="context-path" aria-label="Applied context">
        {parts.length === 0 ? (
          <span className="context-none">No context selected</span>
        ) : (
          parts.map((part, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the context's parts are positions in a path (one name may stand at two levels)
            <span key={`${index}-${part}`} className="context-part">
              {index > 0 ? (
                <span className="context-separator" aria-hidden="true">
                  ›
                </span>
              ) : null}
              {part}
            </span>
          ))
        )}
      </p>
      {switchCommand && isAvailable(switchCommand, ctx) ? (
        <button type="button" className="button button-ghost context-switch" onClick={() => void switchCommand.run(commandServices, {})}>
          Switch context
        </button>
      ) : null}
    </div>
  );
}

function Bell() {
  const ctx = useCommandContext(undefined, { overlays: false });
  const status = useQuery({ ...notificationQueries.status(), enabled: ctx.signedIn });
  const count = status.data?.totalUnreadCount ?? 0;
  const label = count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;
  if (!ctx.permissions.includes('Portal.Notifications.Read')) return null;
  return (
    <a href="/notifications" className="icon-button bell" aria-label={label} title="Notifications">
      <BellIcon />
      {count > 0 ? (
        <span className="bell-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </a>
  );
}

function initials(name: string): string {
  const letters = name
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase());
  return letters.join('') || '?';
}

export function AppHeader() {
  const { registry, commandServices } = useAppServices();
  const { userInfo } = useSnapshot(sessionStore);
  const name = [userInfo?.given_name, userInfo?.family_name].filter(Boolean).join(' ') || userInfo?.name || userInfo?.email || 'Account';
  const palette = registry.get('help.openPalette');
  const helpItems = useCommandItems([
    { id: 'help.showShortcuts', label: 'Keyboard shortcuts' },
    { id: 'help.openPalette', label: 'Command palette' },
    { id: 'help.reportBug', label: 'Report bug', href: '/tickets/add?type=bug' },
    { id: 'help.giveFeedback', label: 'Give feedback', href: '/tickets/add?type=featureRequest' },
  ]);
  const profileItems = useCommandItems([
    { id: 'nav.profile', label: 'My profile', href: '/profile' },
    { id: 'nav.reportQueue', label: 'My report queue', href: '/reporting-overview' },
    { id: 'session.signOut', label: 'Logout', href: '/sign-out' },
  ]);

  return (
    <header className="app-header">
      <a className="brand" href="/dashboard" aria-label="Payments portal, dashboard">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Payments portal</span>
      </a>
      <ContextDisplay />
      <button type="button" className="palette-trigger" onClick={() => palette && void palette.run(commandServices, {})}>
        <SearchIcon />
        <span className="palette-trigger-text">Search or jump to…</span>
        {palette?.shortcut ? <ShortcutKeys keys={shortcutKeys(palette.shortcut)} /> : null}
      </button>
      <div className="header-actions">
        <DropdownMenu label="Help" trigger={<HelpIcon />} items={helpItems} />
        <Bell />
        <DropdownMenu
          label={`Account menu for ${name}`}
          triggerClassName="avatar-button"
          trigger={
            <span className="avatar" aria-hidden="true">
              {initials(name)}
            </span>
          }
          items={profileItems}
        />
      </div>
    </header>
  );
}
