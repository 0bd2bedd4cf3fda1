// Adding and changing a merchant's customer against a fake Portal API: the add dialog shows each field's
// problem in the generic wording and sends nothing until they are fixed, then opens the new customer; the edit
// dialog sends the version it started from and keeps what it does not show (the second phone); the commands are
// offered only where the screen answers them; the body builder as a table of cases.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../commands/command.ts';
import { addCustomerCommand } from '../../../commands/customers/add-customer.ts';
import { editCustomerCommand } from '../../../commands/customers/edit-customer.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { CustomerDetailPane } from '../../../panes/customers/customer-detail-pane.tsx';
import { customerBodyOf, customerDraftOf, customerDraftProblems, emptyCustomerDraft } from '../../../panes/customers/customer-form.tsx';
import { CustomersPane } from '../../../panes/customers/customers-pane.tsx';
import type { Customer } from '../../../src/contract/customer-schemas.ts';
import type { PaneCapability } from '../../../src/state/workspace-store.ts';
import { baseContext, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 30_000 });

const callsOf = (fn: unknown) => (fn as { mock: { calls: unknown[][] } }).mock.calls;
const base = '/businesses/B1/merchants/M1/customers';
const permissionsPath = '/user/businesses/B1/merchants/M1/permissions';

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
  version: 4,
  savedCards: 1,
};

describe('adding a customer', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'], paths: ['/business/B1/merchants/M1/customers'] });
  });

  it('names each problem, sends nothing until fixed, then sends the customer', async () => {
    const api = fakeApi({
      [base]: () => ({ results: [], numberOfResults: 0 }),
      [permissionsPath]: () => ({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'] }),
    });
    vi.mocked(api.post).mockImplementation(async () => ({ ...customer, customerId: 'CUS9', reference: 'C-900', version: 1 }) as never);
    renderWithServices(<CustomersPane params={{ businessId: 'B1', merchantId: 'M1' }} search="" capability="Customers" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add a customer' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a customer' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Reference/ }), 'C 900');
    await user.type(within(dialog).getByRole('textbox', { name: /^Last name/ }), 'Hopper');
    await user.type(within(dialog).getByRole('textbox', { name: /^Phone number/ }), 'call me');
    await user.click(within(dialog).getByRole('button', { name: 'Add customer' }));
    expect(within(dialog).getByText('Reference is invalid')).toBeTruthy();
    expect(within(dialog).getByText('First name is required')).toBeTruthy();
    expect(within(dialog).getByText('Phone number is invalid')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('textbox', { name: /^First name/ })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(api.post).not.toHaveBeenCalled();

    const reference = within(dialog).getByRole('textbox', { name: /^Reference/ });
    await user.clear(reference);
    await user.type(reference, 'C-900');
    await user.type(within(dialog).getByRole('textbox', { name: /^First name/ }), 'Grace');
    const phone = within(dialog).getByRole('textbox', { name: /^Phone number/ });
    await user.clear(phone);
    await user.type(phone, '+1 212 555 0100');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Phone type' }), 'Mobile');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Country' }), 'US');
    await user.click(within(dialog).getByRole('button', { name: 'Add customer' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(1));
    expect(callsOf(api.post)[0]?.slice(0, 2)).toEqual([
      base,
      {
        reference: 'C-900',
        title: null,
        firstName: 'Grace',
        middleName: null,
        lastName: 'Hopper',
        emailAddress: null,
        dateOfBirth: null,
        billingAddress: {
          addressLine1: null,
          addressLine2: null,
          zipCode: null,
          city: null,
          countryIso3166Alpha2: 'US',
          phoneNumber1: '+1 212 555 0100',
          phoneNumber1Type: 'Mobile',
        },
        shippingAddress: null,
      },
    ]);
  });

  it('offers no add to those who may only read customers', async () => {
    signIn({ permissions: ['Mapi.Customers.Read'], paths: ['/business/B1/merchants/M1/customers'] });
    fakeApi({ [base]: () => ({ results: [], numberOfResults: 0 }), [permissionsPath]: () => ({ permissions: ['Mapi.Customers.Read'] }) });
    renderWithServices(<CustomersPane params={{ businessId: 'B1', merchantId: 'M1' }} search="" capability="Customers" />);
    expect(await screen.findByText('This merchant has no stored customers.', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a customer' })).toBeNull();
  });
});

