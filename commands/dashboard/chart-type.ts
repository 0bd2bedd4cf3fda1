import type { ChartType } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

const chartTypeCommand = (chartType: ChartType, title: string): Command => ({
  id: `dashboard.chart.${chartType}`,
  title,
  section: 'Dashboard',
  keywords: ['dashboard', 'chart', chartType, chartType === 'bar' ? 'histogram' : 'graph'],
  permissions: dashboardPermissions,
  when: (ctx) => {
    const settings = shownSettings(ctx);
    return settings !== null && settings.view.chartType !== chartType;
  },
  run: (services) => changeDashboard(services, (settings) => ({ ...settings, view: { ...settings.view, chartType } })),
});

export const barChartCommand = chartTypeCommand('bar', 'Show as a bar chart');
export const lineChartCommand = chartTypeCommand('line', 'Show as a line chart');
