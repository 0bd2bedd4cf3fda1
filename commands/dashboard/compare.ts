import { setCompare } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

/** Compare overlays the same period one year earlier. */
export const compareOnCommand: Command = {
  id: 'dashboard.compareOn',
  title: 'Compare with a year earlier',
  section: 'Dashboard',
  keywords: ['dashboard', 'compare', 'last year', 'previous year', 'overlay'],
  permissions: dashboardPermissions,
  when: (ctx) => shownSettings(ctx)?.view.compare === false,
  run: (services) => changeDashboard(services, (settings) => ({ ...settings, view: setCompare(settings.view, true) })),
};

export const compareOffCommand: Command = {
  id: 'dashboard.compareOff',
  title: 'Stop comparing with a year earlier',
  section: 'Dashboard',
  keywords: ['dashboard', 'compare', 'off', 'hide'],
  permissions: dashboardPermissions,
  when: (ctx) => shownSettings(ctx)?.view.compare === true,
  run: (services) => changeDashboard(services, (settings) => ({ ...settings, view: setCompare(settings.view, false) })),
};
