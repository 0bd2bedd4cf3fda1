// The risk screens against a fake Portal API: the watch list's score colouring and actions, the
// beneficiary screens (ask the owner without the permission, IBAN checked in the form, alert resolution with a
// reason and a decision never preselected, who last changed it), and the customer screen (Unknown phone types hidden, erasure only after confirmation).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BeneficiariesPane } from '../../../panes/beneficiaries/beneficiaries-pane.tsx';
import { BeneficiaryDetailPane } from '../../../panes/beneficiaries/beneficiary-detail-pane.tsx';
import { ScreeningAlertsPane } from '../../../panes/beneficiaries/screening-alerts-pane.tsx';
import { CustomerDetailPane } from '../../../panes/customers/customer-detail-pane.tsx';
import { WatchEntryPane } from '../../../panes/watch-list/watch-entry-pane.tsx';
import { WatchListPane } from '../../../panes/watch-list/watch-list-pane.tsx';
import { askBusinessOwnerMessage } from '../../../src/contract/beneficiaries.ts';
import type { Beneficiary } from '../../../src/contract/beneficiary-schemas.ts';
import type { Customer } from '../../../src/contract/customer-schemas.ts';
import type { WatchListEntry } from '../../../src/contract/watch-list-schemas.ts';
import { formatDateTime } from '../../../src/format/dates.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

// The first render also builds the contract's schemas in the validation worker: slow on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

/** The fake API's recorded calls (its methods are vi.fn()s). */
const callsOf = (fn: unknown) => (fn as { mock: { calls: unknown[][] } }).mock.calls;

const entry = (merchantId: string, status: WatchListEntry['status'], score: number): WatchListEntry => ({
  merchantId,
  businessId: 'B1',
  merchantName: `Shop ${merchantId}`,
  businessName: 'Alpha Ltd',
  score,
  status,
  signals: [{ signal: 'cardTesting', value: 20, threshold: 15 }],
  trend: [0, 10, score],
  firstFlaggedUtc: '2026-11-20T10:00:00.000Z',
  lastComputedUtc: '2026-11-25T10:00:00.000Z',
  version: 3,
  ticketId: null,
});

