import type { Command } from '../command.ts';

const statementRoutes = ['tradingAccount', 'reserveAccount', 'securityAccount', 'remittanceAccount', 'invoiceAccount', 'costStatement'];

/** From a merchant account's statement, the batch report of the same account group. */
export const openBatchReportCommand: Command = {
  id: 'reporting.openBatchReport',
  title: 'Open the batch report of this account',
  section: 'Navigation',
  keywords: ['batches', 'settlement', 'batch report'],
  permissions: ['Mapi.MerchantAccountGroups.Read'],
  when: (ctx) => statementRoutes.includes(ctx.route?.id ?? '') && /^\/reporting\/[a-z-]+\/[^/?]+/.test(ctx.route?.path ?? ''),
  run: ({ context, navigate }, args) => {
    const accountNumber = /^\/reporting\/[a-z-]+\/([^/?]+)/.exec(context().route?.path ?? '')?.[1];
    if (accountNumber) return navigate(`/reporting/batch-report/${accountNumber}`, args?.beside ? { beside: true } : undefined);
    return undefined;
  },
};
