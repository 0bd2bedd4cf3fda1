import type { Command } from '../command.ts';
import { focusedPartnerId, partnerBusinessOfPath, partnerHref, partnerIdOfPath } from './partner-route.ts';

/** From a partner's screen: its transactions; from a business in its frame: that business's transactions there. */
export const openPartnerTransactionsCommand: Command = {
  id: 'partners.openTransactions',
  title: 'Open partner transactions',
  section: 'Navigation',
  keywords: ['transactions', 'payments', 'partner', 'business'],
  permissions: ['Mapi.Partner.Read', 'Mapi.Transactions.Read'],
  when: (ctx) => focusedPartnerId(ctx) !== null && ctx.route?.id !== 'partnerTransactions' && ctx.route?.id !== 'partnerBusinessTransactions',
  run: ({ context, navigate }, args) => {
    const path = context().route?.path;
    const inBusiness = partnerBusinessOfPath(path);
    const partnerId = partnerIdOfPath(path);
    const target = inBusiness
      ? `${partnerHref(inBusiness.partnerId)}/business/${encodeURIComponent(inBusiness.businessId)}/transactions`
      : partnerId
        ? `${partnerHref(partnerId)}/transactions`
        : null;
    return target ? navigate(target, args?.beside ? { beside: true } : undefined) : undefined;
  },
};