describe('the account watch list', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.AccountWatchList.Read', 'Mapi.AccountWatchList.Update'], paths: ['/account-watch-list'] });
  });

  it('colours the score danger while open and success once acknowledged, with signals and a trend', async () => {
    fakeApi({
      '/account-watch-list': () => ({ results: [entry('M1', 'open', 68), entry('M2', 'acknowledged', 40)], numberOfResults: 2, signalsRefreshedUtc: null }),
    });
    renderWithServices(<WatchListPane params={{}} search="" capability="Account watch list" />);
    await screen.findByRole('rowheader', { name: 'Shop M1' }, { timeout: 15_000 });
    expect(screen.getByRole('grid', { name: 'Account watch list' })).toBeTruthy();
    const first = screen.getByRole('rowheader', { name: 'Shop M1' }).closest('tr') as HTMLElement;
    const second = screen.getByRole('rowheader', { name: 'Shop M2' }).closest('tr') as HTMLElement;
    expect(
      within(first as HTMLElement)
        .getByText('68')
        .getAttribute('data-tone'),
    ).toBe('danger');
    expect(
      within(second as HTMLElement)
        .getByText('40')
        .getAttribute('data-tone'),
    ).toBe('success');
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'Shop M1' })
        .getAttribute('href'),
    ).toBe('/account-watch-list/M1');
    expect(within(first as HTMLElement).getByText(/Card testing \(many small declines\): 20 small declines in a day \(threshold 15\)/)).toBeTruthy();
    expect(within(first as HTMLElement).getByRole('img', { name: 'Score over 3 days: from 0 to 68, highest 68' })).toBeTruthy();
  });

  it('acknowledges an entry with its version', async () => {
    const api = fakeApi({ '/account-watch-list/M1': () => ({ ...entry('M1', 'open', 68), notes: [], statusChangedBy: null, statusChangedUtc: null }) });
    renderWithServices(<WatchEntryPane params={{ merchantId: 'M1' }} search="" capability="Watch list entry" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(callsOf(api.put)[0]?.slice(0, 2)).toEqual(['/account-watch-list/M1/status', { status: 'acknowledged', version: 3 }]));
    expect(screen.getByRole('link', { name: 'Triggering transactions (last 7 days)' }).getAttribute('href')).toMatch(
      /^\/transactions\?merchantid=%5Beq%5DM1&date=%5Bgte%5D\d{4}-\d{2}-\d{2}$/,
    );
  });

  it('escalates to a ticket with the version and a chosen priority, then shows the ticket link and offers it no more', async () => {
    let ticketId: string | null = null;
    const api = fakeApi({
      '/account-watch-list/M1': () => ({
        ...entry('M1', 'open', 68),
        ticketId,
        version: ticketId ? 4 : 3,
        notes: [],
        statusChangedBy: null,
        statusChangedUtc: null,
      }),
    });
    (api.post as unknown as { mockImplementation: (fn: () => Promise<unknown>) => void }).mockImplementation(async () => {
      ticketId = 'TCK0A1B';
      return { ticketId, entry: { ...entry('M1', 'open', 68), ticketId, version: 4 } };
    });
    renderWithServices(<WatchEntryPane params={{ merchantId: 'M1' }} search="" capability="Watch list entry" />);
    expect(await screen.findByText('Not escalated', {})).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Escalate to a ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'Escalate to a ticket' });
    expect(within(dialog).getByText(/information request ticket is opened in Alpha Ltd about Shop M1, with the score \(68\)/)).toBeTruthy();
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Priority' }), 'Medium');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    await waitFor(() => expect(callsOf(api.post)[0]?.slice(0, 2)).toEqual(['/account-watch-list/M1/ticket', { version: 3, priority: 'Medium' }]));
    const link = await screen.findByRole('link', { name: 'Ticket TCK0A1B' });
    expect(link.getAttribute('href')).toBe('/tickets/TCK0A1B');
    expect((screen.getByRole('button', { name: 'Escalate to a ticket' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

const alertOf = (status: 'open' | 'dismissed') => ({
  alertId: 'SA1',
  beneficiaryId: 'BEN1',
  businessId: 'B1',
  businessName: 'Alpha Trading Ltd',
  beneficiaryName: 'Vadim Zolotarev',
  entryId: 'SL0001',
  list: 'sanctions' as const,
  listedName: 'Vadim Arkadyevich Zolotaryov',
  matchedName: 'Vadim Zolotarev',
  screenedName: 'Vadim Zolotarev',
  listedDateOfBirth: '1968-03-14',
  listedCountry: 'RU',
  listedReason: 'Fictional Eastern Programme: asset freeze',
  score: 1,
  status,
  reason: null,
  resolvedBy: null,
  resolvedUtc: null,
  createdUtc: '2026-11-25T10:00:00.000Z',
  version: 1,
});
const beneficiary: Beneficiary = {
  beneficiaryId: 'BEN1',
  businessId: 'B1',
  businessName: 'Alpha Trading Ltd',
  kind: 'person',
  name: 'Vadim Zolotarev',
  nameOnBankAccount: 'V Zolotarev',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  status: 'Referred',
  openAlerts: 1,
  createdUtc: '2026-11-25T10:00:00.000Z',
  companyName: null,
  firstName: 'Vadim',
  lastName: 'Zolotarev',
  dateOfBirth: '1968-03-14',
  countryIso3166Alpha2: 'FR',
  createdBy: 'Olivia Bennett',
  lastChangedBy: 'Olivia Bennett',
  statusChangedBy: null,
  statusChangedUtc: null,
  lastUpdatedUtc: '2026-11-25T10:00:00.000Z',
  version: 1,
  alerts: [alertOf('open')],
  approvable: false,
  approvalRefusal: 'This beneficiary has screening alerts that are open or confirmed: it cannot be approved.',
};

describe('the beneficiary screens', () => {
  beforeEach(() => resetStores());

  it('lists screening alerts with the business by name, its id beside it', async () => {
    signIn({ permissions: ['Mapi.Screening.Resolve'], paths: ['/screening-alerts'] });
    fakeApi({ '/screening-alerts': () => ({ results: [{ ...alertOf('open'), businessId: '100001', businessName: 'Harbour & Finch' }], numberOfResults: 1 }) });
    renderWithServices(<ScreeningAlertsPane params={{}} search="" capability="Screening alerts" />);
    const table = await screen.findByRole('grid', { name: 'Screening alerts' });
    const link = await within(table).findByRole('link', { name: 'Vadim Zolotarev' });
    expect(link.getAttribute('href')).toBe('/business/100001/beneficiaries/BEN1');
    const row = link.closest('tr');
    if (!row) throw new Error('no row');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    const cells = [...row.querySelectorAll('th, td')];
    expect(cells[headers.indexOf('Business')]?.textContent).toBe('Harbour & Finch (100001)');
  });

  it("names the business on the beneficiary an alert opens, and in the alert's decision dialog, its id only beside the name", async () => {
    signIn({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Screening.Resolve'], paths: ['/business/100001/beneficiaries/BEN1'] });
    const harbour: Beneficiary = {
      ...beneficiary,
      businessId: '100001',
      businessName: 'Harbour & Finch',
      alerts: [{ ...alertOf('open'), businessId: '100001', businessName: 'Harbour & Finch' }],
    };
    fakeApi({
      '/businesses/100001/beneficiaries/BEN1': () => harbour,
      '/user/businesses/100001/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Screening.Resolve'] }),
    });
    renderWithServices(<BeneficiaryDetailPane params={{ businessId: '100001', beneficiaryId: 'BEN1' }} search="" capability="Beneficiary" />);
    const term = await screen.findByText('Business', { selector: 'dt' });
    expect(term.nextElementSibling?.textContent).toBe('Harbour & Finch (100001)');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve alert: Vadim Arkadyevich Zolotaryov' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve screening alert' });
    expect(dialog.textContent).toContain('Vadim Zolotarev, beneficiary of Harbour & Finch, against Vadim Arkadyevich Zolotaryov');
    expect(dialog.textContent).not.toContain('100001');
  });

  it('tells a user without the set-up permission to ask the business owner', async () => {
    signIn({ permissions: ['Mapi.Beneficiary.Read'], paths: ['/business/B1/beneficiaries'] });
    fakeApi({
      '/businesses/B1/beneficiaries': () => ({ results: [], numberOfResults: 0 }),
      '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read'] }),
    });
    renderWithServices(<BeneficiariesPane params={{ businessId: 'B1' }} search="" capability="Beneficiaries" />);
    expect(await screen.findByText(askBusinessOwnerMessage, {})).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New beneficiary' })).toBeNull();
  });

  it('checks the IBAN in the form before sending anything', async () => {
    signIn({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Beneficiary.Create'], paths: ['/business/B1/beneficiaries'] });
    const api = fakeApi({
      '/businesses/B1/beneficiaries': () => ({ results: [], numberOfResults: 0 }),
      '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Beneficiary.Create'] }),
    });
    renderWithServices(<BeneficiariesPane params={{ businessId: 'B1' }} search="" capability="Beneficiaries" />);
    await userEvent.click(await screen.findByRole('button', { name: 'New beneficiary' }));
    const dialog = await screen.findByRole('dialog', { name: 'New beneficiary' });
    // The dialog places the focus on its first field on the next frame: typing starts once it has.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await userEvent.type(within(dialog).getByLabelText('Company name'), 'Kiln House Ceramics');
    await userEvent.type(within(dialog).getByLabelText('Name on the bank account'), 'Kiln House Ceramics');
    await userEvent.type(within(dialog).getByLabelText('IBAN'), 'GB82 WEST 1234 5698 7654 33');
    await userEvent.type(within(dialog).getByLabelText('BIC'), 'NWBKGB2L');
    expect(within(dialog).getByText('The IBAN check digits do not match: please check the IBAN.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and screen' }));
    expect(api.post).not.toHaveBeenCalled();
    await userEvent.clear(within(dialog).getByLabelText('IBAN'));
    await userEvent.type(within(dialog).getByLabelText('IBAN'), 'GB82 WEST 1234 5698 7654 32');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and screen' }));
    await waitFor(() =>
      expect(callsOf(api.post)[0]?.slice(0, 2)).toEqual([
        '/businesses/B1/beneficiaries',
        { kind: 'company', companyName: 'Kiln House Ceramics', nameOnBankAccount: 'Kiln House Ceramics', iban: 'GB82 WEST 1234 5698 7654 32', bic: 'NWBKGB2L' },
      ]),
    );
  });

  it('lets a risk analyst resolve an alert only with a reason, and says why approval is blocked', async () => {
    signIn({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Beneficiary.Approve', 'Mapi.Screening.Resolve'], paths: ['/business/B1/beneficiaries/BEN1'] });
    const api = fakeApi({
      '/businesses/B1/beneficiaries/BEN1': () => beneficiary,
      '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Beneficiary.Approve', 'Mapi.Screening.Resolve'] }),
    });
    renderWithServices(<BeneficiaryDetailPane params={{ businessId: 'B1', beneficiaryId: 'BEN1' }} search="" capability="Beneficiary" />);
    expect(((await screen.findByRole('button', { name: 'Approve' })) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(beneficiary.approvalRefusal ?? '')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resolve alert: Vadim Arkadyevich Zolotaryov' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve screening alert' });
    const record = within(dialog).getByRole('button', { name: 'Record decision' }) as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Reason (at least 5 characters)'), 'Passport shows another person');
    await userEvent.click(within(dialog).getByLabelText('False positive: dismiss'));
    await userEvent.click(record);
    await waitFor(() =>
      expect(callsOf(api.put)[0]?.slice(0, 2)).toEqual([
        '/businesses/B1/beneficiaries/BEN1/alerts/SA1',
        { decision: 'dismissed', reason: 'Passport shows another person', version: 1 },
      ]),
    );
  });

  it("starts a 100 % sanctions hit's dialog on neither choice; recording without one says what is missing and sends nothing", async () => {
    signIn({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Screening.Resolve'], paths: ['/business/B1/beneficiaries/BEN1'] });
    const api = fakeApi({
      '/businesses/B1/beneficiaries/BEN1': () => beneficiary,
      '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read', 'Mapi.Screening.Resolve'] }),
    });
    renderWithServices(<BeneficiaryDetailPane params={{ businessId: 'B1', beneficiaryId: 'BEN1' }} search="" capability="Beneficiary" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve alert: Vadim Arkadyevich Zolotaryov' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve screening alert' });
    expect(within(dialog).getByText(/score 100%/)).toBeTruthy();
    const dismiss = within(dialog).getByLabelText('False positive: dismiss') as HTMLInputElement;
    const confirm = within(dialog).getByLabelText('True match: confirm (the beneficiary is rejected)') as HTMLInputElement;
    expect([dismiss.checked, confirm.checked]).toEqual([false, false]);
    await userEvent.type(within(dialog).getByLabelText('Reason (at least 5 characters)'), 'Same person: passport and date of birth');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose a decision: true match or false positive.');
    expect(api.put).not.toHaveBeenCalled();
    await userEvent.click(confirm);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    await waitFor(() =>
      expect(callsOf(api.put)[0]?.slice(0, 2)).toEqual([
        '/businesses/B1/beneficiaries/BEN1/alerts/SA1',
        { decision: 'confirmed', reason: 'Same person: passport and date of birth', version: 1 },
      ]),
    );
  });

  it("shows the approver as the last changer, with the approval's time, and who changed the details otherwise", async () => {
    const approvedAt = '2026-11-26T15:30:00.000Z';
    const approved: Beneficiary = {
      ...beneficiary,
      status: 'Approved',
      openAlerts: 0,
      alerts: [],
      approvable: false,
      approvalRefusal: null,
      lastChangedBy: 'Priya Shah',
      statusChangedBy: 'Priya Shah',
      statusChangedUtc: approvedAt,
      lastUpdatedUtc: approvedAt,
      version: 2,
    };
    signIn({ permissions: ['Mapi.Beneficiary.Read'], paths: ['/business/B1/beneficiaries/BEN1'] });
    fakeApi({ '/businesses/B1/beneficiaries/BEN1': () => approved, '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read'] }) });
    const { unmount } = renderWithServices(<BeneficiaryDetailPane params={{ businessId: 'B1', beneficiaryId: 'BEN1' }} search="" capability="Beneficiary" />);
    const factOf = async (term: string) => (await screen.findByText(term, { selector: 'dt' })).nextElementSibling?.textContent;
    expect(await factOf('Last changed by')).toBe(`Priya Shah, ${formatDateTime(approvedAt)} (approved)`);
    expect(await factOf('Status')).toBe(`Approved (by Priya Shah, ${formatDateTime(approvedAt)})`);
    expect(await factOf('Created by')).toBe(`Olivia Bennett, ${formatDateTime(beneficiary.createdUtc)}`);
    unmount();
    resetStores();
    // Details changed after a decision: the changer, and the record waits for a new decision.
    const changedAt = '2026-11-27T09:00:00.000Z';
    signIn({ permissions: ['Mapi.Beneficiary.Read'], paths: ['/business/B1/beneficiaries/BEN1'] });
    fakeApi({
      '/businesses/B1/beneficiaries/BEN1': () => ({
        ...approved,
        status: 'Referred',
        lastChangedBy: 'Olivia Bennett',
        statusChangedBy: null,
        statusChangedUtc: null,
        lastUpdatedUtc: changedAt,
        version: 3,
      }),
      '/user/businesses/B1/permissions': () => ({ permissions: ['Mapi.Beneficiary.Read'] }),
    });
    renderWithServices(<BeneficiaryDetailPane params={{ businessId: 'B1', beneficiaryId: 'BEN1' }} search="" capability="Beneficiary" />);
    expect(await factOf('Last changed by')).toBe(`Olivia Bennett, ${formatDateTime(changedAt)} (details)`);
    expect(await factOf('Status')).toBe('Referred');
  });
});

