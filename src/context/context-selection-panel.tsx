// The context selection panel, as a dialog or a page: tabs All / Recent / Favorites, the two-column decision
// tree with search, and the footer with Cancel (when the panel may be closed) and Apply. The rules live in
// context-flow.ts; this file renders its state and turns clicks and keys into its events.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { userQueries } from '../api/user-queries.ts';
import type { ContextItem } from '../contract/context.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { contextStore, hasSelectedContext } from '../state/context-store.ts';
import { sessionStore } from '../state/session-store.ts';
import { DeferredModal } from '../ui/deferred-modal.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { favoritesSettingKey, parseContextItems, recentSettingKey } from './context-data.ts';
import {
  activeColumn,
  awaitingForcedPath,
  canApply,
  canGoBack,
  minSearchTermLength,
  panelKeyAction,
  searchActive,
  type Column,
  type ContextTab,
  type FlowEvent,
  type FlowState,
  type SearchResult,
} from './context-flow.ts';
import { contextPageSize, hasRoles, isFavorite, toggleFavorite } from './context-rules.ts';
import { contextItemLabel, contextMessages as text, noContextFor, pageStatus, searchTooShort } from './context-messages.ts';
import { contextItemsKey, type ContextItemKey, useContextPanelServices } from './context-services.ts';
import { useContextFlow } from './use-context-flow.ts';
import './context-selection-panel.css';

export type ContextSelectionPanelProps = {
  mode: 'page' | 'dialog';
  /** where the user wants to go once a context is chosen (path and query) */
  preferredRoute: string;
  /** closes the dialog (or leaves the page); without it the panel cannot be closed */
  onClose?: () => void;
};

const tabs: { id: ContextTab; label: string }[] = [
  { id: 'all', label: text.tabAll },
  { id: 'recent', label: text.tabRecent },
  { id: 'favorites', label: text.tabFavorites },
];

export function ContextSelectionPanel(props: ContextSelectionPanelProps) {
  const session = useSnapshot(sessionStore);
  const fallback = useQuery({ ...userQueries.policy(), enabled: session.policy === null });
  const policy = (session.policy ?? fallback.data ?? null) as AuthorizationPolicy | null;
  if (!policy) {
    return (
      <PanelFrame {...props} closable={Boolean(props.onClose)} footer={null}>
        <Skeleton lines={6} label={text.loading} />
      </PanelFrame>
    );
  }
  return <ContextSelectionBody {...props} policy={policy} key={session.userInfo?.sub ?? 'user'} />;
}

type FrameProps = ContextSelectionPanelProps & {
  closable: boolean;
  footer: ReactNode;
  children: ReactNode;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  initialFocus?: RefObject<HTMLElement | null>;
};

function PanelFrame({ mode, onClose, closable, footer, children, onKeyDown, initialFocus }: FrameProps) {
  const titleId = useId();
  if (mode === 'dialog') {
    return (
      <DeferredModal
        open
        title={text.panelTitle}
        size="xl"
        onClose={() => onClose?.()}
        closeOnEscape={closable}
        closeOnOutsideClick={closable}
        showCloseButton={closable}
        footer={footer}
        className="context-dialog"
        {...(initialFocus ? { initialFocus } : {})}
      >
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the panel's keys (Escape, the tabs' shortcuts) are heard from whichever of its controls has the focus */}
        <div className="context-panel" onKeyDown={onKeyDown}>
          {children}
        </div>
      </DeferredModal>
    );
  }
  return (
    <section className="context-panel context-page" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <h1 id={titleId} className="context-page-title">
        {text.panelTitle}
      </h1>
      {children}
      {footer}
    </section>
  );
}

type BodyProps = ContextSelectionPanelProps & { policy: AuthorizationPolicy };

type ListName = 'businesses' | 'merchants' | 'search' | 'recent' | 'favorites';

