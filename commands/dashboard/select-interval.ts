import { dashboardIntervals, selectInterval, type DashboardInterval } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

const titles: Record<DashboardInterval, string> = {
  day: 'Show a day by hour',
  week: 'Show a week by day',
  month: 'Show a month by day',
  year: 'Show a year by month',
  custom: 'Show a custom date range',
};

/** One command per interval; choosing one resets compare, the chart type and any custom dates. */
export const selectIntervalCommands: readonly Command[] = dashboardIntervals.map(
  (interval): Command => ({
    id: `dashboard.interval.${interval}`,
    title: titles[interval],
    section: 'Dashboard',
    keywords: ['dashboard', 'interval', 'period', interval, ...(interval === 'custom' ? ['range', 'dates'] : [])],
    permissions: dashboardPermissions,
    when: (ctx) => {
      const settings = shownSettings(ctx);
      return settings !== null && (interval === 'custom' || settings.view.interval !== interval);
    },
    run: (services) => changeDashboard(services, (settings, today) => ({ ...settings, view: selectInterval(settings.view, interval, today) })),
  }),
);
