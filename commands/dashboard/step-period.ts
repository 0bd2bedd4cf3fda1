import { canStepForward, stepView } from '../../src/contract/dashboard-intervals.ts';
import type { Command } from '../command.ts';
import { changeDashboard, dashboardPermissions, shownSettings } from './dashboard-command.ts';

export const previousPeriodCommand: Command = {
  id: 'dashboard.previousPeriod',
  title: 'Show the previous period',
  section: 'Dashboard',
  keywords: ['dashboard', 'back', 'earlier', 'previous'],
  shortcut: 'BracketLeft',
  permissions: dashboardPermissions,
  when: (ctx) => shownSettings(ctx)?.view.period != null,
  run: (services) => changeDashboard(services, (settings) => ({ ...settings, view: stepView(settings.view, -1) })),
};

/** Never past the current period: there is nothing to show there yet. */
export const nextPeriodCommand: Command = {
  id: 'dashboard.nextPeriod',
  title: 'Show the next period',
  section: 'Dashboard',
  keywords: ['dashboard', 'forward', 'later', 'next'],
  shortcut: 'BracketRight',
  permissions: dashboardPermissions,
  when: (ctx) => shownSettings(ctx)?.view.period != null,
  run: (services) =>
    changeDashboard(services, (settings, today) => (canStepForward(settings.view, today) ? { ...settings, view: stepView(settings.view, 1) } : settings)),
};
