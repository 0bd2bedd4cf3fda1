import { dateBasisLabels, defaultDateBasis, type DashboardDateBasis } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

/** The dashboard's figures by payment date (the default) or by activity date (money on the day it moved). */
const dateBasisCommand = (dateBasis: DashboardDateBasis, keywords: readonly string[]): Command => ({
  id: `dashboard.dateBasis.${dateBasis}`,
  title: `Show the dashboard ${dateBasisLabels[dateBasis].toLowerCase()}`,
  section: 'Dashboard',
  keywords: ['dashboard', 'dates', 'view', ...keywords],
  permissions: dashboardPermissions,
  when: (ctx) => {
    const settings = shownSettings(ctx);
    return settings !== null && (settings.dateBasis ?? defaultDateBasis) !== dateBasis;
  },
  run: (services) => changeDashboard(services, (settings) => ({ ...settings, dateBasis })),
});

export const paymentDateCommand = dateBasisCommand('paymentDate', ['payment date', 'refunds on payment day']);
export const activityDateCommand = dateBasisCommand('activityDate', ['activity', 'activity date', 'money moved', 'refund day', 'cash']);
