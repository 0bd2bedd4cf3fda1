// The context selection flow, one test per rule of issue 4 / spec section 4, named after the rule.
import { describe, expect, it } from 'vitest';
import type { AuthorizationPolicy } from '../../src/contract/policy.ts';
import { contextRecentLimit } from '../../src/contract/context-checks.ts';
import {
  awaitingForcedPath,
  canApply,
  canGoBack,
  open,
  panelKeyAction,
  reduce,
  reduceAll,
  searchActive,
  searchDebounceMs,
  type BusinessOption,
  type FlowEvent,
  type MerchantOption,
  type Transition,
} from '../../src/context/context-flow.ts';
import { addRecent, contextPageSize, isValidSelection, toggleFavorite } from '../../src/context/context-rules.ts';

const internal: AuthorizationPolicy = { roles: ['TechnicalAdmin'], partnerPolicy: null, businessPolicies: [] };
const partner: AuthorizationPolicy = {
  roles: [],
  partnerPolicy: { partnerId: 'P1', partnerName: 'Northwind Partners', roles: ['Owner'] },
  businessPolicies: [],
};
const soloOwner: AuthorizationPolicy = {
  roles: [],
  partnerPolicy: null,
  businessPolicies: [{ businessId: 'B1', businessName: 'Little Wren Bakery', roles: ['Owner'], merchantPolicies: [] }],
};
const singleMerchant: AuthorizationPolicy = {
  roles: [],
  partnerPolicy: null,
  businessPolicies: [
    {
      businessId: 'B5',
      businessName: 'Thistle & Rose',
      roles: [],
      merchantPolicies: [{ businessId: 'B5', merchantId: 'M5a', merchantName: 'Thistle Web', roles: ['VirtualTerminal'] }],
    },
  ],
};
const policyOnly: AuthorizationPolicy = {
  roles: [],
  partnerPolicy: null,
  businessPolicies: [
    { businessId: 'B2', businessName: 'Beta Retail', roles: ['Finance'], merchantPolicies: [] },
    {
      businessId: 'B3',
      businessName: 'Alpha Foods',
      roles: [],
      merchantPolicies: [
        { businessId: 'B3', merchantId: 'M3b', merchantName: 'Deli', roles: ['Sales'] },
        { businessId: 'B3', merchantId: 'M3a', merchantName: 'Bakery', roles: ['Sales'] },
      ],
    },
  ],
};

const business = (id: string, name = `Business ${id}`): BusinessOption => ({ businessId: id, businessName: name, camAutoRemittance: true, live: true });
const merchant = (businessId: string, id: string, name = `Merchant ${id}`): MerchantOption => ({
  businessId,
  merchantId: id,
  merchantName: name,
  grossSettlement: false,
  currencies: ['GBP'],
  live: true,
});
const page = <T>(data: T[], totalCount = data.length) => ({ data, totalCount });

function requestIdOf(transition: Transition, type: 'loadBusinesses' | 'loadMerchants' | 'search' | 'scheduleSearch'): number {
  const effect = [...transition.effects].reverse().find((candidate) => candidate.type === type);
  if (!effect || !('requestId' in effect)) throw new Error(`no ${type} effect in ${JSON.stringify(transition.effects)}`);
  return effect.requestId;
}

const step = (transition: Transition, event: FlowEvent) => reduce(transition.state, event);

/** An internal user with two businesses loaded, B1 picked, its two merchants loaded. */
function internalWithMerchants(): Transition {
  const opened = open(internal, '/transactions');
  const loaded = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B1'), business('B2')]) });
  const picked = step(loaded, { type: 'businessPicked', business: business('B1') });
  return step(picked, { type: 'merchantsLoaded', requestId: requestIdOf(picked, 'loadMerchants'), page: page([merchant('B1', 'M1'), merchant('B1', 'M2')]) });
}

