// The partners screens: the commission plan (rules in priority order, in words; commission earned per month and
// currency; a plan out of reach), the partner detail (plans, businesses opening in the partner's frame, users
// linking to the partner user routes), and the rule wording and route helpers as tables of cases.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { partnerBusinessOfPath, partnerIdOfPath } from '../../../commands/partners/partner-route.ts';
import { describeBand, describeConditions, describeEarning, formatMonth } from '../../../panes/partners/commission-format.ts';
import { CommissionPlanPane } from '../../../panes/partners/commission-plan-pane.tsx';
import { newRuleDraft, planDraftOf, planEditOf } from '../../../panes/partners/commission-plan-form.tsx';
import { basisPointsOfPercent, checkCommissionPlanEdit } from '../../../src/contract/partners.ts';
import { declinedTransactionsPath, declinesViewOf } from '../../../panes/partners/partner-declines-pane.tsx';
import { PartnerDetailPane } from '../../../panes/partners/partner-detail-pane.tsx';
import { PartnerBusinessPane } from '../../../panes/partners/partner-frame-panes.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import type { CommissionPlanDetail, CommissionRule, PartnerDetail } from '../../../src/contract/partner-schemas.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const rule = (overrides: Partial<CommissionRule>): CommissionRule => ({
  ruleId: 'R',
  priority: 10,
  description: 'Rule',
  volumeFromMinor: 0,
  volumeToMinor: null,
  percentageBasisPoints: 0,
  fixedMinor: 0,
  channel: null,
  currency: null,
  paymentMethod: null,
  cardType: null,
  ...overrides,
});

const plan: CommissionPlanDetail = {
  commissionPlanId: 'CP-P1',
  partnerId: 'P1',
  partnerName: 'Northwind Partners',
  name: 'Tiered revenue share',
  validFrom: '2026-01-01',
  validTo: null,
  status: 'Active',
  version: 1,
  editable: false,
  rules: [
    rule({ ruleId: 'R5', priority: 5, description: 'MOTO orders', channel: 'Moto', percentageBasisPoints: 1200 }),
    rule({
      ruleId: 'R30',
      priority: 30,
      description: 'GBP from £250,000',
      currency: 'GBP',
      volumeFromMinor: 25_000_000,
      percentageBasisPoints: 3000,
      fixedMinor: 2,
    }),
    rule({ ruleId: 'R80', priority: 80, description: 'Any other fee', percentageBasisPoints: 1500 }),
  ],
  months: [
    { month: '2026-10', currency: 'GBP', volumeMinor: 30_000_000, feesMinor: 612_345, transactionCount: 4_210, unmatchedCount: 0, commissionMinor: 183_704 },
    { month: '2026-10', currency: 'EUR', volumeMinor: 1_000_000, feesMinor: 20_000, transactionCount: 300, unmatchedCount: 3, commissionMinor: 3_000 },
  ],
  totals: [
    { currency: 'EUR', feesMinor: 20_000, commissionMinor: 3_000 },
    { currency: 'GBP', feesMinor: 612_345, commissionMinor: 183_704 },
  ],
};