function ContextSelectionBody({ mode, preferredRoute, onClose, policy }: BodyProps) {
  const { data, navigate } = useContextPanelServices();
  const queryClient = useQueryClient();
  const applied = useSnapshot(contextStore).applied;
  const alreadyApplied = hasSelectedContext(applied as typeof contextStore.applied);
  // A dialog closes; the page can be left only when a context is already applied (else the guard sends the user back).
  const close = mode === 'dialog' ? onClose : alreadyApplied ? (onClose ?? (() => navigate(preferredRoute, { replace: true }))) : undefined;
  const { state, dispatch } = useContextFlow({ policy, preferredRoute, onClose: mode === 'dialog' ? onClose : undefined });

  const items = (key: ContextItemKey) => ({
    queryKey: contextItemsKey(key),
    queryFn: () => data.readItems(key),
    staleTime: 5 * 60_000,
    select: (value: unknown) => parseContextItems(value),
  });
  const favorites = useQuery(items(favoritesSettingKey));
  const recent = useQuery(items(recentSettingKey));
  const favoriteList = favorites.data ?? [];

  const favoriteMutation = useMutation({
    mutationFn: (next: ContextItem[]) => data.writeItems(favoritesSettingKey, next),
    onMutate: async (next: ContextItem[]) => {
      await queryClient.cancelQueries({ queryKey: contextItemsKey(favoritesSettingKey) });
      const previous = queryClient.getQueryData(contextItemsKey(favoritesSettingKey));
      queryClient.setQueryData(contextItemsKey(favoritesSettingKey), next);
      return { previous };
    },
    onError: (_error, _next, context) => queryClient.setQueryData(contextItemsKey(favoritesSettingKey), context?.previous),
  });
  const toggle = (item: ContextItem) => favoriteMutation.mutate(toggleFavorite(favoriteList, item));

  // Keyboard cursor per list, and the list to focus once it is on screen.
  const [cursors, setCursors] = useState<Partial<Record<ListName, number>>>({});
  const listRefs = useRef<Partial<Record<ListName, HTMLElement | null>>>({});
  const pendingFocus = useRef<ListName | null>(null);
  const searchInput = useRef<HTMLInputElement | null>(null);
  const setCursor = (list: ListName, index: number) => setCursors((previous) => ({ ...previous, [list]: index }));

  useEffect(() => {
    const wanted = pendingFocus.current;
    const element = wanted ? listRefs.current[wanted] : null;
    if (element) {
      element.focus();
      pendingFocus.current = null;
    }
  });
  const statusOnly = mode === 'page' && awaitingForcedPath(state);
  useEffect(() => {
    if (mode === 'page' && !statusOnly) searchInput.current?.focus();
  }, [mode, statusOnly]);

  const apply = () => dispatch({ type: 'applyRequested' });
  const onPanelKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const inField = target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable;
    if (panelKeyAction(event, inField) === 'apply') {
      event.preventDefault();
      apply();
    }
  };

  const focusFirstList = () => {
    const list: ListName = state.tab !== 'all' ? state.tab : searchActive(state) ? 'search' : (activeColumn(state)?.kind ?? 'businesses');
    listRefs.current[list]?.focus();
  };

  const tabIndex = tabs.findIndex((tab) => tab.id === state.tab);
  const listProps = { cursors, setCursor, listRefs, onApply: apply };

  const allTab = (
    <div className="context-all">
      <div className="context-toolbar">
        <SearchBox state={state} dispatch={dispatch} inputRef={searchInput} onArrowDown={focusFirstList} />
        {hasRoles(policy) ? (
          <label className="context-live-only">
            <input type="checkbox" checked={state.liveOnly} onChange={(event) => dispatch({ type: 'liveOnlyChanged', liveOnly: event.target.checked })} />
            {text.liveOnly}
          </label>
        ) : null}
      </div>
      {searchActive(state) ? (
        <SearchResults state={state} dispatch={dispatch} favorites={favoriteList} onToggleFavorite={toggle} {...listProps} />
      ) : (
        <div className="context-tree">
          {state.columns.map((column, index) => (
            <DecisionColumn
              key={column.kind}
              column={column}
              isLater={index > 0}
              state={state}
              dispatch={dispatch}
              favorites={favoriteList}
              onToggleFavorite={toggle}
              onDeeper={(list) => {
                pendingFocus.current = list;
              }}
              {...listProps}
            />
          ))}
        </div>
      )}
    </div>
  );

  const savedTab = (list: 'recent' | 'favorites') => {
    const query = list === 'recent' ? recent : favorites;
    const entries = query.data ?? [];
    if (query.isPending) return <Skeleton lines={4} label={text.loading} />;
    return (
      <OptionList
        name={list}
        label={list === 'recent' ? text.tabRecent : text.tabFavorites}
        options={entries.map((item) => ({
          key: `${item.businessId}/${item.merchantId ?? ''}`,
          label: contextItemLabel(item.businessName ?? item.businessId, item.merchantName ?? item.merchantId),
          detail: item.merchantId ? `${item.businessId} › ${item.merchantId}` : item.businessId,
          selected: state.selections.business?.id === item.businessId && (state.selections.merchant?.id ?? undefined) === item.merchantId,
          favorite: isFavorite(favoriteList, item),
        }))}
        emptyText={list === 'recent' ? text.noRecent : text.noFavorites}
        onActivate={(index, alreadySelected) => {
          const item = entries[index];
          if (!item) return;
          if (alreadySelected) apply();
          else dispatch({ type: 'itemPicked', item });
        }}
        onFavorite={(index) => {
          const item = entries[index];
          if (item) toggle(item);
        }}
        {...listProps}
      />
    );
  };

  if (statusOnly) {
    return (
      <p role="status" className="context-apply-status">
        {text.loading}
      </p>
    );
  }

  const footer = (
    <form
      className="context-footer"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        apply();
      }}
    >
      <SelectionSummary state={state} />
      {state.error ? (
        <p role="alert" className="context-error">
          {state.error}
        </p>
      ) : null}
      <div className="context-footer-actions">
        {close ? (
          <button type="button" className="button-link context-cancel" onClick={close}>
            {text.cancel}
          </button>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          disabled={!canApply(state)}
          aria-keyshortcuts="Control+Enter"
          aria-busy={state.apply !== 'idle' && state.apply !== 'done'}
        >
          {state.apply === 'lookingUp' || state.apply === 'loadingConfigurations' ? text.applying : text.apply}
        </button>
      </div>
    </form>
  );

  return (
    <PanelFrame
      mode={mode}
      preferredRoute={preferredRoute}
      closable={Boolean(close)}
      footer={footer}
      onKeyDown={onPanelKeyDown}
      initialFocus={searchInput}
      {...(close ? { onClose: close } : {})}
    >
      <Tabs
        label={text.panelTitle}
        tabs={tabs}
        contents={[allTab, savedTab('recent'), savedTab('favorites')]}
        activeIndex={tabIndex}
        onActiveIndexChange={(index) => dispatch({ type: 'tabChanged', tab: tabs[index]?.id ?? 'all' })}
      />
      <p className="context-hint">{text.keyboardHint}</p>
    </PanelFrame>
  );
}

