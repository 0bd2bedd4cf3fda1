// The business and merchant detail screens: details, merchants table, recent activity, the versioned edit form
// (generic messages; a 409 the user stays on keeps the edits and shows the other side's values), the merchant's
// account groups from the ledger, and the link that switches the context to a merchant.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BusinessDetailPane } from '../../../panes/business/business-detail-pane.tsx';
import { MerchantDetailPane } from '../../../panes/business/merchant-detail-pane.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import type { BusinessDetail, MerchantDetail } from '../../../src/contract/configuration-schemas.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const business = (overrides: Partial<BusinessDetail> = {}): BusinessDetail => ({
  businessId: 'B1',
  businessName: 'Alpha Trading Ltd',
  businessUrl: null,
  camAutoRemittance: true,
  live: true,
  partnerId: 'P1',
  partnerName: 'Northwind Partners',
  version: 2,
  createDateTimeUtc: '2026-01-01T10:00:00.000Z',
  editable: true,
  recentActivity: [{ event: 'ConfigurationCreated', dateTimeUtc: '2026-11-01T10:00:00.000Z', merchantId: 'M1', userName: 'Priya Shah' }],
  ...overrides,
});
const merchant = (overrides: Partial<MerchantDetail> = {}): MerchantDetail => ({
  merchantId: 'M1',
  merchantName: 'Alpha Online',
  businessId: 'B1',
  merchantUrl: 'https://alpha.example',
  supportUrl: null,
  supportEmail: null,
  grossSettlement: false,
  currencies: ['GBP', 'EUR'],
  live: true,
  version: 1,
  businessName: 'Alpha Trading Ltd',
  createDateTimeUtc: '2026-01-01T10:00:00.000Z',
  configurations: [{ configurationId: 'C1', tradeName: 'Alpha web shop' }],
  editable: false,
  ...overrides,
});

/** Opens the edit form; it puts the keyboard in its first field on the next frame, so typing starts once it has. */
async function startEditing(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Edit details' }));
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Business name/ })));
}

describe('the business detail', () => {
  beforeEach(() => resetStores());

  it('shows the details, its merchants and the recent activity', async () => {
    signIn({ permissions: ['Mapi.Business.Read'], paths: ['/business/B1'] });
    fakeApi({
      '/businesses/B1': () => business({ editable: false }),
      '/businesses/B1/merchants': () => ({
        results: [
          {
            merchantId: 'M1',
            merchantName: 'Alpha Online',
            businessId: 'B1',
            merchantUrl: null,
            supportUrl: null,
            supportEmail: null,
            grossSettlement: true,
            currencies: ['GBP'],
            live: true,
          },
        ],
        numberOfResults: 1,
      }),
    });
    renderWithServices(<BusinessDetailPane params={{ businessId: 'B1' }} search="" capability="Business detail" />);
    expect(await screen.findByRole('heading', { name: 'Alpha Trading Ltd', level: 1 })).toBeTruthy();
    expect(screen.getByText('Northwind Partners (P1)')).toBeTruthy();
    const merchants = await screen.findByRole('grid', { name: 'Merchants' });
    expect(within(merchants).getByText('Gross')).toBeTruthy();
    expect(screen.getByText('Configuration created (merchant M1)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit details' })).toBeNull();
  });

  it('edits under the version rule: generic messages, then Stay after a conflict keeps the edits', async () => {
    signIn({ permissions: ['Mapi.Business.Read', 'Mapi.Business.Update'], paths: ['/business/B1'] });
    let current = business();
    const api = fakeApi({ '/businesses/B1': () => current, '/businesses/B1/merchants': () => ({ results: [], numberOfResults: 0 }) });
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockImplementationOnce(async () => {
      current = business({ businessName: 'Alpha Group Ltd', version: 3 });
      throw new ApiError({ status: 409, messages: ['Someone updated this view'], kind: 'conflictKept', handled: true });
    });
    renderWithServices(<BusinessDetailPane params={{ businessId: 'B1' }} search="" capability="Business detail" />);
    const user = userEvent.setup();
    await startEditing(user);
    const name = screen.getByRole('textbox', { name: /^Business name/ });
    await user.clear(name);
    await user.type(screen.getByRole('textbox', { name: /^Business URL/ }), 'ftp://nope');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Business name is required')).toBeTruthy();
    expect(screen.getByText('Business URL is invalid')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
    await user.type(name, 'Alpha Trading plc');
    await user.clear(screen.getByRole('textbox', { name: /^Business URL/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else saved this business meanwhile: name 'Alpha Group Ltd'/)).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /^Business name/ }) as HTMLInputElement).value).toBe('Alpha Trading plc');
    put.mockResolvedValueOnce(business({ businessName: 'Alpha Trading plc', version: 4 }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(2));
    expect(put.mock.calls[1]?.[1]).toEqual({ businessName: 'Alpha Trading plc', businessUrl: null, version: 3 });
  });
});

