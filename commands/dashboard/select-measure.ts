import { dashboardMeasures, measureLabels } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

/** One command per data type: volume, revenue, unsuccessful volume and revenue, sales. */
export const selectMeasureCommands: readonly Command[] = dashboardMeasures.map(
  (measure): Command => ({
    id: `dashboard.measure.${measure}`,
    title: `Chart ${measureLabels[measure].toLowerCase()}`,
    section: 'Dashboard',
    keywords: ['dashboard', 'data type', 'measure', 'chart', measureLabels[measure].toLowerCase()],
    permissions: dashboardPermissions,
    when: (ctx) => {
      const settings = shownSettings(ctx);
      return settings !== null && settings.measure !== measure;
    },
    run: (services) => changeDashboard(services, (settings) => ({ ...settings, measure })),
  }),
);