function SelectionSummary({ state }: { state: FlowState }) {
  const { partner, business, merchant } = state.selections;
  const parts = [partner?.id ? partner.title : null, business?.id ? business.title : null, merchant?.id ? merchant.title : null].filter(Boolean);
  return (
    <p className="context-summary" aria-live="polite">
      {parts.join(' › ')}
    </p>
  );
}

type SearchBoxProps = { state: FlowState; dispatch: (event: FlowEvent) => void; inputRef: RefObject<HTMLInputElement | null>; onArrowDown: () => void };

function SearchBox({ state, dispatch, inputRef, onArrowDown }: SearchBoxProps) {
  const inputId = useId();
  return (
    <form
      role="search"
      className="context-search"
      onSubmit={(event) => {
        event.preventDefault();
        dispatch({ type: 'searchSubmitted' });
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {text.searchLabel}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="search"
        className="input context-search-input"
        placeholder={text.searchPlaceholder}
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        value={state.search.input}
        onChange={(event) => dispatch({ type: 'searchInputChanged', input: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            onArrowDown();
          }
        }}
      />
      <button type="submit" className="button context-search-button">
        {text.searchButton}
      </button>
    </form>
  );
}

type ListSharedProps = {
  cursors: Partial<Record<ListName, number>>;
  setCursor: (list: ListName, index: number) => void;
  listRefs: RefObject<Partial<Record<ListName, HTMLElement | null>>>;
  onApply: () => void;
};

type ColumnProps = ListSharedProps & {
  column: Column;
  isLater: boolean;
  state: FlowState;
  dispatch: (event: FlowEvent) => void;
  favorites: readonly ContextItem[];
  onToggleFavorite: (item: ContextItem) => void;
  onDeeper: (list: ListName) => void;
};

function DecisionColumn({ column, isLater, state, dispatch, favorites, onToggleFavorite, onDeeper, ...shared }: ColumnProps) {
  const headerId = useId();
  const isBusinesses = column.kind === 'businesses';
  const continueWithout = column.kind === 'businesses' && column.continueWithout;
  const leading = continueWithout ? 1 : 0;
  const itemOf = (index: number): ContextItem | null => {
    if (column.kind === 'businesses') {
      const business = column.items[index - leading];
      return business ? { businessId: business.businessId, businessName: business.businessName } : null;
    }
    const merchant = column.items[index];
    return merchant
      ? { businessId: merchant.businessId, businessName: column.businessName, merchantId: merchant.merchantId, merchantName: merchant.merchantName }
      : null;
  };
  const selectedBusiness = state.selections.business;
  const options = [
    ...(continueWithout
      ? [{ key: '__none', label: text.continueWithoutBusiness, detail: '', selected: selectedBusiness?.id === null, favorite: undefined }]
      : []),
    ...(column.kind === 'businesses'
      ? column.items.map((business) => ({
          key: business.businessId,
          label: business.businessName,
          detail: business.businessId,
          notLive: business.live === false,
          selected: selectedBusiness?.id === business.businessId,
          favorite: isFavorite(favorites, { businessId: business.businessId }),
        }))
      : column.items.map((merchant) => ({
          key: merchant.merchantId,
          label: merchant.merchantName,
          detail: merchant.merchantId,
          notLive: merchant.live === false,
          selected: state.selections.merchant?.id === merchant.merchantId,
          favorite: isFavorite(favorites, { businessId: merchant.businessId, merchantId: merchant.merchantId }),
        }))),
  ];
  const pages = Math.max(1, Math.ceil(column.totalCount / contextPageSize));
  const onPage = (pageNumber: number) => dispatch({ type: 'pageChanged', column: column.kind, pageNumber });
  const back =
    isLater && canGoBack(state)
      ? () => {
          onDeeper('businesses');
          dispatch({ type: 'back' });
        }
      : undefined;

  return (
    <div className={`context-column context-column-${column.kind}`} role="group" aria-labelledby={headerId}>
      <div className="context-column-header">
        {back ? (
          <button type="button" className="icon-button context-back" aria-label={text.back} onClick={back}>
            <BackIcon />
          </button>
        ) : null}
        <h2 id={headerId} className="context-column-title">
          {isBusinesses ? text.businesses : text.merchants}
          {column.kind === 'merchants' ? <span className="context-column-subtitle">{column.businessName}</span> : null}
        </h2>
      </div>
      {column.status === 'loading' ? <Skeleton lines={5} label={text.loading} /> : null}
      {column.status === 'error' ? (
        <div className="context-failed" role="alert">
          <p>{text.loadFailed}</p>
          <button type="button" className="button" onClick={() => dispatch({ type: 'retried', column: column.kind })}>
            {text.retry}
          </button>
        </div>
      ) : null}
      {column.status === 'ready' ? (
        <OptionList
          name={column.kind}
          labelledBy={headerId}
          options={options}
          emptyText={isBusinesses ? text.noBusinesses : text.noMerchants}
          onActivate={(index, alreadySelected, viaKeyboard) => {
            if (column.kind === 'businesses') {
              if (index < leading) {
                dispatch({ type: 'continuedWithoutBusiness' });
                return;
              }
              const business = column.items[index - leading];
              if (!business) return;
              if (viaKeyboard) onDeeper('merchants');
              // Deeper on the business already open moves focus there without reloading it.
              if (!(alreadySelected && state.columns.some((other) => other.kind === 'merchants' && other.businessId === business.businessId))) {
                dispatch({ type: 'businessPicked', business });
              }
              return;
            }
            const merchant = column.items[index];
            if (!merchant) return;
            if (alreadySelected) shared.onApply();
            else dispatch({ type: 'merchantPicked', merchant });
          }}
          onFavorite={(index) => {
            const item = itemOf(index);
            if (item) onToggleFavorite(item);
          }}
          {...(back ? { onBack: back } : {})}
          onPage={(step) => onPage(column.pageNumber + step)}
          {...shared}
        />
      ) : null}
      <CompactPagination label={isBusinesses ? text.businesses : text.merchants} pageNumber={column.pageNumber} pages={pages} onPage={onPage} />
    </div>
  );
}

type SearchResultsProps = ListSharedProps & {
  state: FlowState;
  dispatch: (event: FlowEvent) => void;
  favorites: readonly ContextItem[];
  onToggleFavorite: (item: ContextItem) => void;
};

function SearchResults({ state, dispatch, favorites, onToggleFavorite, ...shared }: SearchResultsProps) {
  const headerId = useId();
  const { search } = state;
  const itemOf = (result: SearchResult): ContextItem =>
    result.merchantId
      ? {
          businessId: result.businessId,
          businessName: result.businessName,
          merchantId: result.merchantId,
          merchantName: result.merchantName ?? result.merchantId,
        }
      : { businessId: result.businessId, businessName: result.businessName };
  const pages = Math.max(1, Math.ceil(search.totalCount / contextPageSize));
  const onPage = (pageNumber: number) => dispatch({ type: 'searchPageChanged', pageNumber });
  let body: ReactNode;
  if (search.status === 'tooShort') body = <p className="context-empty">{searchTooShort(minSearchTermLength)}</p>;
  else if (search.status === 'waiting' || (search.status === 'loading' && search.results.length === 0)) body = <Skeleton lines={5} label={text.searching} />;
  else if (search.status === 'error') {
    body = (
      <div className="context-failed" role="alert">
        <p>{text.loadFailed}</p>
        <button type="button" className="button" onClick={() => dispatch({ type: 'retried', column: 'search' })}>
          {text.retry}
        </button>
      </div>
    );
  } else {
    body = (
      <OptionList
        name="search"
        labelledBy={headerId}
        busy={search.status === 'loading'}
        options={search.results.map((result) => ({
          key: `${result.businessId}/${result.merchantId ?? ''}`,
          label: result.merchantId ? (result.merchantName ?? result.merchantId) : result.businessName,
          detail: result.merchantId ? `${result.businessName} · ${result.merchantId}` : result.businessId,
          kind: result.merchantId ? text.merchants : text.businesses,
          selected: state.selections.business?.id === result.businessId && (state.selections.merchant?.id ?? undefined) === result.merchantId,
          favorite: isFavorite(favorites, itemOf(result)),
        }))}
        emptyText={noContextFor(search.term ?? search.input.trim())}
        onActivate={(index, alreadySelected) => {
          const result = search.results[index];
          if (!result) return;
          if (alreadySelected) shared.onApply();
          else dispatch({ type: 'searchResultPicked', result });
        }}
        onFavorite={(index) => {
          const result = search.results[index];
          if (result) onToggleFavorite(itemOf(result));
        }}
        onPage={(step) => onPage(search.pageNumber + step)}
        {...shared}
      />
    );
  }
  return (
    <div className="context-column context-results" role="group" aria-labelledby={headerId}>
      <div className="context-column-header">
        <h2 id={headerId} className="context-column-title">
          {text.searchResults}
        </h2>
      </div>
      {body}
      {search.status === 'ready' || search.status === 'loading' ? (
        <CompactPagination label={text.searchResults} pageNumber={search.pageNumber} pages={pages} onPage={onPage} />
      ) : null}
    </div>
  );
}

type Option = { key: string; label: string; detail: string; selected: boolean; favorite: boolean | undefined; notLive?: boolean; kind?: string };

type OptionListProps = ListSharedProps & {
  name: ListName;
  labelledBy?: string;
  label?: string;
  options: readonly Option[];
  emptyText: string;
  busy?: boolean;
  /** alreadySelected: a second activation of the chosen option applies; viaKeyboard: focus should follow */
  onActivate: (index: number, alreadySelected: boolean, viaKeyboard: boolean) => void;
  onFavorite?: (index: number) => void;
  onBack?: () => void;
  onPage?: (step: 1 | -1) => void;
};

/** A listbox whose options are chosen with the arrows (aria-activedescendant) and activated with Enter or a click. */
function OptionList({
  name,
  labelledBy,
  label,
  options,
  emptyText,
  busy,
  onActivate,
  onFavorite,
  onBack,
  onPage,
  cursors,
  setCursor,
  listRefs,
}: OptionListProps) {
  const baseId = useId();
  if (options.length === 0) return <p className="context-empty">{emptyText}</p>;
  const selectedIndex = options.findIndex((option) => option.selected);
  const cursor = Math.min(cursors[name] ?? Math.max(selectedIndex, 0), options.length - 1);
  const optionId = (index: number) => `${baseId}-option-${index}`;

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const action = panelKeyAction(event, false);
    const move = (index: number) => setCursor(name, Math.max(0, Math.min(options.length - 1, index)));
    switch (action) {
      case 'previous':
        move(cursor - 1);
        break;
      case 'next':
        move(cursor + 1);
        break;
      case 'first':
        move(0);
        break;
      case 'last':
        move(options.length - 1);
        break;
      case 'deeper':
        onActivate(cursor, Boolean(options[cursor]?.selected), true);
        break;
      case 'back':
        if (!onBack) return;
        onBack();
        break;
      case 'toggleFavorite':
        if (!onFavorite || options[cursor]?.favorite === undefined) return;
        onFavorite(cursor);
        break;
      case 'previousPage':
        if (!onPage) return;
        setCursor(name, 0);
        onPage(-1);
        break;
      case 'nextPage':
        if (!onPage) return;
        setCursor(name, 0);
        onPage(1);
        break;
      default:
        return; // Ctrl+Enter bubbles to the panel
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <ul
      ref={(element) => {
        listRefs.current[name] = element;
      }}
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA listbox pattern on a list: the list is what it is
      role="listbox"
      tabIndex={0}
      className="context-options"
      {...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label })}
      aria-activedescendant={optionId(cursor)}
      aria-busy={busy ? true : undefined}
      onKeyDown={onKeyDown}
    >
      {options.map((option, index) => (
        // Keyboard users reach options through the listbox (arrows, Enter); the click is the mouse's way in.
        // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: the listbox holds the focus and the keys (aria-activedescendant)
        <li
          key={option.key}
          id={optionId(index)}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above
          role="option"
          aria-selected={option.selected}
          className={`context-option${index === cursor ? ' is-cursor' : ''}${option.selected ? ' is-selected' : ''}`}
          onClick={() => {
            setCursor(name, index);
            onActivate(index, option.selected, false);
          }}
        >
          <span className="context-option-text">
            <span className="context-option-label">{option.label}</span>
            {option.kind ? <span className="context-option-kind">{option.kind}</span> : null}
            {option.detail ? <span className="context-option-detail">{option.detail}</span> : null}
          </span>
          {option.notLive ? <span className="context-badge">{text.notLive}</span> : null}
          {option.favorite !== undefined ? (
            <span
              className={`context-star${option.favorite ? ' is-favorite' : ''}`}
              title={option.favorite ? text.removeFavorite : text.addFavorite}
              aria-hidden="true"
              onClick={(event) => {
                event.stopPropagation();
                setCursor(name, index);
                onFavorite?.(index);
              }}
            >
              <StarIcon />
            </span>
          ) : null}
          {option.favorite ? <span className="visually-hidden">, favourite</span> : null}
        </li>
      ))}
    </ul>
  );
}