describe('context selection flow rules', () => {
  it('opening the decision tree clears the business and merchant selections', () => {
    const chosen = step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') });
    expect(chosen.state.selections.merchant?.id).toBe('M1');
    const recent = step(chosen, { type: 'tabChanged', tab: 'recent' });
    const reopened = step(recent, { type: 'tabChanged', tab: 'all' });
    expect(reopened.state.selections.business).toBeUndefined();
    expect(reopened.state.selections.merchant).toBeUndefined();
    expect(reopened.state.columns).toHaveLength(1);
    expect(reopened.effects).toEqual([expect.objectContaining({ type: 'loadBusinesses' })]);
    expect(open(internal, '/dashboard').state.selections).toEqual({});
  });

  it('roles or a partner policy load businesses from the server', () => {
    for (const policy of [internal, partner]) {
      const { state, effects } = open(policy, '/dashboard');
      expect(effects).toEqual([
        { type: 'loadBusinesses', requestId: expect.any(Number), query: { pageNumber: 1, pageSize: contextPageSize, liveOnly: false } },
      ]);
      expect(state.columns[0]).toMatchObject({ kind: 'businesses', source: 'server', status: 'loading' });
    }
    const { state, effects } = open(policyOnly, '/dashboard');
    expect(effects).toEqual([]);
    expect(state.columns[0]).toMatchObject({ kind: 'businesses', source: 'policy', totalCount: 2 });
    expect(state.columns[0]?.items.map((item) => (item as BusinessOption).businessName)).toEqual(['Alpha Foods', 'Beta Retail']);
  });

  it('a partner policy also sets the partner selection', () => {
    expect(open(partner, '/dashboard').state.selections).toEqual({ partner: { id: 'P1', title: 'Northwind Partners' } });
    expect(open(internal, '/dashboard').state.selections.partner).toBeUndefined();
  });

  it('a single business policy auto-selects the business and opens the merchant step', () => {
    const { state } = open(soloOwner, '/dashboard');
    expect(state.selections.business).toEqual({ id: 'B1', title: 'Little Wren Bakery' });
    expect(state.columns.map((column) => column.kind)).toEqual(['merchants']);
  });

  it('merchants come from the server with business roles, otherwise from the policy', () => {
    const withRoles = open(soloOwner, '/dashboard');
    expect(withRoles.effects).toEqual([
      { type: 'loadMerchants', requestId: expect.any(Number), businessId: 'B1', query: { pageNumber: 1, pageSize: 10, liveOnly: false } },
    ]);
    const opened = open(policyOnly, '/dashboard');
    const withoutRoles = step(opened, { type: 'businessPicked', business: { businessId: 'B3', businessName: 'Alpha Foods' } });
    expect(withoutRoles.effects).toEqual([]);
    expect(withoutRoles.state.columns[1]).toMatchObject({ kind: 'merchants', source: 'policy', totalCount: 2 });
    expect(withoutRoles.state.columns[1]?.items.map((item) => (item as MerchantOption).merchantName)).toEqual(['Bakery', 'Deli']);
    const roleBusiness = step(opened, { type: 'businessPicked', business: { businessId: 'B2', businessName: 'Beta Retail' } });
    expect(roleBusiness.effects).toEqual([expect.objectContaining({ type: 'loadMerchants', businessId: 'B2' })]);
  });

  it('a single merchant is auto-selected and auto-applied', () => {
    // From the policy: no call needed to know there is one merchant.
    const fromPolicy = open(singleMerchant, '/transactions');
    expect(fromPolicy.state.selections.merchant).toEqual({ id: 'M5a', title: 'Thistle Web' });
    expect(fromPolicy.state.apply).toBe('lookingUp');
    expect(fromPolicy.effects).toEqual([{ type: 'lookUpDetails', businessId: 'B5', merchantId: 'M5a' }]);
    // From the server, for an owner of one business with one merchant.
    const opened = open(soloOwner, '/dashboard');
    const loaded = step(opened, { type: 'merchantsLoaded', requestId: requestIdOf(opened, 'loadMerchants'), page: page([merchant('B1', 'M1', 'Wren Web')]) });
    expect(loaded.state.selections.merchant).toMatchObject({ id: 'M1', title: 'Wren Web' });
    expect(loaded.effects).toEqual([{ type: 'lookUpDetails', businessId: 'B1', merchantId: 'M1' }]);
  });

  it('a forced path shows no choice while it resolves', () => {
    const opened = open(soloOwner, '/dashboard');
    expect(awaitingForcedPath(opened.state)).toBe(true);
    const applying = step(opened, { type: 'merchantsLoaded', requestId: requestIdOf(opened, 'loadMerchants'), page: page([merchant('B1', 'M1')]) });
    expect(awaitingForcedPath(applying.state)).toBe(true);
    const choice = step(opened, {
      type: 'merchantsLoaded',
      requestId: requestIdOf(opened, 'loadMerchants'),
      page: page([merchant('B1', 'M1'), merchant('B1', 'M2')]),
    });
    expect(awaitingForcedPath(choice.state)).toBe(false);
    const internalOpened = open(internal, '/dashboard');
    expect(awaitingForcedPath(internalOpened.state)).toBe(true);
    const many = step(internalOpened, {
      type: 'businessesLoaded',
      requestId: requestIdOf(internalOpened, 'loadBusinesses'),
      page: page([business('B1'), business('B2')]),
    });
    expect(awaitingForcedPath(many.state)).toBe(false);
    expect(awaitingForcedPath(open(policyOnly, '/dashboard').state)).toBe(false);
  });

  it('a list of exactly one item auto-selects it', () => {
    const opened = open(internal, '/dashboard');
    const oneBusiness = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B9')]) });
    expect(oneBusiness.state.selections.business).toEqual({ id: 'B9', title: 'Business B9', camAutoRemittance: true });
    expect(oneBusiness.effects).toEqual([expect.objectContaining({ type: 'loadMerchants', businessId: 'B9' })]);
    // After the user chose a business among several, one merchant is selected but not applied.
    const two = reduceAll(open(internal, '/dashboard'), []);
    const loaded = step(two, { type: 'businessesLoaded', requestId: requestIdOf(two, 'loadBusinesses'), page: page([business('B1'), business('B2')]) });
    const picked = step(loaded, { type: 'businessPicked', business: business('B2') });
    const oneMerchant = step(picked, { type: 'merchantsLoaded', requestId: requestIdOf(picked, 'loadMerchants'), page: page([merchant('B2', 'M9')]) });
    expect(oneMerchant.state.selections.merchant?.id).toBe('M9');
    expect(oneMerchant.state.apply).toBe('idle');
    expect(oneMerchant.effects).toEqual([]);
  });

  it('zero items set an empty selection where the minimum-selections rule allows it', () => {
    // No merchants under a chosen business: the business alone meets the minimum, so merchant is the empty one.
    const opened = open(soloOwner, '/dashboard');
    const none = step(opened, { type: 'merchantsLoaded', requestId: requestIdOf(opened, 'loadMerchants'), page: page([]) });
    expect(none.state.selections.merchant).toEqual({ id: null, title: '' });
    expect(canApply(none.state)).toBe(true);
    // No businesses for a partner: the partner meets the minimum, so business is the empty one.
    const partnerOpened = open(partner, '/dashboard');
    const noBusiness = step(partnerOpened, { type: 'businessesLoaded', requestId: requestIdOf(partnerOpened, 'loadBusinesses'), page: page([]) });
    expect(noBusiness.state.selections.business).toEqual({ id: null, title: '' });
    // No businesses for an internal user: nothing else is selected, so no empty selection is set.
    const internalOpened = open(internal, '/dashboard');
    const nothing = step(internalOpened, { type: 'businessesLoaded', requestId: requestIdOf(internalOpened, 'loadBusinesses'), page: page([]) });
    expect(nothing.state.selections.business).toBeUndefined();
    expect(canApply(nothing.state)).toBe(false);
  });

  it('picking a business clears the merchant and moves to the merchant column', () => {
    const chosen = step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') });
    const other = step(chosen, { type: 'businessPicked', business: business('B2') });
    expect(other.state.selections.business?.id).toBe('B2');
    expect(other.state.selections.merchant).toBeUndefined();
    expect(other.state.columns.map((column) => column.kind)).toEqual(['businesses', 'merchants']);
    expect(other.state.columns[1]).toMatchObject({ businessId: 'B2', status: 'loading' });
  });

  it("picking 'continue without business' also clears the merchant", () => {
    const opened = open(partner, '/dashboard');
    const loaded = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B1'), business('B2')]) });
    expect(loaded.state.columns[0]).toMatchObject({ continueWithout: true });
    const picked = step(loaded, { type: 'businessPicked', business: business('B1') });
    const withMerchant = step(picked, {
      type: 'merchantsLoaded',
      requestId: requestIdOf(picked, 'loadMerchants'),
      page: page([merchant('B1', 'M1'), merchant('B1', 'M2')]),
    });
    const chosen = step(withMerchant, { type: 'merchantPicked', merchant: merchant('B1', 'M2') });
    const without = step(chosen, { type: 'continuedWithoutBusiness' });
    expect(without.state.selections).toEqual({ partner: { id: 'P1', title: 'Northwind Partners' }, business: { id: null, title: '' } });
    expect(without.state.columns.map((column) => column.kind)).toEqual(['businesses']);
    expect(canApply(without.state)).toBe(true);
    // Without a partner the empty business would leave no selection: the option is not offered.
    const internalOpened = open(internal, '/dashboard');
    expect(internalOpened.state.columns[0]).toMatchObject({ continueWithout: false });
    expect(step(internalOpened, { type: 'continuedWithoutBusiness' }).state).toBe(internalOpened.state);
  });

  it('back navigation clears the selections of the columns it leaves and skips columns with a single option', () => {
    const chosen = step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') });
    expect(canGoBack(chosen.state)).toBe(true);
    const back = step(chosen, { type: 'back' });
    expect(back.state.columns.map((column) => column.kind)).toEqual(['businesses']);
    expect(back.state.selections.merchant).toBeUndefined();
    expect(back.state.selections.business?.id).toBe('B1');
    // A business column with a single business is skipped: there is nowhere to go back to.
    const opened = open(internal, '/dashboard');
    const single = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B9')]) });
    expect(canGoBack(single.state)).toBe(false);
    expect(step(single, { type: 'back' }).state).toBe(single.state);
    // And a single business policy has no business column at all.
    expect(canGoBack(open(soloOwner, '/dashboard').state)).toBe(false);
  });

  it('applying with a merchant fetches the configurations and selects the first', () => {
    const chosen = step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') });
    const applying = step(chosen, { type: 'applyRequested' });
    expect(applying.effects).toEqual([{ type: 'loadConfigurations', businessId: 'B1', merchantId: 'M1' }]);
    expect(canApply(applying.state)).toBe(false);
    const done = step(applying, {
      type: 'configurationsLoaded',
      configurations: [
        { configurationId: 'C1', tradeName: 'Web checkout', switches: { virtualTerminalMenuEnabled: false } },
        { configurationId: 'C2', tradeName: 'Phone', switches: { virtualTerminalMenuEnabled: true } },
      ],
    });
    expect(done.state.selections.configuration).toEqual({ id: 'C1', title: 'Web checkout', switches: { virtualTerminalMenuEnabled: false } });
  });

  it('applying selects the empty configuration when there is none or the list fails', () => {
    const applying = step(step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') }), { type: 'applyRequested' });
    const empty = { id: null, title: '', switches: { virtualTerminalMenuEnabled: false } };
    expect(step(applying, { type: 'configurationsLoaded', configurations: [] }).state.selections.configuration).toEqual(empty);
    expect(step(applying, { type: 'configurationsFailed' }).state.selections.configuration).toEqual(empty);
  });

  it('applying adds the context to the recent list, closes the panel and replace-navigates to the route', () => {
    const applying = step(step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') }), { type: 'applyRequested' });
    const done = step(applying, { type: 'configurationsFailed' });
    expect(done.effects).toEqual([
      { type: 'addRecent', item: { businessId: 'B1', businessName: 'Business B1', merchantId: 'M1', merchantName: 'Merchant M1' } },
      { type: 'close' },
      { type: 'navigate', route: '/transactions', selections: done.state.selections, replace: true },
    ]);
    expect(done.state.apply).toBe('done');
    // Without a merchant there is no configuration to fetch.
    const businessOnly = step(step(internalWithMerchants(), { type: 'back' }), { type: 'applyRequested' });
    expect(businessOnly.effects.map((effect) => effect.type)).toEqual(['addRecent', 'close', 'navigate']);
  });

  it('applying looks up the details a list did not give (policy, search, recent and favourites)', () => {
    const opened = open(policyOnly, '/dashboard');
    const picked = step(opened, { type: 'itemPicked', item: { businessId: 'B2', businessName: 'Beta Retail', merchantId: 'M2', merchantName: 'Beta Web' } });
    const applying = step(picked, { type: 'applyRequested' });
    expect(applying.effects).toEqual([{ type: 'lookUpDetails', businessId: 'B2', merchantId: 'M2' }]);
    const looked = step(applying, {
      type: 'detailsLookedUp',
      business: { id: 'B2', name: 'Beta Retail Ltd', camAutoRemittance: false },
      merchant: { id: 'M2', name: 'Beta Web', grossSettlement: true, currencies: ['EUR'] },
    });
    expect(looked.state.selections.business).toEqual({ id: 'B2', title: 'Beta Retail Ltd', camAutoRemittance: false });
    expect(looked.state.selections.merchant).toEqual({ id: 'M2', title: 'Beta Web', grossSettlement: true, currencies: ['EUR'] });
    expect(looked.effects).toEqual([{ type: 'loadConfigurations', businessId: 'B2', merchantId: 'M2' }]);
    const failed = step(applying, { type: 'detailsFailed', message: 'The requested record was not found.' });
    expect(failed.state).toMatchObject({ apply: 'idle', error: 'The requested record was not found.' });
  });

  it('the recent list is capped at 20, de-duplicated by business and merchant, newest first', () => {
    const items = Array.from({ length: 25 }, (_, index) => ({ businessId: `B${index}` }));
    const added = addRecent(items, { businessId: 'B7' }, contextRecentLimit);
    expect(added).toHaveLength(20);
    expect(added[0]).toEqual({ businessId: 'B7' });
    expect(added.filter((item) => item.businessId === 'B7')).toHaveLength(1);
    const withMerchant = addRecent(
      [{ businessId: 'B1' }, { businessId: 'B1', merchantId: 'M1' }],
      { businessId: 'B1', merchantId: 'M1', merchantName: 'new' },
      20,
    );
    expect(withMerchant).toEqual([{ businessId: 'B1', merchantId: 'M1', merchantName: 'new' }, { businessId: 'B1' }]);
  });

  it('favourites toggle per business or merchant', () => {
    const once = toggleFavorite([], { businessId: 'B1', merchantId: 'M1' });
    const twice = toggleFavorite(once, { businessId: 'B1' });
    expect(twice).toEqual([{ businessId: 'B1', merchantId: 'M1' }, { businessId: 'B1' }]);
    expect(toggleFavorite(twice, { businessId: 'B1', merchantId: 'M1' })).toEqual([{ businessId: 'B1' }]);
  });

  it('validation needs at least 1 selection and every selection to have a defined id', () => {
    expect(isValidSelection({})).toBe(false);
    expect(isValidSelection({ business: { id: null, title: '' } })).toBe(false);
    expect(isValidSelection({ business: { id: 'B1', title: 'B' } })).toBe(true);
    expect(isValidSelection({ business: { id: 'B1', title: 'B' }, merchant: { id: null, title: '' } })).toBe(true);
    expect(isValidSelection({ business: { id: 'B1', title: 'B' }, merchant: { title: 'no id' } as never })).toBe(false);
    expect(isValidSelection({ partner: { id: 'P1', title: 'P' }, business: { id: null, title: '' } })).toBe(true);
    // A business reached only through merchant policies grants nothing by itself: it needs a merchant.
    expect(isValidSelection({ business: { id: 'B3', title: 'Alpha Foods' } }, policyOnly)).toBe(false);
    expect(isValidSelection({ business: { id: 'B3', title: 'Alpha Foods' }, merchant: { id: 'M3a', title: 'Bakery' } }, policyOnly)).toBe(true);
    expect(isValidSelection({ business: { id: 'B2', title: 'Beta Retail' } }, policyOnly)).toBe(true);
  });

  it('Apply is disabled while the selection is invalid or loading', () => {
    const opened = open(internal, '/dashboard');
    expect(canApply(opened.state)).toBe(false);
    const loaded = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B1'), business('B2')]) });
    expect(canApply(loaded.state)).toBe(false);
    const picked = step(loaded, { type: 'businessPicked', business: business('B1') });
    expect(picked.state.selections.business?.id).toBe('B1');
    expect(canApply(picked.state)).toBe(false); // merchants loading
    const merchants = step(picked, {
      type: 'merchantsLoaded',
      requestId: requestIdOf(picked, 'loadMerchants'),
      page: page([merchant('B1', 'M1'), merchant('B1', 'M2')]),
    });
    expect(canApply(merchants.state)).toBe(true);
    expect(step(merchants, { type: 'applyRequested' }).effects.map((effect) => effect.type)).toEqual(['addRecent', 'close', 'navigate']);
    expect(step(opened, { type: 'applyRequested' }).effects).toEqual([]);
  });

  it('search becomes active when the filter has a value and inactive when cleared', () => {
    const loaded = internalWithMerchants();
    const typed = step(loaded, { type: 'searchInputChanged', input: 'alp' });
    expect(searchActive(typed.state)).toBe(true);
    const cleared = step(typed, { type: 'searchInputChanged', input: '  ' });
    expect(searchActive(cleared.state)).toBe(false);
    expect(cleared.effects).toEqual([{ type: 'cancelSearch' }]);
    expect(cleared.state.search).toMatchObject({ term: null, results: [], status: 'idle' });
    expect(cleared.state.columns).toBe(loaded.state.columns);
  });

  it('search is triggered 400 ms after typing', () => {
    const typed = step(internalWithMerchants(), { type: 'searchInputChanged', input: 'alpha' });
    expect(typed.effects).toEqual([{ type: 'scheduleSearch', requestId: expect.any(Number), delayMs: searchDebounceMs }]);
    expect(searchDebounceMs).toBe(400);
    const due = step(typed, { type: 'searchDue', requestId: requestIdOf(typed, 'scheduleSearch') });
    expect(due.effects).toEqual([
      { type: 'search', requestId: expect.any(Number), searchTerm: 'alpha', query: { pageNumber: 1, pageSize: 10, liveOnly: false } },
    ]);
    // A timer of an earlier keystroke no longer counts.
    const more = step(typed, { type: 'searchInputChanged', input: 'alphab' });
    expect(step(more, { type: 'searchDue', requestId: requestIdOf(typed, 'scheduleSearch') }).effects).toEqual([]);
  });

  it('search is triggered by Enter or the button at once', () => {
    const typed = step(internalWithMerchants(), { type: 'searchInputChanged', input: ' gamma ' });
    const submitted = step(typed, { type: 'searchSubmitted' });
    expect(submitted.effects).toEqual([expect.objectContaining({ type: 'search', searchTerm: 'gamma' })]);
    // The debounce timer that fires afterwards does not search again.
    expect(step(submitted, { type: 'searchDue', requestId: requestIdOf(typed, 'scheduleSearch') }).effects).toEqual([]);
  });

  it('earlier searches are cancelled: only the latest answer is shown', () => {
    const first = step(step(internalWithMerchants(), { type: 'searchInputChanged', input: 'alp' }), { type: 'searchSubmitted' });
    const second = step(step(first, { type: 'searchInputChanged', input: 'alpha' }), { type: 'searchSubmitted' });
    const stale = step(second, { type: 'searchLoaded', requestId: requestIdOf(first, 'search'), page: page([{ businessId: 'B1', businessName: 'old' }]) });
    expect(stale.state.search.results).toEqual([]);
    const fresh = step(second, { type: 'searchLoaded', requestId: requestIdOf(second, 'search'), page: page([{ businessId: 'B1', businessName: 'Alpha' }]) });
    expect(fresh.state.search).toMatchObject({ status: 'ready', term: 'alpha', results: [{ businessId: 'B1', businessName: 'Alpha' }], totalCount: 1 });
  });

  it('a search term needs 3 characters before it is sent', () => {
    const typed = step(internalWithMerchants(), { type: 'searchInputChanged', input: 'al' });
    const submitted = step(typed, { type: 'searchSubmitted' });
    expect(submitted.state.search.status).toBe('tooShort');
    expect(submitted.effects).toEqual([{ type: 'cancelSearch' }]);
  });

  it('search results are a flat list: picking one selects its business and merchant', () => {
    const picked = step(internalWithMerchants(), {
      type: 'searchResultPicked',
      result: { businessId: 'B7', businessName: 'Gamma', merchantId: 'M7', merchantName: 'Deli' },
    });
    expect(picked.state.selections).toEqual({ business: { id: 'B7', title: 'Gamma' }, merchant: { id: 'M7', title: 'Deli' } });
  });

  it('the live-only filter is for users holding at least one role and reloads the tree', () => {
    const loaded = internalWithMerchants();
    const live = step(loaded, { type: 'liveOnlyChanged', liveOnly: true });
    expect(live.state.liveOnly).toBe(true);
    expect(live.state.selections.business).toBeUndefined();
    expect(live.effects).toEqual([expect.objectContaining({ type: 'loadBusinesses', query: { pageNumber: 1, pageSize: 10, liveOnly: true } })]);
    const partnerOpened = open(partner, '/dashboard');
    expect(step(partnerOpened, { type: 'liveOnlyChanged', liveOnly: true }).state).toBe(partnerOpened.state);
  });

  it('columns page by 10, from the server or from the policy', () => {
    const opened = open(internal, '/dashboard');
    const loaded = step(opened, {
      type: 'businessesLoaded',
      requestId: requestIdOf(opened, 'loadBusinesses'),
      page: page([business('B1'), business('B2')], 23),
    });
    const second = step(loaded, { type: 'pageChanged', column: 'businesses', pageNumber: 2 });
    expect(second.effects).toEqual([expect.objectContaining({ type: 'loadBusinesses', query: { pageNumber: 2, pageSize: 10, liveOnly: false } })]);
    expect(step(loaded, { type: 'pageChanged', column: 'businesses', pageNumber: 4 }).effects).toEqual([]);
    const many: AuthorizationPolicy = {
      roles: [],
      partnerPolicy: null,
      businessPolicies: Array.from({ length: 12 }, (_, index) => ({
        businessId: `B${index + 10}`,
        businessName: `Business ${index + 10}`,
        roles: ['Owner'],
        merchantPolicies: [],
      })),
    };
    const policyOpened = open(many, '/dashboard');
    const policyPage = step(policyOpened, { type: 'pageChanged', column: 'businesses', pageNumber: 2 });
    expect(policyPage.effects).toEqual([]);
    expect(policyPage.state.columns[0]?.items).toHaveLength(2);
  });

  it('a failed list can be tried again', () => {
    const opened = open(internal, '/dashboard');
    const failed = step(opened, { type: 'businessesFailed', requestId: requestIdOf(opened, 'loadBusinesses') });
    expect(failed.state.columns[0]?.status).toBe('error');
    expect(canApply(failed.state)).toBe(false);
    const retried = step(failed, { type: 'retried', column: 'businesses' });
    expect(retried.effects).toEqual([expect.objectContaining({ type: 'loadBusinesses', query: { pageNumber: 1, pageSize: 10, liveOnly: false } })]);
    expect(retried.state.columns[0]?.status).toBe('loading');
    expect(step(retried, { type: 'retried', column: 'businesses' }).effects).toEqual([]);
  });

  it('the route applied is the latest preferred route, even one that arrives after opening', () => {
    const chosen = step(internalWithMerchants(), { type: 'preferredRouteChanged', route: '/tickets?status=Open' });
    const applying = step(step(chosen, { type: 'merchantPicked', merchant: merchant('B1', 'M1') }), { type: 'applyRequested' });
    const done = step(applying, { type: 'configurationsFailed' });
    expect(done.effects.at(-1)).toMatchObject({ type: 'navigate', route: '/tickets?status=Open' });
  });

  it('stale list answers are ignored', () => {
    const opened = open(internal, '/dashboard');
    const loaded = step(opened, { type: 'businessesLoaded', requestId: requestIdOf(opened, 'loadBusinesses'), page: page([business('B1'), business('B2')]) });
    const first = step(loaded, { type: 'businessPicked', business: business('B1') });
    const second = step(first, { type: 'businessPicked', business: business('B2') });
    const late = step(second, { type: 'merchantsLoaded', requestId: requestIdOf(first, 'loadMerchants'), page: page([merchant('B1', 'M1')]) });
    expect(late.state).toBe(second.state);
  });

  it('nothing but the apply answers counts while applying, and nothing at all once applied', () => {
    const applying = step(step(internalWithMerchants(), { type: 'merchantPicked', merchant: merchant('B1', 'M1') }), { type: 'applyRequested' });
    expect(step(applying, { type: 'businessPicked', business: business('B2') }).state).toBe(applying.state);
    const done = step(applying, { type: 'configurationsFailed' });
    expect(step(done, { type: 'applyRequested' }).effects).toEqual([]);
  });
});

describe('panel keys', () => {
  const key = (name: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
    key: name,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...modifiers,
  });
  it.each([
    ['ArrowUp', 'previous'],
    ['ArrowDown', 'next'],
    ['Home', 'first'],
    ['End', 'last'],
    ['PageUp', 'previousPage'],
    ['PageDown', 'nextPage'],
    ['ArrowRight', 'deeper'],
    ['Enter', 'deeper'],
    ['ArrowLeft', 'back'],
    ['Backspace', 'back'],
    ['f', 'toggleFavorite'],
    ['F', 'toggleFavorite'],
    ['x', null],
  ])('%s in a list → %s', (name, action) => {
    expect(panelKeyAction(key(name), false)).toBe(action);
  });
  it('Ctrl+Enter (or Cmd+Enter) applies from anywhere, the search box included', () => {
    expect(panelKeyAction(key('Enter', { ctrlKey: true }), true)).toBe('apply');
    expect(panelKeyAction(key('Enter', { metaKey: true }), false)).toBe('apply');
  });
  it('typing in a field is left alone', () => {
    for (const name of ['f', 'Backspace', 'ArrowLeft', 'Enter']) expect(panelKeyAction(key(name), true)).toBeNull();
    expect(panelKeyAction(key('f', { ctrlKey: true }), false)).toBeNull();
  });
});
