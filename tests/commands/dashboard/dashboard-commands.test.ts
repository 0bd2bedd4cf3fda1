import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext, CommandServices } from '../../../commands/command.ts';
import { dashboardCommands } from '../../../commands/dashboard/dashboard-commands.ts';
import { createCommandRegistry, isAvailable } from '../../../commands/registry.ts';
import { createAppRegistry } from '../../../src/app/app-registry.ts';

function contextAt(path: string | null, permissions: string[] = ['Mapi.MerchantDashboardReport.Read']): CommandContext {
  return {
    signedIn: true,
    permissions,
    route:
      path === null
        ? null
        : { id: path.startsWith('/dashboard') ? 'dashboard' : 'transactions', pattern: path.startsWith('/dashboard') ? '/dashboard' : '/transactions', path },
    context: {
      partnerId: null,
      businessId: 'B1',
      merchantId: 'M1',
      configurationId: null,
      virtualTerminalMenuEnabled: null,
      camAutoRemittance: null,
      grossSettlement: null,
    },
    access: { rootOrPartner: false, businessIds: ['B1'], merchantKeys: [] },
    focusedPane: { id: 'pane-1', capabilities: ['date'] },
    paneCount: 1,
    focusedIndex: 0,
    maxPanes: 4,
    selectionCount: 0,
    fieldFocused: false,
    controlFocused: false,
    overlayOpen: false,
  };
}

function servicesAt(path: string) {
  const navigate = vi.fn();
  const services = { context: () => contextAt(path), navigate } as unknown as CommandServices;
  return { services, navigate };
}

const command = (id: string) => {
  const found = dashboardCommands.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no command ${id}`);
  return found;
};

const available = (path: string | null, permissions?: string[]) =>
  dashboardCommands.filter((candidate) => isAvailable(candidate, contextAt(path, permissions))).map((candidate) => candidate.id);

describe('dashboard commands', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-18T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('register beside every other command without a clash of ids or shortcuts', () => {
    // Every command of the app (route commands included), whether or not it lists the dashboard's yet.
    const others = createAppRegistry()
      .all()
      .filter((candidate) => !dashboardCommands.includes(candidate));
    expect(() => createCommandRegistry([...others, ...dashboardCommands])).not.toThrow();
    expect(dashboardCommands.map((candidate) => candidate.id)).toEqual([
      'dashboard.interval.day',
      'dashboard.interval.week',
      'dashboard.interval.month',
      'dashboard.interval.year',
      'dashboard.interval.custom',
      'dashboard.previousPeriod',
      'dashboard.nextPeriod',
      'dashboard.compareOn',
      'dashboard.compareOff',
      'dashboard.measure.volume',
      'dashboard.measure.revenue',
      'dashboard.measure.unsuccessfulVolume',
      'dashboard.measure.unsuccessfulRevenue',
      'dashboard.measure.salesCount',
      'dashboard.currency.GBP',
      'dashboard.currency.EUR',
      'dashboard.currency.USD',
      'dashboard.currency.JPY',
      'dashboard.chart.bar',
      'dashboard.chart.line',
      'dashboard.dateBasis.paymentDate',
      'dashboard.dateBasis.activityDate',
    ]);
  });

  it('are offered only on the dashboard, to those who may read its statistics, and never the state already shown', () => {
    expect(available('/transactions')).toEqual([]);
    expect(available(null)).toEqual([]);
    expect(available('/dashboard', ['Mapi.Transactions.Read'])).toEqual([]);
    const onMonth = available('/dashboard?interval=month&from=2026-03-01&currency=GBP');
    expect(onMonth).not.toContain('dashboard.interval.month');
    expect(onMonth).toContain('dashboard.interval.custom');
    expect(onMonth).toContain('dashboard.compareOn');
    expect(onMonth).not.toContain('dashboard.compareOff');
    expect(onMonth).not.toContain('dashboard.measure.volume');
    expect(onMonth).not.toContain('dashboard.currency.GBP');
    expect(onMonth).not.toContain('dashboard.chart.bar');
    const comparing = available('/dashboard?interval=year&compare=1&measure=revenue');
    expect(comparing).toContain('dashboard.compareOff');
    expect(comparing).toContain('dashboard.measure.volume');
    expect(available('/dashboard?interval=custom')).not.toContain('dashboard.previousPeriod');
    // By payment date is the default view: only the other one is offered, and back again from it.
    expect(onMonth).toContain('dashboard.dateBasis.activityDate');
    expect(onMonth).not.toContain('dashboard.dateBasis.paymentDate');
    const byActivity = available('/dashboard?interval=month&from=2026-03-01&basis=activity');
    expect(byActivity).toContain('dashboard.dateBasis.paymentDate');
    expect(byActivity).not.toContain('dashboard.dateBasis.activityDate');
  });

  it('switch between the views by payment date and by activity date through the address, keeping the rest', () => {
    const { services, navigate } = servicesAt('/dashboard?interval=week&from=2026-03-09&measure=revenue');
    void command('dashboard.dateBasis.activityDate').run(services, {});
    expect(navigate).toHaveBeenCalledWith('/dashboard?interval=week&from=2026-03-09&measure=revenue&basis=activity', { replace: true });
    const back = servicesAt('/dashboard?interval=week&from=2026-03-09&measure=revenue&basis=activity');
    void command('dashboard.dateBasis.paymentDate').run(back.services, {});
    expect(back.navigate).toHaveBeenCalledWith('/dashboard?interval=week&from=2026-03-09&measure=revenue', { replace: true });
  });

  it.each([
    ['dashboard.interval.day', '/dashboard?interval=month&from=2025-06-01&compare=1', '/dashboard?interval=day&from=2026-03-18'],
    ['dashboard.interval.year', '/dashboard', '/dashboard?interval=year&from=2026-01-01'],
    ['dashboard.interval.custom', '/dashboard?interval=week&from=2026-03-16', '/dashboard?interval=custom'],
    ['dashboard.previousPeriod', '/dashboard?interval=week&from=2026-03-16&compare=1', '/dashboard?interval=week&from=2026-03-09&compare=1'],
    ['dashboard.nextPeriod', '/dashboard?interval=week&from=2026-03-09', '/dashboard?interval=week&from=2026-03-16'],
    ['dashboard.nextPeriod', '/dashboard?interval=week&from=2026-03-16', '/dashboard?interval=week&from=2026-03-16'],
    ['dashboard.previousPeriod', '/dashboard?interval=custom&from=2026-03-01&to=2026-03-10', '/dashboard?interval=custom&from=2026-02-19&to=2026-02-28'],
    ['dashboard.compareOn', '/dashboard?interval=month&from=2026-02-01', '/dashboard?interval=month&from=2026-02-01&compare=1'],
    ['dashboard.compareOff', '/dashboard?interval=month&from=2026-02-01&compare=1', '/dashboard?interval=month&from=2026-02-01'],
    ['dashboard.measure.salesCount', '/dashboard?interval=month&from=2026-02-01', '/dashboard?interval=month&from=2026-02-01&measure=salesCount'],
    ['dashboard.currency.EUR', '/dashboard?interval=month&from=2026-02-01', '/dashboard?interval=month&from=2026-02-01&currency=EUR'],
    ['dashboard.chart.line', '/dashboard?interval=month&from=2026-02-01', '/dashboard?interval=month&from=2026-02-01&chart=line'],
  ])('%s on %s goes to %s', (id, from, to) => {
    const { services, navigate } = servicesAt(from);
    command(id).run(services, {});
    expect(navigate).toHaveBeenCalledWith(to, { replace: true });
  });
});
