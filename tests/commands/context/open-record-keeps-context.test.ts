// Opening a record from the palette keeps the context when the context holds the record; a record outside it
// switches visibly, with 'Back to <previous context>' one key away (context.back, Shift+Z).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext, CommandServices } from '../../../commands/command.ts';
import { backToPreviousContextCommand } from '../../../commands/context/back-to-previous.ts';
import { openSearchResultCommand, recordWithinContext } from '../../../commands/record/open-search-result.ts';
import { areaCommands } from '../../../commands/area-commands.ts';
import { createAppRegistry } from '../../../src/app/app-registry.ts';
import type { ContextSelections } from '../../../src/contract/context.ts';
import type { RecordSearchResult } from '../../../src/contract/shell-responses.ts';
import { applyContext, backToPreviousContext, contextStore, contextTitle, switchContextVisibly } from '../../../src/state/context-store.ts';

const harbour: ContextSelections = { business: { id: 'B1', title: 'Harbour & Finch Homeware Ltd' } };
const harbourShop: ContextSelections = { business: { id: 'B1', title: 'Harbour & Finch Homeware Ltd' }, merchant: { id: 'M1', title: 'Harbour Shop' } };

const transaction = (merchantId: string, merchantTitle: string, businessId = 'B1'): RecordSearchResult => ({
  kind: 'transaction',
  id: 'TX1',
  title: 'Transaction TX1',
  description: 'paid',
  path: '/transactions/TX1',
  context: {
    business: { id: businessId, title: businessId === 'B1' ? 'Harbour & Finch Homeware Ltd' : 'Other Ltd' },
    merchant: { id: merchantId, title: merchantTitle },
  },
});

const now = (businessId: string | null, merchantId: string | null): CommandContext['context'] => ({
  partnerId: null,
  businessId,
  merchantId,
  configurationId: null,
  virtualTerminalMenuEnabled: null,
  camAutoRemittance: null,
  grossSettlement: null,
});

function services() {
  const ctx = (): CommandContext => ({
    signedIn: true,
    permissions: [],
    route: null,
    focusedPane: null,
    paneCount: 1,
    focusedIndex: 0,
    maxPanes: 4,
    selectionCount: 0,
    fieldFocused: false,
    controlFocused: false,
    overlayOpen: false,
    context: now(contextStore.applied.business?.id ?? null, contextStore.applied.merchant?.id ?? null),
    previousContext: contextStore.previous ? contextTitle(contextStore.previous) : null,
  });
  const state = {
    applyContext: vi.fn(applyContext),
    switchContextVisibly: vi.fn(switchContextVisibly),
    backToPreviousContext: vi.fn(backToPreviousContext),
    toast: vi.fn(),
    currentUrl: () => 'http://portal.test/transactions?panes=_,%2Ftransactions%2FTX1',
  };
  const navigate = vi.fn(async () => true);
  return { services: { context: ctx, navigate, state } as unknown as CommandServices, state, navigate, ctx };
}

describe('recordWithinContext', () => {
  it.each([
    ['the business context holds its merchants’ records', now('B1', null), transaction('M2', 'Other shop').context, true],
    ['the record’s own merchant', now('B1', 'M1'), transaction('M1', 'Harbour Shop').context, true],
    ['another merchant of the same business', now('B1', 'M1'), transaction('M2', 'Other shop').context, false],
    ['another business', now('B1', null), transaction('M9', 'Far away', 'B9').context, false],
    ['no context applied', now(null, null), transaction('M1', 'Harbour Shop').context, false],
    ['a record without a context (a user)', now('B1', 'M1'), {}, true],
  ])('%s', (_name, current, wanted, expected) => {
    expect(recordWithinContext(current, wanted)).toBe(expected);
  });
});

describe('opening a palette record', () => {
  beforeEach(() => applyContext({}));

  it('keeps the business context and opens the record in a pane within it', async () => {
    applyContext(harbour);
    const { services: s, state, navigate } = services();
    await openSearchResultCommand.run(s, { record: transaction('M2', 'Other shop'), beside: true });
    expect(state.switchContextVisibly).not.toHaveBeenCalled();
    expect(state.applyContext).not.toHaveBeenCalled();
    expect(state.toast).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/transactions/TX1', { beside: true });
    expect(contextStore.applied).toEqual(harbour);
  });

  it('switches visibly for a record outside the context, and Shift+Z goes back', async () => {
    applyContext(harbourShop);
    const { services: s, state } = services();
    await openSearchResultCommand.run(s, { record: transaction('M2', 'Other shop'), beside: false });
    expect(contextStore.applied).toEqual({ business: harbourShop.business, merchant: { id: 'M2', title: 'Other shop' } });
    const [toast] = state.toast.mock.calls[0] as [{ kind: string; message: string; link?: { href: string; label: string } }];
    expect(toast.message).toBe(
      'Context switched to Harbour & Finch Homeware Ltd › Other shop to open Transaction TX1. Shift+Z goes back to Harbour & Finch Homeware Ltd › Harbour Shop.',
    );
    expect(toast.link?.label).toBe('Back to Harbour & Finch Homeware Ltd › Harbour Shop');
    expect(toast.link?.href).toMatch(/^\/context\/apply\?route=%2Ftransactions%3Fpanes%3D_%2C%252Ftransactions%252FTX1&business=.*&merchant=.*%22M1%22/);

    const back = services();
    // The whole app's registry (routes, static and area commands): Shift+Z is context.back's alone.
    const registry = createAppRegistry(undefined, areaCommands);
    expect(registry.resolveShortcut('Shift+Z', back.ctx())?.id).toBe('context.back');
    await backToPreviousContextCommand.run(back.services, {});
    expect(contextStore.applied).toEqual(harbourShop);
    expect(contextStore.previous).toBeNull();
    expect(back.state.toast).toHaveBeenCalledWith({ kind: 'success', message: 'Back to Harbour & Finch Homeware Ltd › Harbour Shop.' });
    // Nothing left to go back to: the command is not offered.
    expect(backToPreviousContextCommand.when?.(back.ctx())).toBe(false);
  });

  it('forgets the way back once a context is chosen otherwise', () => {
    applyContext(harbourShop);
    switchContextVisibly(harbour);
    expect(contextStore.previous).toEqual(harbourShop);
    applyContext(harbourShop);
    expect(contextStore.previous).toBeNull();
    expect(backToPreviousContext()).toBe(false);
  });
});
