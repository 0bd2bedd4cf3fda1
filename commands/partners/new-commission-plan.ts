import type { Command } from '../command.ts';
import { focusedPartnerId, partnerHref } from './partner-route.ts';

/** On a partner: a new commission plan in the plan's form (the route asks Mapi.CommissionPlans.Update too). */
export const newCommissionPlanCommand: Command = {
  id: 'partners.newCommissionPlan',
  title: 'New commission plan',
  section: 'Record',
  keywords: ['commission', 'plan', 'create', 'add', 'revenue share', 'rules', 'partner'],
  permissions: ['Mapi.Partner.Read', 'Mapi.CommissionPlans.Update'],
  when: (ctx) => ctx.route?.id === 'partnerDetail' && focusedPartnerId(ctx) !== null && !ctx.overlayOpen,
  run: ({ context, navigate }, args) => {
    const partnerId = focusedPartnerId(context());
    return partnerId ? navigate(`${partnerHref(partnerId)}/commissions/new`, args?.beside ? { beside: true } : undefined) : undefined;
  },
};
