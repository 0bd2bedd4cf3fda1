// 'Offered means allowed': for every role of the server's role table (server/policy/role-permissions.ts),
// on every record screen, every command the registry offers (isAvailable with the role's permissions) is one the
// server accepts from that role: the permissions the server checks for the command's call (the map below, read from
// server/api/*) are all held. And every command declares at least those permissions, so the palette, the shortcuts
// and the menus never offer what the server would refuse; the internal read-only role is offered no write at all.
import { describe, expect, it } from 'vitest';
import type { Command, CommandContext } from '../../commands/command.ts';
import { areaCommands } from '../../commands/area-commands.ts';
import { isAvailable } from '../../commands/registry.ts';
import { rolePermissions } from '../../server/policy/role-permissions.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { roleNames, type PermissionName, type RoleName } from '../../src/contract/permissions.ts';
import { paneCapabilities } from '../../src/state/workspace-store.ts';
import { baseContext } from '../app/support.tsx';

type ServerCheck = { permissions: readonly PermissionName[]; write: boolean };
const write = (...permissions: PermissionName[]): ServerCheck => ({ permissions, write: true });
const read = (...permissions: PermissionName[]): ServerCheck => ({ permissions, write: false });

/** Command → what the server checks for the call it makes (or the call the screen it asks makes). */
const serverChecks: Record<string, ServerCheck> = {
  // server/api/tickets.ts: every write needs Portal.Tickets.Create; notes, status and assignee also staff (Read.Internal)
  'tickets.reply': write('Portal.Tickets.Create'),
  'tickets.internalNote': write('Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'),
  'tickets.attach': write('Portal.Tickets.Create'),
  'tickets.editLastComment': write('Portal.Tickets.Create'),
  'tickets.assignToMe': write('Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'),
  'tickets.chooseAssignee': write('Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'),
  'tickets.openAboutTransaction': write('Portal.Tickets.Create'),
  'tickets.showOlderComments': read('Portal.Tickets.Read'),
  // server/bulk/areas.ts: an export is a report job over a readable area
  'tickets.export': read('Portal.Tickets.Read', 'Portal.Reports.Create'),
  'users.export': read('Mapi.Users.Read', 'Portal.Reports.Create'),
  // server/api/payment-jobs.ts
  'paymentJob.capture': write('Portal.Payments.Capture'),
  'paymentJob.refund': write('Portal.Payments.Refund'),
  'paymentJob.void': write('Portal.Payments.Void'),
  'paymentJob.cancelJob': write('Portal.PaymentJobs.Cancel'),
  'paymentJob.expireLink': write('Portal.PaymentJobs.Cancel'),
  'paymentJob.mailPaymentLink': write('Portal.PaymentJobs.MailPaymentLink'),
  'paymentJob.viewTrace': read('Portal.Traces.Read'),
  // server/api/users.ts
  'users.lock': write('Mapi.Users.Update'),
  'users.unlock': write('Mapi.Users.Update'),
  'users.sendPasswordReset': write('Mapi.Users.Update'),
  'users.resetSecondFactor': write('Mapi.Users.Update'),
  'users.resendInvitation': write('Mapi.Users.Create'),
  'users.revokeInvitation': write('Mapi.Users.Create'),
  'users.delete': write('Mapi.Users.Delete'),
  // server/api/watch-list.ts: every action needs Mapi.AccountWatchList.Update at root
  'watchList.acknowledge': write('Mapi.AccountWatchList.Update'),
  'watchList.monitor': write('Mapi.AccountWatchList.Update'),
  'watchList.addNote': write('Mapi.AccountWatchList.Update'),
  'watchList.escalate': write('Mapi.AccountWatchList.Update'),
  // server/api/beneficiaries.ts
  'beneficiary.approve': write('Mapi.Beneficiary.Approve'),
  'beneficiary.resolveAlert': write('Mapi.Screening.Resolve'),
  // server/api/customers.ts
  'customer.add': write('Mapi.Customers.Update'),
  'customer.edit': write('Mapi.Customers.Update'),
  'customer.erase': write('Mapi.Customers.Update'),
  'customer.exportData': read('Mapi.Customers.Read'),
  // server/api/billing.ts
  'billing.runMonth': write('Billing.Invoices.Create'),
  'billing.markPaid': write('Billing.Invoices.Create'),
  'billing.creditNote': write('Billing.Invoices.Create'),
  // server/api/partners.ts: commission plans
  'partners.newCommissionPlan': write('Mapi.CommissionPlans.Update'),
  'partners.editCommissionPlan': write('Mapi.CommissionPlans.Update'),
  'partners.addCommissionRule': write('Mapi.CommissionPlans.Update'),
  'partners.deleteCommissionPlan': write('Mapi.CommissionPlans.Update'),
  // server/api/virtual-terminal.ts
  'virtualTerminal.newOrder': write('Portal.Moto.Create'),
  'virtualTerminal.newOrderNewCustomer': write('Portal.Moto.Create'),
  'virtualTerminal.addOrderLine': write('Portal.Moto.Create'),
  'virtualTerminal.removeOrderLine': write('Portal.Moto.Create'),
  'virtualTerminal.submitOrder': write('Portal.Moto.Create'),
  'virtualTerminal.tryAgain': write('Portal.Moto.Create'),
  'virtualTerminal.tryAnotherCard': write('Portal.Moto.Create'),
  'virtualTerminal.saveSettings': write('Portal.Settings.Update'),
  // server/api/images.ts: removing a configuration's image
  'hostedPage.removeLogo': write('Mapi.Configurations.Update'),
  // server/api/account-groups.ts and reports: report jobs
  'reporting.downloadStatement': read('Portal.Reports.Create'),
  'reporting.scheduleStatement': read('Portal.Reports.Create'),
  'transactions.scheduleExport': read('Mapi.Transactions.Read', 'Portal.Reports.Create'),
  // server/api/report-schedules.ts: Run now queues the schedule's report (its own permissions checked in its context too)
  'reporting.runScheduleNow': read('Portal.Reports.Create'),
  // The forms that create something: their route's command leads to a POST the server checks.
  'nav.ticketAdd': write('Portal.Tickets.Create'),
  'nav.userAdd': write('Mapi.Users.Create'),
  'nav.notificationAdd': write('Portal.Notifications.Create'),
  'nav.virtualTerminal': write('Portal.Moto.Create'),
};
const registry = createAppRegistry(undefined, areaCommands);
// A ticket's priority is the requester's or staff's edit (Create); its status is staff's workflow (Create and staff).
for (const command of registry.all()) {
  if (command.id.startsWith('tickets.priority.')) serverChecks[command.id] = write('Portal.Tickets.Create');
  if (command.id.startsWith('tickets.status.')) serverChecks[command.id] = write('Portal.Tickets.Create', 'Portal.Tickets.Read.Internal');
  // The payment jobs overview's status tabs: a list read with the tab filter.
  if (command.id.startsWith('paymentJobs.tab.')) serverChecks[command.id] = read('Portal.PaymentJobs.Read');
  // The ticket queue's views: a list read with filters (updated by requester, assignee, status).
  if (command.id.startsWith('tickets.view.')) serverChecks[command.id] = read('Portal.Tickets.Read');
}

