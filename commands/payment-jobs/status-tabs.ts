// The payment jobs overview's status tabs as commands: 't' then a letter (t a all, t o open, t u authorised but
// uncaptured, t p paid, t r refunded, t f failed), or the palette ('Show open payment jobs').
import type { Command } from '../command.ts';
import { paymentJobTabLabels } from '../../src/contract/payment-job-labels.ts';
import { paymentJobTabs, type PaymentJobTab } from '../../src/contract/payment-jobs.ts';

const keys: Record<PaymentJobTab | 'all', string> = { all: 't a', open: 't o', authorised: 't u', paid: 't p', refunded: 't r', failed: 't f' };

const tabCommand = (tab: PaymentJobTab | 'all', index: number): Command => ({
  id: `paymentJobs.tab.${tab}`,
  title: tab === 'all' ? 'Show all payment jobs' : `Show payment jobs: ${paymentJobTabLabels[tab].toLowerCase()}`,
  section: 'Table',
  keywords: ['status', 'tab', 'payment jobs', tab === 'all' ? 'all' : paymentJobTabLabels[tab].toLowerCase()],
  shortcut: keys[tab],
  permissions: ['Portal.PaymentJobs.Read'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('statusTab') === true,
  run: ({ state }) => state.paneRequest('statusTab', index),
});

export const paymentJobTabCommands: readonly Command[] = (['all', ...paymentJobTabs] as const).map((tab, index) => tabCommand(tab, index));
