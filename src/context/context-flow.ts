// The context selection flow as a pure state machine: reduce(state, event) → { state, effects }. Effects are
// data (load this page, search that term, apply this context); the panel runs them and feeds the answers
// back as events. Every rule of the spec's "Context selection flow" is a branch here, tested by name.
import type { ContextItem, ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import {
  allowsEmptySelection,
  businessesFromServer,
  contextItemOf,
  contextPageSize,
  hasRoles,
  isValidSelection,
  merchantsFromServer,
  policyOf,
} from './context-rules.ts';

export const searchDebounceMs = 400;
/** The server answers searches from trigram indexes, which need three characters. */
export const minSearchTermLength = 3;

export type ContextTab = 'all' | 'recent' | 'favorites';

export type BusinessOption = {
  businessId: string;
  businessName: string;
  camAutoRemittance?: boolean;
  live?: boolean;
};

export type MerchantOption = {
  businessId: string;
  merchantId: string;
  merchantName: string;
  grossSettlement?: boolean;
  currencies?: readonly string[];
  live?: boolean;
};

export type SearchResult = { businessId: string; businessName: string; merchantId?: string; merchantName?: string };

export type ConfigurationOption = {
  configurationId: string;
  tradeName: string;
  switches: { virtualTerminalMenuEnabled: boolean; [name: string]: boolean };
};

export type Page<T> = { data: readonly T[]; totalCount: number };

type ColumnBase<T> = {
  /** server: paged by the API; policy: the policy's own list, paged here */
  source: 'server' | 'policy';
  status: 'loading' | 'ready' | 'error';
  pageNumber: number;
  totalCount: number;
  items: readonly T[];
  /** the whole list when it comes from the policy */
  all: readonly T[];
  requestId: number;
};

export type BusinessColumn = ColumnBase<BusinessOption> & {
  kind: 'businesses';
  /** 'continue without business' is offered: the minimum-selections rule allows an empty business */
  continueWithout: boolean;
};

export type MerchantColumn = ColumnBase<MerchantOption> & {
  kind: 'merchants';
  businessId: string;
  businessName: string;
};

export type Column = BusinessColumn | MerchantColumn;

export type SearchState = {
  /** what the search box holds */
  input: string;
  /** the term of the results shown (or being fetched); null while inactive */
  term: string | null;
  status: 'idle' | 'waiting' | 'loading' | 'ready' | 'error' | 'tooShort';
  pageNumber: number;
  results: readonly SearchResult[];
  totalCount: number;
  requestId: number;
};

export type ApplyStage = 'idle' | 'lookingUp' | 'loadingConfigurations' | 'done';

export type FlowState = {
  policy: AuthorizationPolicy;
  preferredRoute: string;
  tab: ContextTab;
  /** the decision tree, first column first */
  columns: readonly Column[];
  selections: ContextSelections;
  liveOnly: boolean;
  search: SearchState;
  apply: ApplyStage;
  /** true from opening until the user first acts: only then may a forced path apply itself */
  autoApply: boolean;
  error: string | null;
  nextRequestId: number;
};

export type LoadQuery = { pageNumber: number; pageSize: number; liveOnly: boolean };

export type Effect =
  | { type: 'loadBusinesses'; requestId: number; query: LoadQuery }
  | { type: 'loadMerchants'; requestId: number; businessId: string; query: LoadQuery }
  | { type: 'scheduleSearch'; requestId: number; delayMs: number }
  | { type: 'search'; requestId: number; searchTerm: string; query: LoadQuery }
  | { type: 'cancelSearch' }
  | { type: 'lookUpDetails'; businessId: string; merchantId: string | null }
  | { type: 'loadConfigurations'; businessId: string; merchantId: string }
  | { type: 'addRecent'; item: ContextItem }
  | { type: 'close' }
  | { type: 'navigate'; route: string; selections: ContextSelections; replace: true };

export type BusinessDetails = { id: string; name: string; camAutoRemittance: boolean };
export type MerchantDetails = { id: string; name: string; grossSettlement: boolean; currencies: readonly string[] };

export type FlowEvent =
  | { type: 'tabChanged'; tab: ContextTab }
  | { type: 'preferredRouteChanged'; route: string }
  | { type: 'businessesLoaded'; requestId: number; page: Page<BusinessOption> }
  | { type: 'businessesFailed'; requestId: number }
  | { type: 'merchantsLoaded'; requestId: number; page: Page<MerchantOption> }
  | { type: 'merchantsFailed'; requestId: number }
  | { type: 'businessPicked'; business: BusinessOption }
  | { type: 'continuedWithoutBusiness' }
  | { type: 'merchantPicked'; merchant: MerchantOption }
  | { type: 'back' }
  | { type: 'pageChanged'; column: Column['kind']; pageNumber: number }
  | { type: 'retried'; column: Column['kind'] | 'search' }
  | { type: 'liveOnlyChanged'; liveOnly: boolean }
  | { type: 'searchInputChanged'; input: string }
  | { type: 'searchSubmitted' }
  | { type: 'searchDue'; requestId: number }
  | { type: 'searchLoaded'; requestId: number; page: Page<SearchResult> }
  | { type: 'searchFailed'; requestId: number }
  | { type: 'searchPageChanged'; pageNumber: number }
  | { type: 'searchResultPicked'; result: SearchResult }
  | { type: 'itemPicked'; item: ContextItem }
  | { type: 'applyRequested' }
  | { type: 'detailsLookedUp'; business: BusinessDetails; merchant: MerchantDetails | null }
  | { type: 'detailsFailed'; message: string }
  | { type: 'configurationsLoaded'; configurations: readonly ConfigurationOption[] }
  | { type: 'configurationsFailed' };

export type Transition = { state: FlowState; effects: Effect[] };

// ——— rules as small pure functions ———

export const isLoading = (state: FlowState) =>
  state.apply === 'lookingUp' || state.apply === 'loadingConfigurations' || state.columns.some((column) => column.status === 'loading');

/** Apply is enabled only for a valid selection while nothing is loading. */
export const canApply = (state: FlowState) => state.apply !== 'done' && !isLoading(state) && isValidSelection(state.selections, state.policy);

export const optionCount = (column: Column) => column.totalCount + (column.kind === 'businesses' && column.continueWithout ? 1 : 0);

/** The column back navigation returns to: the nearest earlier one with a real choice; -1 when there is none. */
export function backTarget(state: FlowState): number {
  for (let index = state.columns.length - 2; index >= 0; index -= 1) {
    const column = state.columns[index];
    if (column && column.status === 'ready' && optionCount(column) > 1) return index;
  }
  return -1;
}

export const canGoBack = (state: FlowState) => backTarget(state) >= 0;

/**
 * Nothing to choose yet: since opening, every list had at most one option and something is still loading or
 * applying. The page then shows a status instead of the panel, so a user with a single context never sees it.
 */
export function awaitingForcedPath(state: FlowState): boolean {
  if (!state.autoApply || state.tab !== 'all' || state.apply === 'done') return false;
  const undecided = state.columns.every((column) => column.status === 'loading' || (column.status === 'ready' && optionCount(column) <= 1));
  return undecided && (isLoading(state) || state.apply !== 'idle');
}

export const activeColumn = (state: FlowState): Column | undefined => state.columns[state.columns.length - 1];

/** The search box is active while it holds a value; the All tab then shows the flat result list. */
export const searchActive = (state: FlowState) => state.search.input.trim() !== '';

const emptySwitches = { virtualTerminalMenuEnabled: false };

// ——— the machine ———

function pageOf<T>(all: readonly T[], pageNumber: number): readonly T[] {
  return all.slice((pageNumber - 1) * contextPageSize, pageNumber * contextPageSize);
}

const query = (state: FlowState, pageNumber: number): LoadQuery => ({ pageNumber, pageSize: contextPageSize, liveOnly: state.liveOnly });

function withoutTreeSelections(selections: ContextSelections): ContextSelections {
  const next = { ...selections };
  delete next.business;
  delete next.merchant;
  delete next.configuration;
  return next;
}

const initialSearch: SearchState = { input: '', term: null, status: 'idle', pageNumber: 1, results: [], totalCount: 0, requestId: 0 };

/** Opening: a fresh state for the policy, then the decision tree opened. */
export function open(policy: AuthorizationPolicy, preferredRoute: string, options: { liveOnly?: boolean } = {}): Transition {
  const partner = policy.partnerPolicy;
  const state: FlowState = {
    policy,
    preferredRoute,
    tab: 'all',
    columns: [],
    // A partner policy also sets the partner selection.
    selections: partner ? { partner: { id: partner.partnerId, title: partner.partnerName } } : {},
    liveOnly: options.liveOnly ?? false,
    search: initialSearch,
    apply: 'idle',
    autoApply: true,
    error: null,
    nextRequestId: 1,
  };
  return openTree(state);
}

/** Opening the decision tree clears the business and merchant selections and starts at the first column. */
function openTree(previous: FlowState): Transition {
  const state: FlowState = { ...previous, columns: [], selections: withoutTreeSelections(previous.selections), apply: 'idle', error: null };
  const { policy } = state;
  if (businessesFromServer(policy)) {
    const requestId = state.nextRequestId;
    const column: BusinessColumn = {
      kind: 'businesses',
      source: 'server',
      status: 'loading',
      pageNumber: 1,
      totalCount: 0,
      items: [],
      all: [],
      requestId,
      continueWithout: allowsEmptySelection(state.selections, 'business'),
    };
    return {
      state: { ...state, columns: [column], nextRequestId: requestId + 1 },
      effects: [{ type: 'loadBusinesses', requestId, query: query(state, 1) }],
    };
  }
  const [only, ...others] = policy.businessPolicies;
  if (only && others.length === 0) {
    // A single business policy: auto-selected, straight to the merchant step.
    return openMerchants(state, { businessId: only.businessId, businessName: only.businessName });
  }
  const all = [...policy.businessPolicies]
    .sort((a, b) => a.businessName.localeCompare(b.businessName, 'en-GB'))
    .map((business): BusinessOption => ({ businessId: business.businessId, businessName: business.businessName }));
  const column: BusinessColumn = {
    kind: 'businesses',
    source: 'policy',
    status: 'ready',
    pageNumber: 1,
    totalCount: all.length,
    items: pageOf(all, 1),
    all,
    requestId: 0,
    continueWithout: allowsEmptySelection(state.selections, 'business'),
  };
  return { state: { ...state, columns: [column] }, effects: [] };
}

function businessSelection(business: BusinessOption): NonNullable<ContextSelections['business']> {
  return business.camAutoRemittance === undefined
    ? { id: business.businessId, title: business.businessName }
    : { id: business.businessId, title: business.businessName, camAutoRemittance: business.camAutoRemittance };
}

function merchantSelection(merchant: MerchantOption): NonNullable<ContextSelections['merchant']> {
  const selection: NonNullable<ContextSelections['merchant']> = { id: merchant.merchantId, title: merchant.merchantName };
  if (merchant.grossSettlement !== undefined) selection.grossSettlement = merchant.grossSettlement;
  if (merchant.currencies !== undefined) selection.currencies = [...merchant.currencies];
  return selection;
}

/** Picking a business clears the merchant and moves to the merchant column. */
function openMerchants(previous: FlowState, business: BusinessOption): Transition {
  const selections = { ...withoutTreeSelections(previous.selections), business: businessSelection(business) };
  const columns = previous.columns.filter((column) => column.kind === 'businesses');
  const state: FlowState = { ...previous, selections, columns };
  if (merchantsFromServer(state.policy, business.businessId)) {
    const requestId = state.nextRequestId;
    const column: MerchantColumn = {
      kind: 'merchants',
      source: 'server',
      status: 'loading',
      pageNumber: 1,
      totalCount: 0,
      items: [],
      all: [],
      requestId,
      businessId: business.businessId,
      businessName: business.businessName,
    };
    return {
      state: { ...state, columns: [...columns, column], nextRequestId: requestId + 1 },
      effects: [{ type: 'loadMerchants', requestId, businessId: business.businessId, query: query(state, 1) }],
    };
  }
  const all = [...(policyOf(state.policy, business.businessId)?.merchantPolicies ?? [])]
    .sort((a, b) => a.merchantName.localeCompare(b.merchantName, 'en-GB'))
    .map((merchant): MerchantOption => ({ businessId: merchant.businessId, merchantId: merchant.merchantId, merchantName: merchant.merchantName }));
  const column: MerchantColumn = {
    kind: 'merchants',
    source: 'policy',
    status: 'ready',
    pageNumber: 1,
    totalCount: all.length,
    items: pageOf(all, 1),
    all,
    requestId: 0,
    businessId: business.businessId,
    businessName: business.businessName,
  };
  return merchantsArrived({ ...state, columns: [...columns, column] });
}

/** The user made no choice on the way here: every column so far had a single option. */
function forcedPath(state: FlowState): boolean {
  return state.columns.filter((column) => column.kind === 'businesses').every((column) => optionCount(column) === 1);
}

/** A list of exactly one auto-selects; zero items set the empty selection when the minimum allows it. */
function merchantsArrived(state: FlowState): Transition {
  const column = activeColumn(state);
  if (column?.kind !== 'merchants') return { state, effects: [] };
  const [only] = column.items;
  if (column.totalCount === 1 && only) {
    const selected = { ...state, selections: { ...state.selections, merchant: merchantSelection(only) } };
    // A single merchant reached without any choice is applied at once.
    if (state.autoApply && forcedPath(state)) return startApply(selected);
    return { state: selected, effects: [] };
  }
  if (column.totalCount === 0 && allowsEmptySelection(state.selections, 'merchant')) {
    return { state: { ...state, selections: { ...state.selections, merchant: { id: null, title: '' } } }, effects: [] };
  }
  return { state, effects: [] };
}

function businessesArrived(state: FlowState): Transition {
  const column = state.columns[0];
  if (column?.kind !== 'businesses') return { state, effects: [] };
  const [only] = column.items;
  if (column.totalCount === 1 && only) return openMerchants(state, only);
  if (column.totalCount === 0 && allowsEmptySelection(state.selections, 'business')) {
    return { state: { ...state, selections: { ...withoutTreeSelections(state.selections), business: { id: null, title: '' } } }, effects: [] };
  }
  return { state, effects: [] };
}

function replaceColumn(state: FlowState, index: number, column: Column): FlowState {
  const columns = [...state.columns];
  columns[index] = column;
  return { ...state, columns };
}

function loadPage(state: FlowState, index: number, pageNumber: number): Transition {
  const column = state.columns[index];
  if (!column) return { state, effects: [] };
  const pages = Math.max(1, Math.ceil(column.totalCount / contextPageSize));
  if (pageNumber < 1 || pageNumber > pages || pageNumber === column.pageNumber) return { state, effects: [] };
  if (column.source === 'policy') {
    const paged: Column =
      column.kind === 'businesses'
        ? { ...column, pageNumber, items: pageOf(column.all, pageNumber) }
        : { ...column, pageNumber, items: pageOf(column.all, pageNumber) };
    return { state: replaceColumn(state, index, paged), effects: [] };
  }
  const requestId = state.nextRequestId;
  const next = replaceColumn({ ...state, nextRequestId: requestId + 1 }, index, { ...column, status: 'loading', pageNumber, requestId } as Column);
  return {
    state: next,
    effects: [
      column.kind === 'businesses'
        ? { type: 'loadBusinesses', requestId, query: query(state, pageNumber) }
        : { type: 'loadMerchants', requestId, businessId: column.businessId, query: query(state, pageNumber) },
    ],
  };
}

function startSearch(state: FlowState, pageNumber: number): Transition {
  const term = state.search.input.trim();
  if (term.length < minSearchTermLength) {
    return {
      state: { ...state, search: { ...state.search, term, status: 'tooShort', results: [], totalCount: 0, pageNumber: 1 } },
      effects: [{ type: 'cancelSearch' }],
    };
  }
  const requestId = state.nextRequestId;
  return {
    state: { ...state, nextRequestId: requestId + 1, search: { ...state.search, term, status: 'loading', pageNumber, requestId } },
    effects: [{ type: 'search', requestId, searchTerm: term, query: query(state, pageNumber) }],
  };
}

/** Applying: details first where a list did not give them, then the configuration of a merchant, then finish. */
function startApply(state: FlowState): Transition {
  const { business, merchant } = state.selections;
  const merchantId = merchant?.id ?? null;
  const missingDetails = (business?.id != null && business.camAutoRemittance === undefined) || (merchantId !== null && merchant?.grossSettlement === undefined);
  if (business?.id && missingDetails) {
    return { state: { ...state, apply: 'lookingUp', error: null }, effects: [{ type: 'lookUpDetails', businessId: business.id, merchantId }] };
  }
  return configurationStep({ ...state, error: null });
}

function configurationStep(state: FlowState): Transition {
  const { business, merchant } = state.selections;
  if (business?.id && merchant?.id) {
    return { state: { ...state, apply: 'loadingConfigurations' }, effects: [{ type: 'loadConfigurations', businessId: business.id, merchantId: merchant.id }] };
  }
  const selections = { ...state.selections };
  delete selections.configuration;
  return finishApply({ ...state, selections });
}

/** The context is added to the recent list, the panel closes and the route is applied. */
function finishApply(state: FlowState): Transition {
  const item = contextItemOf(state.selections);
  return {
    state: { ...state, apply: 'done', autoApply: false },
    effects: [
      ...(item ? [{ type: 'addRecent', item } as const] : []),
      { type: 'close' },
      { type: 'navigate', route: state.preferredRoute, selections: state.selections, replace: true },
    ],
  };
}

const applyAnswers = new Set<FlowEvent['type']>(['detailsLookedUp', 'detailsFailed', 'configurationsLoaded', 'configurationsFailed']);

const userActed = (state: FlowState): FlowState => (state.autoApply ? { ...state, autoApply: false } : state);

export function reduce(current: FlowState, event: FlowEvent): Transition {
  const none = (state: FlowState = current): Transition => ({ state, effects: [] });
  // Nothing changes once applied, and nothing but the apply answers while applying.
  if (current.apply === 'done') return none();
  if (current.apply !== 'idle' && !applyAnswers.has(event.type) && event.type !== 'preferredRouteChanged') return none();

  switch (event.type) {
    case 'preferredRouteChanged':
      return event.route === current.preferredRoute ? none() : none({ ...current, preferredRoute: event.route });

    case 'tabChanged': {
      if (event.tab === current.tab) return none();
      const state = userActed({ ...current, tab: event.tab });
      // Coming back to All opens the decision tree again.
      return event.tab === 'all' ? openTree(state) : none({ ...state, selections: withoutTreeSelections(state.selections) });
    }

    case 'businessesLoaded': {
      const index = current.columns.findIndex((column) => column.kind === 'businesses' && column.requestId === event.requestId);
      const column = current.columns[index];
      if (column?.kind !== 'businesses' || column.status !== 'loading') return none();
      const loaded: BusinessColumn = { ...column, status: 'ready', items: event.page.data, totalCount: event.page.totalCount };
      const state = replaceColumn(current, index, loaded);
      return column.pageNumber === 1 && current.columns.length === 1 && !current.selections.business ? businessesArrived(state) : none(state);
    }

    case 'merchantsLoaded': {
      const index = current.columns.findIndex((column) => column.kind === 'merchants' && column.requestId === event.requestId);
      const column = current.columns[index];
      if (column?.kind !== 'merchants' || column.status !== 'loading') return none();
      const state = replaceColumn(current, index, { ...column, status: 'ready', items: event.page.data, totalCount: event.page.totalCount });
      return column.pageNumber === 1 && !current.selections.merchant ? merchantsArrived(state) : none(state);
    }

    case 'businessesFailed':
    case 'merchantsFailed': {
      const index = current.columns.findIndex((column) => column.requestId === event.requestId && column.status === 'loading');
      const column = current.columns[index];
      if (!column) return none();
      return none(replaceColumn(current, index, { ...column, status: 'error' } as Column));
    }

    case 'businessPicked':
      return openMerchants(userActed(current), event.business);

    case 'continuedWithoutBusiness': {
      const column = current.columns[0];
      if (column?.kind !== 'businesses' || !column.continueWithout) return none();
      const state = userActed(current);
      return none({
        ...state,
        columns: [column],
        selections: { ...withoutTreeSelections(state.selections), business: { id: null, title: '' } },
      });
    }

    case 'merchantPicked': {
      const column = activeColumn(current);
      if (column?.kind !== 'merchants' || column.businessId !== event.merchant.businessId) return none();
      return none({ ...userActed(current), selections: { ...current.selections, merchant: merchantSelection(event.merchant) } });
    }

    case 'back': {
      const target = backTarget(current);
      if (target < 0) return none();
      const state = userActed(current);
      const left = state.columns.slice(target + 1);
      const selections = { ...state.selections };
      delete selections.configuration;
      if (left.some((column) => column.kind === 'merchants')) delete selections.merchant;
      return none({ ...state, columns: state.columns.slice(0, target + 1), selections });
    }

    case 'pageChanged': {
      const index = current.columns.findIndex((column) => column.kind === event.column);
      return loadPage(userActed(current), index, event.pageNumber);
    }

    case 'retried': {
      if (event.column === 'search') return current.search.status === 'error' ? startSearch(current, current.search.pageNumber) : none();
      const index = current.columns.findIndex((column) => column.kind === event.column);
      const column = current.columns[index];
      if (column?.status !== 'error') return none();
      const requestId = current.nextRequestId;
      const retrying = replaceColumn({ ...current, nextRequestId: requestId + 1 }, index, { ...column, status: 'loading', requestId } as Column);
      return {
        state: retrying,
        effects: [
          column.kind === 'businesses'
            ? { type: 'loadBusinesses', requestId, query: query(current, column.pageNumber) }
            : { type: 'loadMerchants', requestId, businessId: column.businessId, query: query(current, column.pageNumber) },
        ],
      };
    }

    case 'liveOnlyChanged': {
      if (!hasRoles(current.policy) || event.liveOnly === current.liveOnly) return none();
      const reopened = openTree(userActed({ ...current, liveOnly: event.liveOnly }));
      if (!searchActive(reopened.state)) return reopened;
      const searched = startSearch(reopened.state, 1);
      return { state: searched.state, effects: [...reopened.effects, ...searched.effects] };
    }

    case 'searchInputChanged': {
      const state = userActed({ ...current, search: { ...current.search, input: event.input } });
      if (event.input.trim() === '') {
        // Cleared: the search is inactive and the decision tree shows again.
        return { state: { ...state, search: { ...initialSearch } }, effects: [{ type: 'cancelSearch' }] };
      }
      const requestId = state.nextRequestId;
      return {
        state: {
          ...state,
          nextRequestId: requestId + 1,
          search: { ...state.search, status: state.search.status === 'idle' ? 'waiting' : state.search.status, requestId },
        },
        effects: [{ type: 'scheduleSearch', requestId, delayMs: searchDebounceMs }],
      };
    }

    case 'searchSubmitted':
      if (!searchActive(current)) return none();
      return startSearch(userActed(current), 1);

    case 'searchDue':
      if (event.requestId !== current.search.requestId || !searchActive(current)) return none();
      return startSearch(current, 1);

    case 'searchLoaded':
      if (event.requestId !== current.search.requestId || current.search.status !== 'loading') return none();
      return none({ ...current, search: { ...current.search, status: 'ready', results: event.page.data, totalCount: event.page.totalCount } });

    case 'searchFailed':
      if (event.requestId !== current.search.requestId || current.search.status !== 'loading') return none();
      return none({ ...current, search: { ...current.search, status: 'error', results: [], totalCount: 0 } });

    case 'searchPageChanged': {
      const pages = Math.max(1, Math.ceil(current.search.totalCount / contextPageSize));
      if (event.pageNumber < 1 || event.pageNumber > pages || event.pageNumber === current.search.pageNumber) return none();
      return startSearch(userActed(current), event.pageNumber);
    }

    case 'searchResultPicked':
    case 'itemPicked': {
      const picked = event.type === 'itemPicked' ? event.item : event.result;
      const selections: ContextSelections = {
        ...withoutTreeSelections(current.selections),
        business: { id: picked.businessId, title: picked.businessName ?? picked.businessId },
      };
      if (picked.merchantId) selections.merchant = { id: picked.merchantId, title: picked.merchantName ?? picked.merchantId };
      return none({ ...userActed(current), selections });
    }

    case 'applyRequested':
      if (!canApply(current)) return none();
      return startApply(current);

    case 'detailsLookedUp': {
      if (current.apply !== 'lookingUp') return none();
      const { business, merchant } = current.selections;
      const selections: ContextSelections = { ...current.selections };
      if (business?.id === event.business.id) {
        selections.business = { id: event.business.id, title: event.business.name, camAutoRemittance: event.business.camAutoRemittance };
      }
      if (merchant?.id && event.merchant && merchant.id === event.merchant.id) {
        selections.merchant = {
          id: event.merchant.id,
          title: event.merchant.name,
          grossSettlement: event.merchant.grossSettlement,
          currencies: [...event.merchant.currencies],
        };
      }
      return configurationStep({ ...current, selections });
    }

    case 'detailsFailed':
      if (current.apply !== 'lookingUp') return none();
      return none({ ...current, apply: 'idle', error: event.message });

    case 'configurationsLoaded':
    case 'configurationsFailed': {
      if (current.apply !== 'loadingConfigurations') return none();
      const first = event.type === 'configurationsLoaded' ? event.configurations[0] : undefined;
      // The first configuration, or the empty one on none or error.
      const configuration = first
        ? { id: first.configurationId, title: first.tradeName, switches: { ...first.switches } }
        : { id: null, title: '', switches: { ...emptySwitches } };
      return finishApply({ ...current, selections: { ...current.selections, configuration } });
    }
  }
}

/** Runs a sequence of events from a transition; the effects are all those asked for along the way. */
export function reduceAll(start: Transition, events: readonly FlowEvent[]): Transition {
  return events.reduce<Transition>((previous, event) => {
    const next = reduce(previous.state, event);
    return { state: next.state, effects: [...previous.effects, ...next.effects] };
  }, start);
}

// ——— keyboard ———

export type PanelKeyAction = 'previous' | 'next' | 'first' | 'last' | 'deeper' | 'back' | 'toggleFavorite' | 'apply' | 'previousPage' | 'nextPage';

type KeyInput = { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean };

/**
 * The panel's keys: arrows within a column, Right/Enter deeper, Left/Backspace back, F toggles the favourite,
 * Ctrl+Enter applies (from anywhere in the panel, the search box included). In a text field only Ctrl+Enter counts.
 */
export function panelKeyAction(event: KeyInput, inField: boolean): PanelKeyAction | null {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return 'apply';
  if (inField || event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case 'ArrowUp':
      return 'previous';
    case 'ArrowDown':
      return 'next';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'PageUp':
      return 'previousPage';
    case 'PageDown':
      return 'nextPage';
    case 'ArrowRight':
    case 'Enter':
      return 'deeper';
    case 'ArrowLeft':
    case 'Backspace':
      return 'back';
    case 'f':
    case 'F':
      return 'toggleFavorite';
    default:
      return null;
  }
}