describe('the commission plan screen', () => {
  beforeEach(() => resetStores());

  it('shows the rules in priority order in words and the commission earned per month', async () => {
    signIn({ permissions: ['Mapi.Partner.Read'], paths: ['/partners/P1/commissions/CP-P1'] });
    fakeApi({ '/partners/P1/commission-plans/CP-P1': () => plan });
    renderWithServices(<CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1' }} search="" capability="Commission plan" />);
    // The suite's first render also warms the validation worker: a generous ceiling on a loaded machine.
    expect(await screen.findByRole('heading', { name: 'Tiered revenue share', level: 1 }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Northwind Partners' }).getAttribute('href')).toBe('/partners/P1');
    expect(screen.getByText('£1,837.04', { selector: 'dd' })).toBeTruthy();

    const rules = screen.getByRole('table', { name: /Rules of Tiered revenue share/ });
    const ruleRows = within(rules).getAllByRole('row').slice(1);
    expect(ruleRows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['MOTO orders', 'GBP from £250,000', 'Any other fee']);
    expect(within(ruleRows[0] as HTMLElement).getByText('MOTO (mail and telephone order)')).toBeTruthy();
    expect(within(ruleRows[1] as HTMLElement).getByText('From £250,000.00')).toBeTruthy();
    expect(within(ruleRows[1] as HTMLElement).getByText('30% of the fee + £0.02 a transaction')).toBeTruthy();
    expect(within(ruleRows[2] as HTMLElement).getByText('All transactions')).toBeTruthy();

    const months = screen.getByRole('table', { name: /Commission earned per month/ });
    const gbp = within(months).getAllByRole('row')[1] as HTMLElement;
    expect(within(gbp).getByRole('rowheader').textContent).toBe('October 2026');
    expect(within(gbp).getByText('£6,123.45')).toBeTruthy();
    expect(within(gbp).getByText('£1,837.04')).toBeTruthy();
    expect(within(months).getByText('300 (3 matched no rule)')).toBeTruthy();
  });

  it('edits the plan for those allowed: field problems in the generic wording, then the whole plan is sent with its version', async () => {
    signIn({ permissions: ['Mapi.Partner.Read', 'Mapi.CommissionPlans.Update'], paths: ['/partners/P1/commissions/CP-P1'] });
    const api = fakeApi({ '/partners/P1/commission-plans/CP-P1': () => ({ ...plan, editable: true }) });
    const put = vi.mocked(api.put).mockImplementation(async () => ({ ...plan, editable: true, version: 2, name: 'Tiered revenue share 2027' }) as never);
    renderWithServices(<CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1' }} search="" capability="Commission plan" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit plan' }));
    const form = screen.getByRole('form', { name: 'Edit commission plan' });
    const name = within(form).getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Tiered revenue share 2027');
    const first = within(form).getByRole('group', { name: 'Rule 1: MOTO orders' });
    const percent = within(first).getByRole('textbox', { name: 'Percentage of the fee (%)' });
    await user.clear(percent);
    await user.type(percent, '150');
    const last = within(form).getByRole('group', { name: 'Rule 3: Any other fee' });
    const priority = within(last).getByRole('textbox', { name: /^Priority/ });
    await user.clear(priority);
    await user.type(priority, '5');
    await user.click(within(form).getByRole('button', { name: 'Save plan' }));
    expect(within(first).getByText('Percentage of the fee should be between 0 and 100')).toBeTruthy();
    expect(within(first).getByText('Priority is not unique')).toBeTruthy();
    expect(within(first).getByRole('textbox', { name: 'Percentage of the fee (%)' }).getAttribute('aria-invalid')).toBe('true');
    expect(put).not.toHaveBeenCalled();

    await user.clear(percent);
    await user.type(percent, '12.5');
    await user.clear(priority);
    await user.type(priority, '90');
    await user.click(within(form).getByRole('button', { name: 'Add a rule' }));
    const added = within(form).getByRole('group', { name: 'Rule 4' });
    await user.type(within(added).getByRole('textbox', { name: /^Description/ }), 'Visa in GBP');
    await user.type(within(added).getByRole('textbox', { name: /^Currency/ }), 'gbp');
    await user.selectOptions(within(added).getByRole('combobox', { name: 'Card type' }), 'Visa');
    await user.clear(within(added).getByRole('textbox', { name: 'Percentage of the fee (%)' }));
    await user.type(within(added).getByRole('textbox', { name: 'Percentage of the fee (%)' }), '20');
    expect(within(added).getByText('Reads: GBP, Visa; any volume; 20% of the fee')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Save plan' }));
    expect(put).toHaveBeenCalledTimes(1);
    const [path, body] = put.mock.calls[0] as unknown as [
      string,
      { version: number; name: string; rules: { priority: number; percentageBasisPoints: number; currency: string | null; cardType: string | null }[] },
    ];
    expect(path).toBe('/partners/P1/commission-plans/CP-P1');
    expect(body.version).toBe(1);
    expect(body.name).toBe('Tiered revenue share 2027');
    expect(body.rules.map((entry) => [entry.priority, entry.percentageBasisPoints, entry.currency, entry.cardType])).toEqual([
      [5, 1250, null, null],
      [30, 3000, 'GBP', null],
      [90, 1500, null, null],
      [100, 2000, 'GBP', 'Visa'],
    ]);
    expect(await screen.findByRole('heading', { name: 'Tiered revenue share 2027', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Edit commission plan' })).toBeNull();
  });

  it('offers no edit to those who may not change the plan', async () => {
    signIn({ permissions: ['Mapi.Partner.Read'], paths: ['/partners/P1/commissions/CP-P1'] });
    fakeApi({ '/partners/P1/commission-plans/CP-P1': () => plan });
    renderWithServices(<CommissionPlanPane params={{ partnerId: 'P1', commissionPlanId: 'CP-P1' }} search="" capability="Commission plan" />);
    expect(await screen.findByRole('heading', { name: 'Tiered revenue share', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit plan' })).toBeNull();
  });

  it('says so when the plan is out of reach or does not exist', async () => {
    signIn({ permissions: ['Mapi.Partner.Read'], paths: ['/partners/P2/commissions/CP-P2'] });
    fakeApi({
      '/partners/P2/commission-plans/CP-P2': () => {
        throw new ApiError({ status: 404, messages: ['The requested record was not found.'], kind: 'http', handled: false });
      },
    });
    renderWithServices(<CommissionPlanPane params={{ partnerId: 'P2', commissionPlanId: 'CP-P2' }} search="" capability="Commission plan" />);
    expect((await screen.findByRole('alert', {})).textContent).toBe('The requested record was not found.');
  });
});

describe('the partner detail', () => {
  beforeEach(() => resetStores());

  it('lists the plans, the businesses in the partner frame and the users linking to the partner user routes', async () => {
    signIn({ permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read', 'Mapi.Users.Read'], paths: ['/partners/P1'] });
    const detail: PartnerDetail = {
      partnerId: 'P1',
      partnerName: 'Northwind Partners',
      createDateTimeUtc: '2024-01-01T00:00:00.000Z',
      businessCount: 2,
      liveBusinessCount: 2,
      merchantCount: 3,
      currencies: ['EUR', 'GBP'],
      commissionPlans: [
        { commissionPlanId: 'CP-P1', partnerId: 'P1', name: 'Tiered revenue share', validFrom: '2026-01-01', validTo: null, status: 'Active', ruleCount: 3 },
      ],
    };
    fakeApi({
      '/partners/P1': () => detail,
      '/partners/P1/businesses': () => ({
        results: [
          {
            businessId: 'B1',
            businessName: 'Alpha Trading Ltd',
            businessUrl: null,
            camAutoRemittance: true,
            live: true,
            partnerId: 'P1',
            partnerName: 'Northwind Partners',
          },
        ],
        numberOfResults: 1,
      }),
      '/user/partner/P1/permissions': () => ({ permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read', 'Mapi.Users.Read'] }),
      '/partners/P1/users': () => ({
        results: [
          {
            userId: 'U7',
            email: 'james@northwind.example',
            givenName: 'James',
            familyName: 'Thornton',
            status: 'active',
            internal: false,
            roles: ['Owner'],
            businessNames: [],
            lockoutEndDateUtc: null,
            lastSignInUtc: null,
            createdUtc: '2026-01-01T00:00:00.000Z',
          },
        ],
        numberOfResults: 1,
      }),
    });
    renderWithServices(<PartnerDetailPane params={{ partnerId: 'P1' }} search="" capability="Partner detail" />);
    expect(await screen.findByRole('heading', { name: 'Northwind Partners', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Tiered revenue share' }).getAttribute('href')).toBe('/partners/P1/commissions/CP-P1');
    const businesses = await screen.findByRole('grid', { name: 'Businesses of the partner' });
    expect(within(businesses).getByRole('link', { name: 'Alpha Trading Ltd' }).getAttribute('href')).toBe('/partners/P1/business/B1');
    expect((await screen.findByRole('link', { name: 'James Thornton' })).getAttribute('href')).toBe('/partners/P1/users/U7');
    expect(screen.getByRole('link', { name: 'Declines' }).getAttribute('href')).toBe('/partners/P1/declines');
  });
});

describe("the partner's frame", () => {
  beforeEach(() => resetStores());

  const business = (partnerId: string) => ({
    businessId: 'B1',
    businessName: 'Alpha Trading Ltd',
    businessUrl: null,
    camAutoRemittance: true,
    live: true,
    partnerId,
    partnerName: 'Northwind Partners',
    version: 1,
    createDateTimeUtc: '2026-01-01T10:00:00.000Z',
    editable: false,
    recentActivity: [],
  });
  const merchants = () => ({
    results: [
      {
        merchantId: 'M1',
        merchantName: 'Alpha Online',
        businessId: 'B1',
        merchantUrl: null,
        supportUrl: null,
        supportEmail: null,
        grossSettlement: false,
        currencies: ['GBP'],
        live: true,
      },
    ],
    numberOfResults: 1,
  });

  it("shows the partner's business with its merchants opening under the same frame", async () => {
    signIn({ permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read', 'Mapi.Merchant.Read'], paths: ['/partners/P1/business/B1'] });
    fakeApi({ '/businesses/B1': () => business('P1'), '/businesses/B1/merchants': merchants });
    renderWithServices(<PartnerBusinessPane params={{ partnerId: 'P1', businessId: 'B1' }} search="" capability="Partner's business" />);
    expect(await screen.findByRole('heading', { name: 'Alpha Trading Ltd', level: 1 })).toBeTruthy();
    const frame = screen.getByRole('navigation', { name: 'Partner frame' });
    expect(within(frame).getByRole('link', { name: 'Transactions of this business' }).getAttribute('href')).toBe('/partners/P1/business/B1/transactions');
    expect(await screen.findByRole('grid', { name: 'Merchants' })).toBeTruthy();
  });

  it("does not show another partner's business in the frame", async () => {
    signIn({ permissions: ['Mapi.Partner.Read', 'Mapi.Business.Read'], paths: ['/partners/P2/business/B1'] });
    fakeApi({ '/businesses/B1': () => business('P1'), '/businesses/B1/merchants': merchants });
    renderWithServices(<PartnerBusinessPane params={{ partnerId: 'P2', businessId: 'B1' }} search="" capability="Partner's business" />);
    expect((await screen.findByRole('alert', {})).textContent).toBe('The requested record was not found.');
  });
});

describe('partner helpers', () => {
  it.each([
    [rule({}), 'Any volume', 'No commission', 'All transactions'],
    [rule({ currency: 'GBP', volumeToMinor: 5_000_000, percentageBasisPoints: 2000 }), 'Below £50,000.00', '20% of the fee', 'GBP'],
    [
      rule({ currency: 'EUR', volumeFromMinor: 100, volumeToMinor: 200, fixedMinor: 3, paymentMethod: 'ideal' }),
      '€1.00 to below €2.00',
      '€0.03 a transaction',
      'EUR, iDEAL',
    ],
    [rule({ percentageBasisPoints: 1250, cardType: 'Visa', channel: 'Acquiring' }), 'Any volume', '12.5% of the fee', 'Acquiring, Visa'],
  ])('describes a rule (%#)', (terms, band, earning, conditions) => {
    expect(describeBand(terms)).toBe(band);
    expect(describeEarning(terms)).toBe(earning);
    expect(describeConditions(terms)).toBe(conditions);
  });

  it('reads months, paths and the declines view', () => {
    expect(formatMonth('2026-03')).toBe('March 2026');
    expect(partnerIdOfPath('/partners')).toBeNull();
    expect(partnerIdOfPath('/partners/P%201/declines')).toBe('P 1');
    expect(partnerBusinessOfPath('/partners/P1/business/B2/merchant/M3')).toEqual({ partnerId: 'P1', businessId: 'B2' });
    expect(partnerBusinessOfPath('/business/B2')).toBeNull();
    expect(declinesViewOf('', '2026-11-25')).toEqual({ startDate: '2026-10-27', endDate: '2026-11-25', currency: null });
    expect(declinesViewOf('?startDate=2026-11-10&endDate=2026-11-01&currency=EUR', '2026-11-25')).toEqual({
      startDate: '2026-10-27',
      endDate: '2026-11-25',
      currency: 'EUR',
    });
    const drill = new URL(declinedTransactionsPath('P1', 'B1', 'GBP', '2026-11-01', '2026-11-05'), 'http://x');
    expect(drill.pathname).toBe('/partners/P1/business/B1/transactions');
    expect(Object.fromEntries(drill.searchParams)).toEqual({
      status: '[eq]declined[and][eq]failed',
      kind: '[eq]payment',
      currency: '[eq]GBP',
      date: '[gte]2026-11-01T00:00:00[and][lte]2026-11-05T23:59:59',
    });
  });
});

describe('commission plan edits', () => {
  it.each([
    ['12.5', 1250],
    ['0', 0],
    ['100', 10_000],
    ['0.05', 5],
    ['7.', Number.NaN],
    ['1.234', Number.NaN],
    ['-1', Number.NaN],
    ['ten', Number.NaN],
    ['', Number.NaN],
  ])('reads %j per cent as %d basis points', (text, basisPoints) => {
    expect(basisPointsOfPercent(text)).toBe(basisPoints);
  });

  it('turns a draft back into the plan it came from, and a new rule goes below the others', () => {
    const draft = planDraftOf(plan);
    expect(planEditOf(draft)).toEqual({
      name: plan.name,
      validFrom: plan.validFrom,
      validTo: null,
      rules: plan.rules.map(({ ruleId: _id, ...terms }) => terms),
    });
    expect(newRuleDraft(draft.rules).priority).toBe('90');
    expect(checkCommissionPlanEdit(planEditOf(draft), ['card'])).toEqual({});
    expect(checkCommissionPlanEdit(planEditOf({ ...draft, rules: [{ ...newRuleDraft([]), priority: 'x', volumeTo: '0' }] }), ['card'])).toEqual({
      'rules.0.priority': 'Priority should be between 1 and 9999',
      'rules.0.description': 'Description is required',
      'rules.0.volumeToMinor': 'Volume to should be between 1 and 10000000000000',
    });
  });
});
