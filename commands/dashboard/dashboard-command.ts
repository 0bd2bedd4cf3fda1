// What every dashboard command shares: it is offered while the focused pane shows the dashboard and the
// caller may read its statistics, and it acts by rewriting the pane's address (the view lives there).
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { browserTimeZone, changeDashboardPath, dashboardPath, readDashboardSearch, type DashboardSettings } from '../../src/contract/dashboard-intervals.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import type { CommandContext, CommandServices } from '../command.ts';

export const dashboardPermissions: readonly PermissionName[] = ['Mapi.MerchantDashboardReport.Read'];

export function onDashboard(ctx: CommandContext): boolean {
  return ctx.route?.id === 'dashboard';
}

let lastShown: { path: string; settings: DashboardSettings } | null = null;

/**
 * The focused dashboard's settings as its address says (the period is not needed by `when` rules). Some twenty
 * commands ask for the same address when the palette opens: it is read once per address.
 */
export function shownSettings(ctx: CommandContext): DashboardSettings | null {
  if (!onDashboard(ctx) || !ctx.route) return null;
  const { path } = ctx.route;
  if (lastShown?.path !== path) {
    const index = path.indexOf('?');
    lastShown = { path, settings: readDashboardSearch(index === -1 ? '' : path.slice(index), '2000-01-01') };
  }
  return lastShown.settings;
}

export function today(): string {
  return calendarDate(Date.now(), browserTimeZone());
}

/** Applies a change to the focused dashboard's view, replacing its address. */
export function changeDashboard(services: CommandServices, change: (settings: DashboardSettings, today: string) => DashboardSettings): unknown {
  const path = services.context().route?.path ?? dashboardPath;
  const now = today();
  return services.navigate(
    changeDashboardPath(path, now, (settings) => change(settings, now)),
    { replace: true },
  );
}
