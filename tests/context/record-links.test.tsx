// A link naming a record opens in the record's context: which paths name a record, where their context comes from,
// and the context page applying it instead of asking (or asking when the record is not the person's to see).
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RecordContext } from '../../src/contract/context-responses.ts';
import { ContextPage } from '../../src/context/context-page.tsx';
import { recordContextLink, recordContextOrigin } from '../../src/context/record-links.ts';
import { contextPagePath, queryParams } from '../../src/state/context-links.ts';
import { encodeWorkspace } from '../../src/state/workspace-url.ts';
import { fakeData, policies, renderWithServices } from './support.tsx';

const deli: RecordContext = {
  business: { id: 'B1', title: 'Alpha Trading' },
  merchant: { id: 'M2', title: 'Alpha Stores' },
  configuration: { id: 'C2', title: 'Stores checkout', switches: { virtualTerminalMenuEnabled: true } },
};

function applyParams(link: string | null) {
  expect(link?.startsWith('/context/apply?')).toBe(true);
  const params = queryParams((link ?? '').slice((link ?? '').indexOf('?')));
  const json = (key: string) => (params.get(key) === null ? undefined : (JSON.parse(params.get(key) ?? '') as unknown));
  return { route: params.get('route'), business: json('business'), merchant: json('merchant'), configuration: json('configuration') };
}

describe('record context origin', () => {
  it.each([
    ['/transactions/TX1', { kind: 'lookup', apiPath: '/context/records/transactions/TX1' }],
    ['/transactions/TX%201?tab=2', { kind: 'lookup', apiPath: '/context/records/transactions/TX%201' }],
    ['/configurations/C-1/payments/PJ1', { kind: 'lookup', apiPath: '/context/records/configurations/C-1/payment-jobs/PJ1' }],
    ['/configurations/C-1/payments/PJ1/trace/TR1', { kind: 'lookup', apiPath: '/context/records/configurations/C-1/payment-jobs/PJ1' }],
    ['/tickets/TK-7', { kind: 'lookup', apiPath: '/context/records/tickets/TK-7' }],
    ['/business/B1/merchants/M2/customers/CU1', { kind: 'path', businessId: 'B1', merchantId: 'M2' }],
    ['/business/B1/merchants/M2', { kind: 'path', businessId: 'B1', merchantId: 'M2' }],
    ['/business/B1/pricing-plan', { kind: 'path', businessId: 'B1' }],
    ['/business/B1', { kind: 'path', businessId: 'B1' }],
  ])('%s → %j', (path, origin) => {
    expect(recordContextOrigin(path)).toEqual(origin);
  });

  it.each(['/transactions', '/tickets', '/tickets/add', '/configurations/C-1/payments', '/dashboard', '/business/B1/merchants', '/transactions/%E0%A4%A'])(
    '%s names no record',
    (path) => {
      expect(recordContextOrigin(path)).toBeNull();
    },
  );
});

describe('recordContextLink', () => {
  it('applies the focused pane’s record context and keeps the whole layout as the route', async () => {
    const route = encodeWorkspace({ paths: ['/transactions?status=paid', '/configurations/C2/payments/PJ9', '/tickets/TK-1'], focused: 1 });
    const lookUp = vi.fn(async (apiPath: string) => (apiPath.includes('payment-jobs') ? deli : null));
    const params = applyParams(await recordContextLink(route, lookUp));
    expect(lookUp).toHaveBeenCalledTimes(1);
    expect(lookUp).toHaveBeenCalledWith('/context/records/configurations/C2/payment-jobs/PJ9');
    expect(params).toEqual({
      route,
      business: { id: 'B1', title: 'Alpha Trading' },
      merchant: { id: 'M2', title: 'Alpha Stores' },
      configuration: { id: 'C2', title: 'Stores checkout', switches: { virtualTerminalMenuEnabled: true } },
    });
  });

  it('tries the other panes when the focused one’s record is not the person’s (404), and gives up quietly', async () => {
    const route = encodeWorkspace({ paths: ['/tickets/TK-1', '/transactions/TX-NOT-MINE'], focused: 1 });
    const lookUp = vi.fn(async (apiPath: string) => (apiPath.endsWith('/tickets/TK-1') ? { business: { id: 'B2', title: 'Beta Retail' } } : null));
    expect(applyParams(await recordContextLink(route, lookUp))).toEqual({
      route,
      business: { id: 'B2', title: 'Beta Retail' },
      merchant: undefined,
      configuration: undefined,
    });
    expect(lookUp.mock.calls.map(([path]) => path)).toEqual(['/context/records/transactions/TX-NOT-MINE', '/context/records/tickets/TK-1']);
    expect(await recordContextLink('/transactions/TX-NOT-MINE', async () => null)).toBeNull();
    expect(
      await recordContextLink('/transactions/TX-1', async () => {
        throw new Error('offline');
      }),
    ).toBeNull();
    expect(await recordContextLink('/transactions?status=paid', vi.fn())).toBeNull();
  });

  it('takes ids written in the path without asking (the apply step checks them)', async () => {
    const lookUp = vi.fn();
    expect(applyParams(await recordContextLink('/business/B1/merchants/M2/customers/CU1', lookUp))).toMatchObject({
      business: { id: 'B1' },
      merchant: { id: 'M2' },
      configuration: undefined,
    });
    expect(lookUp).not.toHaveBeenCalled();
  });
});

describe('ContextPage with a record link', () => {
  it('opens a single record link in the record’s context, without the picker', async () => {
    const { data } = fakeData();
    const recordContext = vi.fn(async () => deli);
    const navigate = vi.fn();
    renderWithServices(<ContextPage search={contextPagePath('/transactions/TX1').slice('/context'.length)} />, {
      policy: policies.owner,
      services: { data: Object.assign(data, { recordContext }), navigate },
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(recordContext).toHaveBeenCalledWith('/context/records/transactions/TX1');
    const [link] = navigate.mock.calls[0] as [string];
    expect(applyParams(link)).toMatchObject({ route: '/transactions/TX1', business: { id: 'B1' }, merchant: { id: 'M2' } });
    expect(document.querySelector('.context-panel')).toBeNull();
  });

  it('shows the picker for a record the person cannot see, and when told to choose', async () => {
    const { data } = fakeData();
    const recordContext = vi.fn(async () => null);
    const navigate = vi.fn();
    const view = renderWithServices(<ContextPage search={contextPagePath('/transactions/TX1').slice('/context'.length)} />, {
      policy: policies.owner,
      services: { data: Object.assign(data, { recordContext }), navigate },
    });
    await waitFor(() => expect(view.container.querySelector('.context-panel')).not.toBeNull(), { timeout: 15_000 });
    expect(navigate).not.toHaveBeenCalled();
    view.unmount();

    const again = renderWithServices(<ContextPage search={contextPagePath('/transactions/TX1', { choose: true }).slice('/context'.length)} />, {
      policy: policies.owner,
      services: { data: Object.assign(fakeData().data, { recordContext }), navigate },
    });
    await waitFor(() => expect(again.container.querySelector('.context-panel')).not.toBeNull(), { timeout: 15_000 });
    expect(recordContext).toHaveBeenCalledTimes(1);
  });
});