const customer: Customer = {
  customerId: 'CUS1',
  reference: 'C-001',
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailAddress: 'ada@example.test',
  city: 'London',
  countryIso3166Alpha2: 'GB',
  createdUtc: '2026-01-01T10:00:00.000Z',
  businessId: 'B1',
  merchantId: 'M1',
  title: 'Dr.',
  middleName: null,
  dateOfBirth: '1990-12-10',
  billingAddress: {
    addressLine1: '1 High Street',
    city: 'London',
    countryIso3166Alpha2: 'GB',
    phoneNumber1: '+44 7700 900123',
    phoneNumber1Type: 'Mobile',
    phoneNumber2: '+44 20 7946 0000',
    phoneNumber2Type: 'Unknown',
  },
  shippingAddress: null,
  lastUpdatedUtc: '2026-01-01T10:00:00.000Z',
  version: 1,
  savedCards: 1,
};

describe('the customer screen', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'], paths: ['/business/B1/merchants/M1/customers/CUS1'] });
  });

  it('hides an Unknown phone type, and erases a saved card only after confirmation', async () => {
    const api = fakeApi({
      '/businesses/B1/merchants/M1/customers/CUS1': () => customer,
      '/businesses/B1/merchants/M1/customers/CUS1/data': () => ({
        results: [{ dataId: 'CD1', kind: 'savedCard', description: '555555******4444 expires 04/29, Ada Lovelace', createdUtc: '2026-01-02T10:00:00.000Z' }],
      }),
      '/user/businesses/B1/merchants/M1/permissions': () => ({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'] }),
    });
    renderWithServices(<CustomerDetailPane params={{ businessId: 'B1', merchantId: 'M1', customerId: 'CUS1' }} search="" capability="Customer" />);
    expect(await screen.findByText('+44 7700 900123 (Mobile)', {})).toBeTruthy();
    expect(screen.getByText('+44 20 7946 0000')).toBeTruthy();
    expect(screen.queryByText(/Unknown/)).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Erase saved card: 555555******4444 expires 04/29, Ada Lovelace' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Erase this item?' });
    expect(api.delete).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(callsOf(api.delete)[0]?.[0]).toBe('/businesses/B1/merchants/M1/customers/CUS1/data/CD1'));
  });
});
