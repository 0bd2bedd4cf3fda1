// The billing screens against a fake Portal API: the run (last month by default, preview from the ledger,
// 'Create invoices' only after a confirmation, a month billed twice explained), the invoices table, and an invoice's
// actions (mark paid with the version read, a credit note in major units sent as minor units).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BillingPane } from '../../../panes/billing/billing-pane.tsx';
import { InvoiceDetailPane, minorUnitsOf } from '../../../panes/billing/invoice-detail-pane.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import { previousMonthOf } from '../../../src/contract/billing.ts';
import type { Invoice, InvoiceListItem } from '../../../src/contract/billing-schemas.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const callsOf = (fn: unknown) => (fn as { mock: { calls: unknown[][] } }).mock.calls;
/** The fake API's methods are vi.fn()s: answers per test. */
const mockOf = (fn: unknown) => fn as ReturnType<typeof vi.fn>;

const listItem = (number: string, status: InvoiceListItem['status']): InvoiceListItem => ({
  invoiceId: `ID-${number}`,
  number,
  kind: 'invoice',
  month: '2026-09',
  businessId: 'B1',
  businessName: 'Alpha Ltd',
  currency: 'GBP',
  status,
  issuedUtc: '2026-10-03T09:00:00.000Z',
  dueUtc: '2026-10-17T09:00:00.000Z',
  paidUtc: null,
  totalMinor: 12_345,
  creditedInvoiceId: null,
  version: 1,
});
const preview = (month: string) => ({
  month,
  alreadyRun: false,
  invoices: [
    {
      businessId: 'B1',
      businessName: 'Alpha Ltd',
      currency: 'GBP',
      status: 'draft',
      feesMinor: 828,
      minimumTopUpMinor: 0,
      totalMinor: 828,
      lines: [
        {
          merchantId: 'M1',
          merchantName: 'Alpha Online',
          paymentMethod: 'card',
          description: 'Transaction fees, Card',
          transactionCount: 3,
          volumeMinor: 30_000,
          feesMinor: 828,
          minimumTopUpMinor: 0,
          amountMinor: 828,
        },
      ],
    },
  ],
  totals: [{ currency: 'GBP', feesMinor: 828, minimumTopUpMinor: 0, totalMinor: 828, invoiceCount: 1 }],
});

/** The billing screen with the router's query, as the workspace gives it. */
function Billing() {
  return <BillingPane params={{}} search={useSearch()} capability="Billing" />;
}

