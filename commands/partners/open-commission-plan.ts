import { validate } from '../../src/api/validate.ts';
import type { Command } from '../command.ts';
import { focusedPartnerId, partnerHref } from './partner-route.ts';

/** From a partner's screen: its active commission plan (else its newest). */
export const openCommissionPlanCommand: Command = {
  id: 'partners.openCommissionPlan',
  title: 'Open commission plan',
  section: 'Navigation',
  keywords: ['commission', 'revenue share', 'plan', 'earnings', 'partner'],
  permissions: ['Mapi.Partner.Read'],
  when: (ctx) => focusedPartnerId(ctx) !== null && ctx.route?.id !== 'partnerCommission',
  run: async ({ context, navigate, api, state }, args) => {
    const partnerId = focusedPartnerId(context());
    if (!partnerId) return;
    const plans = await validate('commissionPlanList', await api.get<unknown>(`${partnerHref(partnerId)}/commission-plans`));
    const plan = plans.results.find((entry) => entry.status === 'Active') ?? plans.results[0];
    if (!plan) {
      state.toast({ kind: 'info', message: 'This partner has no commission plan.' });
      return;
    }
    await navigate(`${partnerHref(partnerId)}/commissions/${encodeURIComponent(plan.commissionPlanId)}`, args?.beside ? { beside: true } : undefined);
  },
};