/**
 * Commands that make no call of their own, or whose call the screen decides: the route commands (the route's guard and
 * the server read the same permission names), the workspace, table, help and session commands, and the generic record
 * commands whose screen declares the capability only when its record allows it (record.edit on a user: allowed.update
 * from the server). Listed by id or prefix; anything else a screen offers must be in serverChecks.
 */
const clientOnly = [
  'nav.',
  'workspace.',
  'table.',
  'help.',
  'session.',
  'palette.',
  'context.',
  'dashboard.',
  'bulk.',
  'developers.',
  'record.',
  'hostedPage.preview',
  'partners.open',
  'billing.goToInvoice',
  'billing.downloadPdf',
  'reporting.openBatchReport',
  'reporting.openScheduledReports',
  'virtualTerminal.openOrderResult',
  'notifications.markAllRead',
  'notifications.toggleRead',
];
const isClientOnly = (id: string) => !(id in serverChecks) && clientOnly.some((prefix) => id === prefix || id.startsWith(prefix));

const business = {
  partnerId: null,
  businessId: 'B1',
  merchantId: 'M1',
  configurationId: 'C1',
  virtualTerminalMenuEnabled: true,
  camAutoRemittance: false,
  grossSettlement: false,
};

/** The record screens and where they are: every capability a screen may declare is assumed declared (the worst case). */
const recordScreens: { id: string; pattern: string; path: string }[] = [
  { id: 'ticketDetail', pattern: '/tickets/:ticketId', path: '/tickets/TCK1' },
  { id: 'tickets', pattern: '/tickets', path: '/tickets' },
  { id: 'userDetail', pattern: '/users/:userId', path: '/users/USR1' },
  { id: 'users', pattern: '/users', path: '/users' },
  { id: 'watchListEntry', pattern: '/account-watch-list/:merchantId', path: '/account-watch-list/M1' },
  { id: 'paymentJobDetail', pattern: '/configurations/:configurationId/payments/:paymentJobReference', path: '/configurations/C1/payments/PJ1' },
  { id: 'transactionDetail', pattern: '/transactions/:transactionReference', path: '/transactions/TX1' },
  { id: 'customerDetail', pattern: '/business/:businessId/merchants/:merchantId/customers/:customerId', path: '/business/B1/merchants/M1/customers/CUS1' },
  { id: 'beneficiaryDetail', pattern: '/business/:businessId/beneficiaries/:beneficiaryId', path: '/business/B1/beneficiaries/BEN1' },
  { id: 'configurationDetail', pattern: '/configurations/:configurationId', path: '/configurations/C1' },
  {
    id: 'hostedPaymentPage',
    pattern: '/configurations/:configurationId/hosted-payment-page/:hostedPaymentPageReference',
    path: '/configurations/C1/hosted-payment-page/HP1',
  },
  { id: 'virtualTerminal', pattern: '/configurations/:configurationId/virtual-terminal', path: '/configurations/C1/virtual-terminal' },
  { id: 'invoiceDetail', pattern: '/billing/invoices/:invoiceId', path: '/billing/invoices/INV1' },
  {
    id: 'merchantAccountDetail',
    pattern: '/business/:businessId/merchants/:merchantId/merchant-accounts-overview/:merchantAccountId',
    path: '/business/B1/merchants/M1/merchant-accounts-overview/MA1',
  },
  { id: 'partnerCommission', pattern: '/partners/:partnerId/commissions/:commissionPlanId', path: '/partners/P1/commissions/CP1' },
  { id: 'reportQueue', pattern: '/reporting-overview', path: '/reporting-overview' },
];