describe('the billing screen', { timeout: 20_000 }, () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Billing.Invoices.Create'], paths: ['/billing'] });
  });

  it('lists invoices with their status, overdue marked', async () => {
    fakeApi({ '/billing/invoices': () => ({ results: [listItem('INV-2026-000002', 'overdue'), listItem('INV-2026-000001', 'paid')], numberOfResults: 2 }) });
    renderWithServices(<BillingPane params={{}} search="" capability="Billing" />);
    const table = await screen.findByRole('grid', { name: 'Invoices' });
    const row = (await within(table).findByRole('rowheader', { name: 'INV-2026-000002' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Overdue').getAttribute('data-status')).toBe('overdue');
    expect(within(row).getByText('£123.45')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'INV-2026-000002' }).getAttribute('href')).toBe('/billing/invoices/ID-INV-2026-000002');
  });

  it('previews last month by default and creates the invoices only after confirming', async () => {
    const lastMonth = previousMonthOf(new Date());
    const api = fakeApi({ '/billing/runs': () => ({ results: [], numberOfResults: 0 }) });
    mockOf(api.post).mockImplementation(async (path: string, body: unknown) => {
      if (path === '/billing/runs/preview') return preview((body as { month: string }).month);
      if (path === '/billing/runs')
        return {
          runId: 'BR1',
          month: lastMonth,
          createdBy: 'Bill',
          createdUtc: '2026-11-25T10:00:00.000Z',
          invoiceCount: 1,
          invoiceNumbers: ['INV-2026-000003'],
        };
      return undefined;
    });
    renderWithServices(<BillingPane params={{}} search="?tab=run" capability="Billing" />);
    const month = (await screen.findByLabelText('Month', {})) as HTMLInputElement;
    // The portal's month entry shows mm/yyyy.
    expect(month.value).toBe(`${lastMonth.slice(5, 7)}/${lastMonth.slice(0, 4)}`);
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const table = await screen.findByRole('table', { name: /Preview: 1 draft invoices/ });
    expect(within(table).getByRole('rowheader', { name: 'Alpha Ltd (B1)' })).toBeTruthy();
    expect(within(table).getAllByText('£8.28').length).toBeGreaterThan(0);
    expect(callsOf(api.post).filter(([path]) => path === '/billing/runs')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Create invoices' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/1 invoices will be issued/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invoices' }));
    await waitFor(() => expect(callsOf(api.post).find(([path]) => path === '/billing/runs')?.[1]).toEqual({ month: lastMonth }));
  });

  it('applies the typed filters on Enter in their fields, the month with the portal’s month entry, statuses from its choice list', async () => {
    const api = fakeApi({ '/billing/invoices': () => ({ results: [listItem('INV-2026-000002', 'overdue')], numberOfResults: 1 }) });
    const location = memoryLocation({ path: '/billing', record: true });
    renderWithServices(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Billing />
      </Router>,
    );
    const user = userEvent.setup();
    await screen.findByRole('grid', { name: 'Invoices' });
    await user.click(screen.getByRole('searchbox', { name: 'Invoice number' }));
    await user.keyboard('INV-2026-000002{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/billing?number=INV-2026-000002'));
    const month = screen.getByRole('textbox', { name: 'Month' });
    await user.click(month);
    await user.keyboard('10/2026');
    expect(screen.getByText('October 2026')).toBeTruthy();
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/billing?month=2026-11&number=INV-2026-000002'));
    // A year beyond 9999 is refused with the reason, nothing applied.
    await user.clear(month);
    await user.keyboard('10/20261{Enter}');
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toContain('The year must be 9999 or earlier.');
    expect(location.history?.at(-1)).toBe('/billing?month=2026-11&number=INV-2026-000002');
    await user.clear(month);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/billing?number=INV-2026-000002'));
    // Statuses: the choice list, ticked by Space and applied by Enter, sent as one filter.
    await user.click(screen.getByRole('button', { name: 'Status: Any' }));
    // The list takes the keyboard on the next frame: the keys are for it.
    await waitFor(() => expect(document.activeElement?.closest('.choice-list')).toBeTruthy());
    await user.keyboard(' {ArrowDown} {Enter}');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/billing?status=issued%2Coverdue&number=INV-2026-000002'));
    await waitFor(() =>
      expect(
        api.get.mock.calls.some(
          ([path, options]) => path === '/billing/invoices' && (options as { query: Record<string, string> }).query.status === '[eq]issued[and][eq]overdue',
        ),
      ).toBe(true),
    );
  });

  it('explains a month that was billed already', async () => {
    const api = fakeApi({ '/billing/runs': () => ({ results: [], numberOfResults: 0 }) });
    const message = 'Invoices for October 2026 have already been created. A month is billed once; correct an invoice with a credit note.';
    mockOf(api.post).mockImplementation(async (path: string, body: unknown) => {
      if (path === '/billing/runs/preview') return preview((body as { month: string }).month);
      throw new ApiError({ status: 409, messages: [message], kind: 'http', handled: false });
    });
    renderWithServices(<BillingPane params={{}} search="?tab=run&runmonth=2026-10" capability="Billing" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create invoices' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Create invoices' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });
});

