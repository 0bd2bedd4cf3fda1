import type { Command } from '../command.ts';

/**
 * Opens a record the palette's look-up found: applies the record's context first (its business and merchant)
 * when it differs from the applied one, then shows it here or in a new pane beside.
 */
export const openSearchResultCommand: Command = {
  id: 'record.openSearchResult',
  title: 'Open record',
  section: 'Record',
  keywords: ['find', 'look up', 'reference'],
  requiresArgs: true,
  when: (ctx) => ctx.signedIn,
  run: ({ context, navigate, state }, { record, beside }) => {
    if (!record) return undefined;
    const now = context().context;
    const wanted = record.context;
    const businessChanges = wanted.business !== undefined && wanted.business.id !== now.businessId;
    const merchantChanges = wanted.merchant !== undefined && wanted.merchant.id !== now.merchantId;
    if (businessChanges || merchantChanges) {
      state.applyContext({
        ...(wanted.business ? { business: { id: wanted.business.id, title: wanted.business.title } } : {}),
        ...(wanted.merchant ? { merchant: { id: wanted.merchant.id, title: wanted.merchant.title } } : {}),
      });
    }
    return navigate(record.path, { beside: beside === true });
  },
};
