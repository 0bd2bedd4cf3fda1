import type { Command } from '../command.ts';
import { partnerBusinessOfPath, partnerHref } from './partner-route.ts';

/**
 * Back to the business in the partner's frame from its transactions or one of its merchants there; from a business
 * screen outside the frame, with a partner applied as context, into that partner's frame.
 */
export const openBusinessInPartnerFrameCommand: Command = {
  id: 'partners.openBusinessInFrame',
  title: 'Open business in partner frame',
  section: 'Navigation',
  keywords: ['business', 'partner', 'frame', 'details'],
  permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read'],
  when: (ctx) => targetOf(ctx) !== null,
  run: ({ context, navigate }, args) => {
    const target = targetOf(context());
    return target ? navigate(target, args?.beside ? { beside: true } : undefined) : undefined;
  },
};

function targetOf(ctx: Parameters<NonNullable<Command['when']>>[0]): string | null {
  const inFrame = partnerBusinessOfPath(ctx.route?.path);
  const frame = (partnerId: string, businessId: string) => `${partnerHref(partnerId)}/business/${encodeURIComponent(businessId)}`;
  if (inFrame) return ctx.route?.id === 'partnerBusiness' ? null : frame(inFrame.partnerId, inFrame.businessId);
  if (ctx.route?.id === 'businessDetail' && ctx.context.partnerId && ctx.context.businessId) return frame(ctx.context.partnerId, ctx.context.businessId);
  return null;
}
