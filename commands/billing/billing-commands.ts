// Billing commands: run a month, and an invoice's own actions, asked of the focused invoice screen.
import type { Command } from '../command.ts';

const offered = (capability: 'downloadInvoice' | 'markPaid' | 'creditNote') => (ctx: Parameters<NonNullable<Command['when']>>[0]) =>
  ctx.focusedPane?.capabilities.includes(capability) === true && !ctx.fieldFocused && !ctx.overlayOpen;

/** Opens the billing screen's run tab with the month field focused (last month is filled in). */
export const runBillingCommand: Command = {
  id: 'billing.runMonth',
  title: 'Run billing for a month',
  section: 'Record',
  keywords: ['billing', 'invoices', 'run', 'month', 'fees', 'create invoices'],
  permissions: ['Billing.Invoices.Create'],
  run: async ({ navigate, state, context }) => {
    if (context().route?.id !== 'billing') await navigate('/billing?tab=run');
    else state.paneRequest('runBilling');
  },
};

export const downloadInvoicePdfCommand: Command = {
  id: 'billing.downloadPdf',
  title: 'Download invoice PDF',
  section: 'Record',
  keywords: ['invoice', 'pdf', 'download', 'credit note'],
  shortcut: 'Shift+I',
  permissions: ['Billing.Invoices.Create'],
  when: offered('downloadInvoice'),
  run: ({ state }) => state.paneRequest('downloadInvoice'),
};

export const markInvoicePaidCommand: Command = {
  id: 'billing.markPaid',
  title: 'Mark invoice paid',
  section: 'Record',
  keywords: ['invoice', 'paid', 'payment received', 'settle'],
  shortcut: 'Shift+B',
  permissions: ['Billing.Invoices.Create'],
  when: offered('markPaid'),
  run: ({ state }) => state.paneRequest('markPaid'),
};

export const issueCreditNoteCommand: Command = {
  id: 'billing.creditNote',
  title: 'Issue credit note',
  section: 'Record',
  keywords: ['invoice', 'credit note', 'correction', 'refund fees'],
  permissions: ['Billing.Invoices.Create'],
  when: offered('creditNote'),
  run: ({ state }) => state.paneRequest('creditNote'),
};

/** Focuses the invoice number search of the billing screen: type part of the number, Enter filters, Enter opens. */
export const goToInvoiceCommand: Command = {
  id: 'billing.goToInvoice',
  title: 'Go to invoice…',
  section: 'Navigation',
  keywords: ['invoice', 'number', 'find', 'INV', 'credit note'],
  permissions: ['Billing.Invoices.Create'],
  run: async ({ navigate, state, context }) => {
    if (context().route?.id !== 'billing') await navigate('/billing');
    setTimeout(() => state.paneRequest('search'), 0);
  },
};

export const billingCommands: readonly Command[] = [
  runBillingCommand,
  downloadInvoicePdfCommand,
  markInvoicePaidCommand,
  issueCreditNoteCommand,
  goToInvoiceCommand,
];
