import type { ContextSelections } from '../../src/contract/context.ts';
import type { RecordSearchResult } from '../../src/contract/shell-responses.ts';
import { contextApplyPath } from '../../src/state/context-links.ts';
import { contextStore } from '../../src/state/context-store.ts';
import type { Command, CommandContext } from '../command.ts';

type RecordContext = RecordSearchResult['context'];

/**
 * Does the applied context already hold the record? A record without a context (a user) is held by any; one of a
 * business by that business's context (with no merchant chosen, or the record's own merchant).
 */
export function recordWithinContext(now: CommandContext['context'], wanted: RecordContext): boolean {
  if (!wanted.business && !wanted.merchant) return true;
  if (!now.businessId || (wanted.business && wanted.business.id !== now.businessId)) return false;
  if (!now.merchantId) return true;
  return wanted.merchant !== undefined && wanted.merchant.id === now.merchantId;
}

function selectionsOf(wanted: RecordContext): ContextSelections {
  return {
    ...(wanted.business ? { business: { id: wanted.business.id, title: wanted.business.title } } : {}),
    ...(wanted.merchant ? { merchant: { id: wanted.merchant.id, title: wanted.merchant.title } } : {}),
  };
}

/** The screen as a same-origin path with its query (the shell hands over an absolute URL). */
function routeOf(url: string): string {
  try {
    const parsed = new URL(url, 'http://portal.invalid');
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/dashboard';
  }
}

const titleOf = (wanted: RecordContext) => [wanted.business?.title, wanted.merchant?.title].filter(Boolean).join(' › ');

/**
 * Opens a record the palette's look-up found, here or in a new pane beside. The context stays when it holds the
 * record (a business's context holds its merchants' records), so the lists open beside keep showing what they
 * showed. Only a record outside it switches the context, visibly: a notice names the new context and offers 'Back
 * to <previous context>' (context.back, Shift+Z).
 */
export const openSearchResultCommand: Command = {
  id: 'record.openSearchResult',
  title: 'Open record',
  section: 'Record',
  keywords: ['find', 'look up', 'reference'],
  requiresArgs: true,
  when: (ctx) => ctx.signedIn,
  run: async ({ context, navigate, state }, { record, beside }) => {
    if (!record) return undefined;
    const before = context();
    const wanted = record.context;
    const switching = !recordWithinContext(before.context, wanted);
    if (switching) {
      if (state.switchContextVisibly) state.switchContextVisibly(selectionsOf(wanted));
      else state.applyContext(selectionsOf(wanted));
    }
    const opened = await navigate(record.path, { beside: beside === true });
    if (switching) {
      const previous = context().previousContext;
      const left = contextStore.previous;
      state.toast({
        kind: 'info',
        message: previous
          ? `Context switched to ${titleOf(wanted)} to open ${record.title}. Shift+Z goes back to ${previous}.`
          : `Context switched to ${titleOf(wanted)} to open ${record.title}.`,
        durationMs: 7500,
        // The same way back for a pointer (and Tab): the context left, applied again over the panes as they are now.
        ...(previous && left ? { link: { href: contextApplyPath(routeOf(state.currentUrl()), left), label: `Back to ${previous}` } } : {}),
      });
    }
    return opened;
  },
};