describe('an invoice', { timeout: 20_000 }, () => {
  const invoice: Invoice = {
    ...listItem('INV-2026-000002', 'overdue'),
    version: 4,
    feesMinor: 12_345,
    minimumTopUpMinor: 0,
    reason: null,
    creditedInvoiceNumber: null,
    creditNotes: [],
    creditableMinor: 12_345,
    lines: [
      {
        merchantId: 'M1',
        merchantName: 'Alpha Online',
        paymentMethod: 'applePay',
        description: 'Transaction fees, Apple Pay',
        transactionCount: 10,
        volumeMinor: 600_000,
        feesMinor: 12_345,
        minimumTopUpMinor: 0,
        amountMinor: 12_345,
      },
    ],
  };
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Billing.Invoices.Create'], paths: ['/billing/invoices/ID-INV-2026-000002'] });
  });

  it('shows lines and totals, marks paid with the version read', async () => {
    const api = fakeApi({ '/billing/invoices/ID-INV-2026-000002': () => invoice });
    mockOf(api.put).mockImplementation(async () => ({ ...invoice, status: 'paid', version: 5 }));
    renderWithServices(<InvoiceDetailPane params={{ invoiceId: 'ID-INV-2026-000002' }} search="" capability="Invoice" />);
    expect(await screen.findByRole('heading', { name: 'Invoice INV-2026-000002' })).toBeTruthy();
    const lines = screen.getByRole('table', { name: 'Invoice lines' });
    expect(within(lines).getByText('Apple Pay')).toBeTruthy();
    expect(within(lines).getByText('£6,000.00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Mark paid' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(callsOf(api.put)[0]?.slice(0, 2)).toEqual(['/billing/invoices/ID-INV-2026-000002/status', { status: 'paid', version: 4 }]));
  });

  it('issues a credit note with a reason, the amount read in pounds and sent in pence', async () => {
    const api = fakeApi({ '/billing/invoices/ID-INV-2026-000002': () => invoice });
    mockOf(api.post).mockImplementation(async () => ({ ...invoice, kind: 'creditNote', number: 'CN-2026-000001', totalMinor: -1_050, creditableMinor: 0 }));
    renderWithServices(<InvoiceDetailPane params={{ invoiceId: 'ID-INV-2026-000002' }} search="" capability="Invoice" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Issue credit note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Issue a credit note for INV-2026-000002' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Duplicate fee');
    await userEvent.type(within(dialog).getByLabelText(/Amount in GBP/), '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('At most £123.45 is left to credit.');
    await userEvent.clear(within(dialog).getByLabelText(/Amount in GBP/));
    await userEvent.type(within(dialog).getByLabelText(/Amount in GBP/), '10.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
    await waitFor(() =>
      expect(callsOf(api.post)[0]?.slice(0, 2)).toEqual(['/billing/invoices/ID-INV-2026-000002/credit-notes', { reason: 'Duplicate fee', amountMinor: 1_050 }]),
    );
  });

  it('shows the balance due after credit notes, and links the business and its pricing plan', async () => {
    const credited: Invoice = {
      ...invoice,
      creditableMinor: 12_345 - 1_050 - 2_000,
      creditNotes: [
        { invoiceId: 'ID-CN-2026-000001', number: 'CN-2026-000001', totalMinor: -1_050, issuedUtc: '2026-11-03T10:00:00.000Z' },
        { invoiceId: 'ID-CN-2026-000002', number: 'CN-2026-000002', totalMinor: -2_000, issuedUtc: '2026-11-04T10:00:00.000Z' },
      ],
    };
    fakeApi({ '/billing/invoices/ID-INV-2026-000002': () => credited });
    renderWithServices(<InvoiceDetailPane params={{ invoiceId: 'ID-INV-2026-000002' }} search="" capability="Invoice" />);
    expect(await screen.findByRole('heading', { name: 'Invoice INV-2026-000002' })).toBeTruthy();
    // £123.45 less £10.50 and £20.00 credited.
    expect(screen.getByTestId('balance-due').textContent).toBe('£92.95');
    const lines = screen.getByRole('table', { name: 'Invoice lines' });
    expect(within(lines).getByRole('rowheader', { name: 'Credited' }).nextElementSibling?.textContent).toBe('-£30.50');
    expect(within(lines).getByRole('rowheader', { name: 'Balance due' }).nextElementSibling?.textContent).toBe('£92.95');
    expect(screen.getByRole('link', { name: credited.businessName }).getAttribute('href')).toBe(`/business/${credited.businessId}`);
    expect(screen.getByRole('link', { name: 'pricing plan' }).getAttribute('href')).toBe(`/business/${credited.businessId}/pricing-plan`);
  });

  it("reads amounts in the currency's decimals", () => {
    expect(minorUnitsOf('10.5', 'GBP')).toBe(1_050);
    expect(minorUnitsOf('10', 'GBP')).toBe(1_000);
    expect(minorUnitsOf('10.555', 'GBP')).toBeNull();
    expect(minorUnitsOf('1500', 'JPY')).toBe(1_500);
    expect(minorUnitsOf('15.5', 'JPY')).toBeNull();
    expect(minorUnitsOf('abc', 'GBP')).toBeNull();
    vi.restoreAllMocks();
  });
});