describe('changing a customer', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'], paths: ['/business/B1/merchants/M1/customers/CUS1'] });
  });

  it('sends the version it started from and keeps the fields it does not show', async () => {
    const api = fakeApi({
      [`${base}/CUS1`]: () => customer,
      [`${base}/CUS1/data`]: () => ({ results: [] }),
      [permissionsPath]: () => ({ permissions: ['Mapi.Customers.Read', 'Mapi.Customers.Update'] }),
    });
    vi.mocked(api.put).mockImplementation(async () => ({ ...customer, lastName: 'King', version: 5 }) as never);
    renderWithServices(<CustomerDetailPane params={{ businessId: 'B1', merchantId: 'M1', customerId: 'CUS1' }} search="" capability="Customer" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit customer' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit customer' });
    const lastName = within(dialog).getByRole('textbox', { name: /^Last name/ });
    expect((lastName as HTMLInputElement).value).toBe('Lovelace');
    await user.clear(lastName);
    await user.type(lastName, 'King');
    await user.click(within(dialog).getByRole('button', { name: 'Save customer' }));
    await waitFor(() => expect(api.put).toHaveBeenCalledTimes(1));
    const [path, body] = callsOf(api.put)[0] as [string, Record<string, unknown> & { billingAddress: Record<string, unknown> }];
    expect(path).toBe(`${base}/CUS1`);
    expect(body).toMatchObject({ version: 4, reference: 'C-001', title: 'Dr.', firstName: 'Ada', lastName: 'King', dateOfBirth: '1990-12-10' });
    expect(body.billingAddress).toMatchObject({
      addressLine1: '1 High Street',
      phoneNumber1: '+44 7700 900123',
      phoneNumber1Type: 'Mobile',
      phoneNumber2: '+44 20 7946 0000',
      phoneNumber2Type: 'Unknown',
    });
    expect(await screen.findByRole('heading', { name: 'Dr. Ada King', level: 1 })).toBeTruthy();
  });
});

describe('customer commands and forms', () => {
  const on = (routeId: string, capabilities: string[], permissions = ['Mapi.Customers.Read', 'Mapi.Customers.Update']): CommandContext =>
    baseContext({
      permissions,
      route: { id: routeId, pattern: null, path: '/business/B1/merchants/M1/customers' },
      focusedPane: { id: 'pane-1', capabilities: capabilities as unknown as readonly PaneCapability[] },
    });

  it.each([
    ['add on the customers', addCustomerCommand, on('customers', ['newItem']), true],
    ['add while the form is open', addCustomerCommand, on('customers', []), false],
    ['add without the permission', addCustomerCommand, on('customers', ['newItem'], ['Mapi.Customers.Read']), false],
    ['add elsewhere', addCustomerCommand, on('tickets', ['newItem']), false],
    ['edit on a customer', editCustomerCommand, on('customerDetail', ['edit']), true],
    ['edit while editing', editCustomerCommand, on('customerDetail', []), false],
    ['edit without the permission', editCustomerCommand, on('customerDetail', ['edit'], ['Mapi.Customers.Read']), false],
  ])('%s', (_label, command, ctx, expected) => {
    expect(isAvailable(command, ctx)).toBe(expected);
  });

  it('checks drafts as the server does, and turns them into bodies', () => {
    expect(customerDraftProblems(emptyCustomerDraft, '2026-11-26')).toEqual({
      reference: 'Reference is required',
      firstName: 'First name is required',
      lastName: 'Last name is required',
    });
    expect(customerDraftProblems({ ...customerDraftOf(customer), dateOfBirth: '2027-01-01', emailAddress: 'ada@', country: 'ZZ' }, '2026-11-26')).toEqual({
      dateOfBirth: 'Date of birth is in the future',
      emailAddress: 'Email address is invalid',
      'billingAddress.countryIso3166Alpha2': 'Country is invalid',
    });
    expect(customerDraftProblems(customerDraftOf(customer), '2026-11-26')).toEqual({});
    // An address emptied of everything the form shows keeps what it does not show; a customer without one sends none.
    const emptied = { ...customerDraftOf(customer), addressLine1: '', city: '', country: '', phoneNumber: '', phoneType: '' };
    expect(customerBodyOf(emptied, customer).billingAddress).toMatchObject({
      addressLine1: null,
      phoneNumber1: null,
      phoneNumber1Type: null,
      phoneNumber2: '+44 20 7946 0000',
    });
    expect(customerBodyOf({ ...emptyCustomerDraft, reference: 'R', firstName: 'A', lastName: 'B' }).billingAddress).toBeNull();
  });
});
