// The command palette (cmdk): a combobox over the commands available now, recently used first, ranked by
// our own scorer and capped (cmdk's own filtering is off, so a thousand commands cost nothing), plus the record
// search (src/app/record-search.tsx, GET /search with field syntax), a lazily loaded chunk fetched when the
// palette first opens or the user types. Enter runs or opens; Shift+Enter (or a Shift/Ctrl/Cmd click) opens in a
// new pane beside.
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import {
  type KeyboardEvent,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useSnapshot } from 'valtio';
import type { Command as PortalCommand, CommandArgs } from '../../commands/command.ts';
import { favoritesSettingKey, recentSettingKey, savedContextCommands } from '../../commands/context/saved-contexts.ts';
import { isAvailable } from '../../commands/registry.ts';
import { rankCommands } from '../../commands/rank.ts';
import { shortcutKeys } from '../../commands/shortcut.ts';
import { userSettingQueries } from '../api/user-setting-queries.ts';
import type { RecordSearchResult } from '../contract/shell-responses.ts';
import { commandsHiddenFromPalette, paletteStore, recordRecentCommand } from '../state/palette-store.ts';
import { closeOverlay, shellStore } from '../state/shell-store.ts';
import { LightDialog } from '../ui/light-dialog.tsx';
import { ShortcutKeys } from '../ui/shortcut-keys.tsx';
import { useAppServices } from './app-services.tsx';
import { useCommandContext } from './command-context.ts';
import { keepFocusAfter } from './focus-keeper.ts';
import { setPaletteMounted, takeTypeahead } from './palette-typeahead.ts';

export const paletteRenderCap = 50;

const RecordSearch = lazy(() => import('./record-search.tsx').then((module) => ({ default: module.RecordSearch })));
/** Records lead the commands when the query reads as a look-up: a digit, an email or a field clause. */
const recordsLead = (query: string) => /\d|@|(^|\s)[A-Za-z]+:/.test(query);

/** A stable function that always calls the latest `handler` (what React's useEffectEvent does, usable in memos). */
function useEvent<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => R {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useMemo(
    () =>
      (...args: A) =>
        latest.current(...args),
    [],
  );
}

