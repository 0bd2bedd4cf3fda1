import { dashboardCurrencies } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

/** One command per settlement currency; the dashboard's own selector lists only the context's currencies. */
export const selectCurrencyCommands: readonly Command[] = dashboardCurrencies.map(
  (currency): Command => ({
    id: `dashboard.currency.${currency}`,
    title: `Show amounts in ${currency}`,
    section: 'Dashboard',
    keywords: ['dashboard', 'currency', currency.toLowerCase()],
    permissions: dashboardPermissions,
    when: (ctx) => {
      const settings = shownSettings(ctx);
      return settings !== null && settings.currency !== currency;
    },
    run: (services) => changeDashboard(services, (settings) => ({ ...settings, currency })),
  }),
);