function CompactPagination({ label, pageNumber, pages, onPage }: { label: string; pageNumber: number; pages: number; onPage: (pageNumber: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="context-pagination" aria-label={`${label}: ${pageStatus(pageNumber, pages)}`}>
      <button type="button" className="icon-button" aria-label={text.previousPage} disabled={pageNumber <= 1} onClick={() => onPage(pageNumber - 1)}>
        <ChevronIcon direction="left" />
      </button>
      <span className="context-pagination-status" aria-hidden="true">
        {pageNumber} / {pages}
      </span>
      <button type="button" className="icon-button" aria-label={text.nextPage} disabled={pageNumber >= pages} onClick={() => onPage(pageNumber + 1)}>
        <ChevronIcon direction="right" />
      </button>
    </nav>
  );
}

const svgProps = {
  width: 16,
  height: 16,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  focusable: false,
} as const;
const BackIcon = () => (
  <svg {...svgProps} aria-hidden="true">
    <path d="M19 12H5M11 6l-6 6 6 6" />
  </svg>
);
const StarIcon = () => (
  <svg {...svgProps} aria-hidden="true">
    <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
  </svg>
);
const ChevronIcon = ({ direction }: { direction: 'left' | 'right' }) => (
  <svg {...svgProps} aria-hidden="true">
    <path d={direction === 'left' ? 'M15 6l-6 6 6 6' : 'M9 6l6 6-6 6'} />
  </svg>
);