export function CommandPalette() {
  const { registry, commandServices } = useAppServices();
  const { paletteOpen } = useSnapshot(shellStore);
  const { recent } = useSnapshot(paletteStore);
  // The context the chosen command will run in: the palette closes first, so the overlays are left out.
  const runContext = useCommandContext(undefined, { overlays: false });
  // The palette stays rendered while closed (hidden), so Ctrl+K only reveals a list that is already there. While it
  // is closed, the list follows the context at low priority (an interruptible render after a navigation, never part
  // of the navigation's own frame); open, it is always the context of now (worked out on the spot if the list had
  // not caught up yet).
  const deferredContext = useDeferredValue(runContext);
  const listContext = paletteOpen ? runContext : deferredContext;
  const [query, setQuery] = useState('');
  const besideRef = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // Favourite and recent contexts are the user's settings: loaded when the palette is mounted (after the first
  // screen), so opening it asks nothing of the server.
  const favorites = useQuery({ ...userSettingQueries.detail(favoritesSettingKey), enabled: runContext.signedIn });
  const recentContexts = useQuery({ ...userSettingQueries.detail(recentSettingKey), enabled: runContext.signedIn });
  // The areas' commands arrive after the first screen (app-registry.ts loadAreaCommands): the list follows.
  const registryVersion = useSyncExternalStore(registry.subscribe, registry.version);
  const commandsArriving = registry.awaitingMore();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the registry is one object that grows; its version is what changes when commands arrive
  const available = useMemo(
    () => [
      ...registry.available(listContext).filter((command) => !commandsHiddenFromPalette.has(command.id)),
      ...savedContextCommands(favorites.data, recentContexts.data).filter((command) => isAvailable(command, listContext)),
    ],
    [registry, registryVersion, listContext, favorites.data, recentContexts.data],
  );

  // The record search chunk is asked for once the palette has opened or been typed into, and stays.
  const [recordSearchWanted, setRecordSearchWanted] = useState(false);
  if (!recordSearchWanted && (paletteOpen || query !== '')) setRecordSearchWanted(true);
  const [recordRows, setRecordRows] = useState<{ values: string[]; busy: boolean }>({ values: [], busy: false });
  const onRecordRows = useCallback((rows: { values: string[]; busy: boolean }) => setRecordRows(rows), []);
  const leading = recordsLead(query);
  // The record search's notes (problems of the query) live beside the list, announced politely.
  const [notes, setNotes] = useState<HTMLElement | null>(null);
  const commandCap = Math.max(0, paletteRenderCap - recordRows.values.length);
  const ranked = useMemo(() => rankCommands(available, query, recent, commandCap), [available, query, recent, commandCap]);
  const showRecentGroup = query.trim() === '';

  const close = () => closeOverlay('palette');
  const runCommand = useEvent((command: PortalCommand, args: CommandArgs = {}) => {
    const beside = besideRef.current;
    besideRef.current = false;
    close();
    recordRecentCommand(command.id);
    void keepFocusAfter(command.run(commandServices, { ...args, ...(beside ? { beside: true } : {}) }));
  });
  // The command rows as elements, made again only when the ranking changes: opening (or any other re-render of the
  // palette) leaves them to React as they are.
  const commandList = useMemo(() => {
    const recentIds = new Set(recent);
    const recentCommands = showRecentGroup ? ranked.filter((command) => recentIds.has(command.id)) : [];
    const otherCommands = showRecentGroup ? ranked.filter((command) => !recentIds.has(command.id)) : ranked;
    const renderCommand = (command: PortalCommand) => (
      <Command.Item key={command.id} value={command.id} onSelect={() => runCommand(command)} className="palette-item">
        <span className="palette-item-title">{command.title}</span>
        <span className="palette-item-meta">
          <span className="palette-item-section">{command.section}</span>
          {command.shortcut ? <ShortcutKeys keys={shortcutKeys(command.shortcut)} /> : null}
        </span>
      </Command.Item>
    );
    const groups: ReactNode = (
      <>
        {recentCommands.length > 0 ? <Command.Group heading="Recent">{recentCommands.map(renderCommand)}</Command.Group> : null}
        {otherCommands.length > 0 ? (
          <Command.Group heading={showRecentGroup ? 'All commands' : 'Commands'}>{otherCommands.map(renderCommand)}</Command.Group>
        ) : null}
      </>
    );
    const shown = [...recentCommands, ...otherCommands];
    return { values: shown.map((command) => command.id), first: shown[0], groups };
  }, [ranked, recent, showRecentGroup, runCommand]);
  // The selection follows what is rendered: the first row after every change of the query, and again whenever
  // the selected row disappears (a record look-up answering, commands re-ranking). Worked out while rendering, so
  // opening the palette or typing paints once, not twice.
  const values = leading ? [...recordRows.values, ...commandList.values] : [...commandList.values, ...recordRows.values];
  const [choice, setChoice] = useState<{ query: string; value: string }>({ query: '', value: '' });
  const selected = choice.query === query && values.includes(choice.value) ? choice.value : (values[0] ?? '');
  const setSelected = (value: string) => setChoice({ query, value });

  // Closing empties the query, so the hidden list is back to its opening state before the next Ctrl+K.
  useEffect(() => {
    if (!paletteOpen) setQuery('');
  }, [paletteOpen]);

  // Keys typed before the palette arrived become its query; from now on its input takes them.
  useLayoutEffect(() => {
    setPaletteMounted(true);
    return () => setPaletteMounted(false);
  }, []);
  // An Enter among them runs the first command once the list shows that query, as it would have had the palette been
  // there (a record look-up waits a moment before it asks, so an Enter typed at speed meets the commands). When no
  // command matches, the palette stays open on the query, with the records it finds.
  const [pendingSubmit, setPendingSubmit] = useState<{ query: string; beside: boolean } | null>(null);
  useLayoutEffect(() => {
    if (!paletteOpen) return;
    const typed = takeTypeahead();
    if (typed.query) setQuery(typed.query);
    if (typed.submit) setPendingSubmit({ query: typed.query, beside: typed.submit.beside });
  }, [paletteOpen]);
  const submitted = useRef<object | null>(null);
  useEffect(() => {
    if (!pendingSubmit || pendingSubmit.query !== query || submitted.current === pendingSubmit || commandsArriving) return;
    submitted.current = pendingSubmit;
    setPendingSubmit(null);
    if (!commandList.first || recordsLead(pendingSubmit.query)) return;
    besideRef.current = pendingSubmit.beside;
    runCommand(commandList.first);
  }, [pendingSubmit, query, commandList, runCommand, commandsArriving]);

  const openRecord = useEvent((record: RecordSearchResult) => {
    const command = registry.get('record.openSearchResult');
    if (command) runCommand(command, { record });
  });
  const openPath = useEvent((path: string) => {
    const beside = besideRef.current;
    besideRef.current = false;
    close();
    void keepFocusAfter(commandServices.navigate(path, { beside }));
  });
  const completeQuery = useEvent((next: string) => {
    setQuery(next);
    inputRef.current?.focus();
  });
  const recordSearch = recordSearchWanted ? (
    <Suspense fallback={null}>
      <RecordSearch
        query={query}
        active={paletteOpen}
        configurationId={runContext.context.configurationId}
        onRows={onRecordRows}
        onOpenRecord={openRecord}
        onOpenPath={openPath}
        onQueryChange={completeQuery}
        notes={notes}
      />
    </Suspense>
  ) : null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter') return;
    // An Enter on a query while the areas' commands are still on their way would run whatever matches among the
    // first screen's few: it waits for them, then runs the first result for that query (as the typeahead's does).
    if (commandsArriving && query.trim() !== '' && !recordsLead(query)) {
      event.preventDefault();
      setPendingSubmit({ query, beside: event.shiftKey });
      return;
    }
    besideRef.current = event.shiftKey;
  };
  const onClickCapture = (event: MouseEvent<HTMLDivElement>) => {
    besideRef.current = event.shiftKey || event.ctrlKey || event.metaKey;
  };

  return (
    <LightDialog open={paletteOpen} keepMounted label="Command palette" onClose={close} className="palette-dialog" initialFocus={inputRef}>
      <Command
        label="Command palette"
        shouldFilter={false}
        value={selected}
        onValueChange={setSelected}
        loop
        onKeyDown={onKeyDown}
        onClickCapture={onClickCapture}
        className="palette"
      >
        <Command.Input
          // Focused as the palette opens (the dialog's initial focus), so keys typed right after Ctrl+K land in it.
          ref={inputRef}
          value={query}
          onValueChange={setQuery}
          placeholder="Type a command, a reference or name, or a query like status:paid date:last-week…"
          className="palette-input"
        />
        <div ref={setNotes} className="palette-notes" role="status" aria-live="polite" />
        <Command.List className="palette-list" aria-label="Results">
          {/* A disabled option rather than cmdk's Empty: a listbox must hold an option (axe: aria-required-children). */}
          {ranked.length === 0 && recordRows.values.length === 0 && !recordRows.busy ? (
            <Command.Item value="palette:nothing" disabled className="palette-item palette-nothing">
              Nothing matches.
            </Command.Item>
          ) : null}
          {leading ? null : commandList.groups}
          {recordSearch}
          {leading ? commandList.groups : null}
        </Command.List>
        <footer className="palette-footer" aria-hidden="true">
          <span>
            <kbd>↵</kbd> open
          </span>
          <span>
            <kbd>⇧</kbd>
            <kbd>↵</kbd> open beside
          </span>
          <span>
            <kbd>Esc</kbd> close
          </span>
        </footer>
      </Command>
    </LightDialog>
  );
}