function screenContext(role: RoleName, screen: (typeof recordScreens)[number]): CommandContext {
  return baseContext({
    permissions: [...rolePermissions[role]],
    route: screen,
    context: { ...business, partnerId: screen.id === 'partnerCommission' ? 'P1' : null },
    access: { rootOrPartner: true, businessIds: ['B1'], merchantKeys: ['B1/M1'] },
    focusedPane: { id: 'pane-1', capabilities: [...paneCapabilities] },
  });
}

const screenOf = (id: string) => recordScreens.find((screen) => screen.id === id) as (typeof recordScreens)[number];

const offered = (role: RoleName, screen: (typeof recordScreens)[number]): Command[] =>
  registry.all().filter((command) => isAvailable(command, screenContext(role, screen)));

describe('offered means allowed', () => {
  it('knows what the server checks for every command a record screen may offer', () => {
    const unmapped = new Set<string>();
    for (const role of roleNames) {
      for (const screen of recordScreens) {
        for (const command of offered(role, screen)) if (!(command.id in serverChecks) && !isClientOnly(command.id)) unmapped.add(command.id);
      }
    }
    expect([...unmapped].sort()).toEqual([]);
  });

  it('every command declares the permissions the server checks for it', () => {
    const missing: string[] = [];
    for (const [id, check] of Object.entries(serverChecks)) {
      const command = registry.get(id);
      expect(command, `${id} is registered`).toBeDefined();
      const declared = new Set(command?.permissions ?? []);
      for (const permission of check.permissions) if (!declared.has(permission)) missing.push(`${id} needs ${permission}`);
    }
    expect(missing).toEqual([]);
  });

  it('for every role, on every record screen, the server allows each offered command', () => {
    const refused: string[] = [];
    let pairs = 0;
    for (const role of roleNames) {
      const held = new Set<string>(rolePermissions[role]);
      for (const screen of recordScreens) {
        for (const command of offered(role, screen)) {
          const check = serverChecks[command.id];
          if (!check) continue;
          pairs += 1;
          const lacking = check.permissions.filter((permission) => !held.has(permission));
          if (lacking.length > 0) refused.push(`${role} on ${screen.id}: ${command.id} (server needs ${lacking.join(', ')})`);
        }
      }
    }
    expect(refused).toEqual([]);
    // The check is not vacuous: offered server-checked commands were found.
    expect(pairs).toBeGreaterThan(200);
  });

  it('offers the internal read-only role no write on any record screen', () => {
    const writes = new Set<string>();
    for (const screen of recordScreens) {
      for (const command of offered('InternalReadOnly', screen)) if (serverChecks[command.id]?.write) writes.add(`${screen.id}: ${command.id}`);
    }
    expect([...writes].sort()).toEqual([]);
    // … while it still reads: the older comments of a ticket, an export of the tickets.
    expect(offered('InternalReadOnly', screenOf('ticketDetail')).map((command) => command.id)).toContain('tickets.showOlderComments');
    expect(offered('InternalReadOnly', screenOf('tickets')).map((command) => command.id)).toContain('tickets.export');
  });

  it('offers each write to the roles the server allows it: the ticket workflow to writing staff, keys of the watch list to risk', () => {
    const onTicket = (role: RoleName) => offered(role, screenOf('ticketDetail')).map((command) => command.id);
    expect(onTicket('CustomerService')).toEqual(expect.arrayContaining(['tickets.internalNote', 'tickets.assignToMe', 'tickets.reply']));
    expect(onTicket('Owner')).toEqual(expect.arrayContaining(['tickets.reply']));
    expect(onTicket('Owner')).not.toContain('tickets.internalNote');
    const onEntry = (role: RoleName) => offered(role, screenOf('watchListEntry')).map((command) => command.id);
    expect(onEntry('RiskAnalyst')).toEqual(expect.arrayContaining(['watchList.acknowledge', 'watchList.monitor', 'watchList.addNote', 'watchList.escalate']));
    expect(onEntry('InternalReadOnly').filter((id) => id.startsWith('watchList.'))).toEqual([]);
  });
});
