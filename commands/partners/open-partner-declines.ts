import type { Command } from '../command.ts';
import { focusedPartnerId, partnerHref } from './partner-route.ts';

/** From any screen of a partner: its declines across its businesses. */
export const openPartnerDeclinesCommand: Command = {
  id: 'partners.openDeclines',
  title: 'Open partner declines',
  section: 'Navigation',
  keywords: ['declines', 'decline reasons', 'refused', 'partner'],
  permissions: ['Mapi.Partner.Read'],
  when: (ctx) => focusedPartnerId(ctx) !== null && ctx.route?.id !== 'partnerDeclines',
  run: ({ context, navigate }, args) => {
    const partnerId = focusedPartnerId(context());
    return partnerId ? navigate(`${partnerHref(partnerId)}/declines`, args?.beside ? { beside: true } : undefined) : undefined;
  },
};