describe('a live refresh while editing', () => {
  beforeEach(() => resetStores());

  it("never overwrites the edits: 'This record changed', a save still sends the version the edits started from", async () => {
    signIn({ permissions: ['Mapi.Business.Read', 'Mapi.Business.Update'], paths: ['/business/B1'] });
    let current = business();
    const api = fakeApi({ '/businesses/B1': () => current, '/businesses/B1/merchants': () => ({ results: [], numberOfResults: 0 }) });
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockImplementationOnce(async () => {
      throw new ApiError({ status: 409, messages: ['Someone updated this view'], kind: 'conflictKept', handled: true });
    });
    const { services } = renderWithServices(<BusinessDetailPane params={{ businessId: 'B1' }} search="" capability="Business detail" />);
    const user = userEvent.setup();
    await startEditing(user);
    const name = screen.getByRole('textbox', { name: /^Business name/ });
    await user.clear(name);
    await user.type(name, 'Alpha Trading plc');
    // Someone else saves meanwhile; the live event refetches the business (as src/app/live-events.ts does).
    current = business({ businessName: 'Alpha Group Ltd', version: 3 });
    await services.queryClient.invalidateQueries({ queryKey: ['businesses'] });
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('This record changed.');
    expect((screen.getByRole('textbox', { name: /^Business name/ }) as HTMLInputElement).value).toBe('Alpha Trading plc');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]?.[1]).toMatchObject({ businessName: 'Alpha Trading plc', version: 2 });
    // The 409 the user stays on: their version is shown for comparison; the notice has done its work.
    expect(await screen.findByText(/Someone else saved this business meanwhile: name 'Alpha Group Ltd'/)).toBeTruthy();
    expect(screen.queryByText('This record changed.')).toBeNull();
  });

  it('Reload takes the newer record and drops the edits', async () => {
    signIn({ permissions: ['Mapi.Business.Read', 'Mapi.Business.Update'], paths: ['/business/B1'] });
    let current = business();
    fakeApi({ '/businesses/B1': () => current, '/businesses/B1/merchants': () => ({ results: [], numberOfResults: 0 }) });
    const { services } = renderWithServices(<BusinessDetailPane params={{ businessId: 'B1' }} search="" capability="Business detail" />);
    const user = userEvent.setup();
    await startEditing(user);
    await user.type(screen.getByRole('textbox', { name: /^Business URL/ }), 'https://alpha.example');
    current = business({ businessName: 'Alpha Group Ltd', version: 3 });
    await services.queryClient.invalidateQueries({ queryKey: ['businesses'] });
    await user.click(await screen.findByRole('button', { name: 'Reload and discard my edits' }));
    expect((screen.getByRole('textbox', { name: /^Business name/ }) as HTMLInputElement).value).toBe('Alpha Group Ltd');
    expect((screen.getByRole('textbox', { name: /^Business URL/ }) as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('This record changed.')).toBeNull();
  });

  it("keeps the edits knowingly: 'Keep my edits' shows their version and the next save replaces it", async () => {
    signIn({ permissions: ['Mapi.Business.Read', 'Mapi.Business.Update'], paths: ['/business/B1'] });
    let current = business();
    const api = fakeApi({ '/businesses/B1': () => current, '/businesses/B1/merchants': () => ({ results: [], numberOfResults: 0 }) });
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockResolvedValueOnce(business({ businessName: 'Alpha Trading plc', version: 4 }));
    const { services } = renderWithServices(<BusinessDetailPane params={{ businessId: 'B1' }} search="" capability="Business detail" />);
    const user = userEvent.setup();
    await startEditing(user);
    const name = screen.getByRole('textbox', { name: /^Business name/ });
    await user.clear(name);
    await user.type(name, 'Alpha Trading plc');
    current = business({ businessName: 'Alpha Group Ltd', version: 3 });
    await services.queryClient.invalidateQueries({ queryKey: ['businesses'] });
    await user.click(await screen.findByRole('button', { name: 'Keep my edits' }));
    expect(screen.getByText(/Someone else saved this business meanwhile: name 'Alpha Group Ltd'/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]?.[1]).toMatchObject({ businessName: 'Alpha Trading plc', version: 3 });
  });
});

describe('the merchant detail', () => {
  beforeEach(() => resetStores());

  it('offers to switch the context to it, lists its configurations and links its account groups', async () => {
    signIn({ permissions: ['Mapi.Merchant.Read'], paths: ['/business/B1/merchants/M1'] });
    fakeApi({
      '/businesses/B1/merchants/M1': () => merchant(),
      '/businesses/B1/merchants/M1/merchant-accountgroups': () => ({
        results: [
          {
            accountNumber: '3M1070215',
            businessId: 'B1',
            merchantId: 'M1',
            merchantName: 'Alpha Online',
            currency: 'GBP',
            grossSettlement: false,
            reservePercentage: 0,
            reserveDays: 60,
            balances: [
              { kind: 'trading', balance: 1234.5 },
              { kind: 'reserve', balance: 0 },
            ],
          },
        ],
        numberOfResults: 1,
      }),
    });
    renderWithServices(<MerchantDetailPane params={{ businessId: 'B1', merchantId: 'M1' }} search="" capability="Merchant detail" />);
    expect(await screen.findByRole('heading', { name: 'Alpha Online', level: 1 })).toBeTruthy();
    expect(screen.getByText('Alpha web shop')).toBeTruthy();
    const group = await screen.findByRole('link', { name: '3M1070215' });
    expect(group.getAttribute('href')).toBe('/business/B1/merchants/M1/merchant-accounts-overview/3M1070215');
    expect(screen.getByText('GBP · trading £1,234.50')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch context to this merchant' })).toBeTruthy();
    expect(screen.getByText('GBP, EUR')).toBeTruthy();
  });

  it('says so when the caller may not read the account groups', async () => {
    signIn({ permissions: ['Mapi.Merchant.Read'], paths: ['/business/B1/merchants/M1'] });
    fakeApi({
      '/businesses/B1/merchants/M1': () => merchant(),
      '/businesses/B1/merchants/M1/merchant-accountgroups': () => {
        throw new ApiError({ status: 403, messages: ['You do not have the correct permissions.'], kind: 'http', handled: true });
      },
    });
    renderWithServices(<MerchantDetailPane params={{ businessId: 'B1', merchantId: 'M1' }} search="" capability="Merchant detail" />);
    expect(await screen.findByText('You do not have the correct permissions.', undefined)).toBeTruthy();
  });
});
