// The guard as a table: path + permissions + context → what the pane does.
import { describe, expect, it } from 'vitest';
import { accessFromPolicy } from '../../src/app/access.ts';
import { decideRoute, type GuardContext } from '../../src/app/guard.ts';
import { breadcrumb, matchPath } from '../../src/app/route-match.ts';
import { routes } from '../../src/app/routes.ts';
import { baseContext } from './support.tsx';

const merchant = {
  partnerId: null,
  businessId: 'B1',
  merchantId: 'M1',
  configurationId: 'C1',
  virtualTerminalMenuEnabled: true,
  camAutoRemittance: false,
  grossSettlement: false,
};

function ctx(overrides: Partial<GuardContext> = {}): GuardContext {
  return { ...baseContext(), permissionsLoaded: true, hasContext: true, context: merchant, ...overrides };
}

describe('decideRoute', () => {
  it.each<[string, string, Partial<GuardContext>, string]>([
    ['unknown path', '/no-such-screen', {}, 'unknown'],
    ['business overview redirects', '/business', {}, 'redirectNotFound'],
    ['merchants of a business redirect', '/business/B1/merchants', {}, 'redirectNotFound'],
    ['public not-found', '/404', { permissionsLoaded: false }, 'allow'],
    ['waiting for permissions', '/transactions', { permissionsLoaded: false }, 'waiting'],
    ['missing permission', '/transactions', { permissions: [] }, 'noPermission'],
    ['held permission, context-free', '/transactions', { permissions: ['Mapi.Transactions.Read'], hasContext: false }, 'allow'],
    ['context-bound without context', '/configurations', { permissions: ['Mapi.Configurations.Read'], hasContext: false }, 'needsContext'],
    ['dashboard needs a context, no permission', '/dashboard', { hasContext: false }, 'needsContext'],
    ['dashboard with a context', '/dashboard', {}, 'allow'],
    ['business account with automatic remittance off', '/reporting/business-account/12', { permissions: ['Mapi.MerchantAccountGroups.Read'] }, 'allow'],
    [
      'business account with automatic remittance on',
      '/reporting/business-account',
      { permissions: ['Mapi.MerchantAccountGroups.Read'], context: { ...merchant, camAutoRemittance: true } },
      'redirectNotFound',
    ],
    // Net-settled merchants' minimum top-ups sit on the invoice account too: the pane offers the accounts in use.
    ['invoice account without gross settlement', '/reporting/invoice-account', { permissions: ['Mapi.MerchantAccountGroups.Read'] }, 'allow'],
    [
      'invoice account with gross settlement',
      '/reporting/invoice-account/9',
      { permissions: ['Mapi.MerchantAccountGroups.Read'], context: { ...merchant, grossSettlement: true } },
      'allow',
    ],
    [
      'business accounts overview, numeric id',
      '/business/B1/merchants/M1/business-accounts-overview/123',
      { permissions: ['Mapi.BagsExternal.Read'] },
      'allow',
    ],
    [
      'business accounts overview, id not numeric',
      '/business/B1/merchants/M1/business-accounts-overview/abc',
      { permissions: ['Mapi.BagsExternal.Read'] },
      'unknown',
    ],
    ['business page with a root role', '/business/B9', { permissions: ['Mapi.Business.Read'] }, 'allow'],
    [
      'business page with merchant roles only',
      '/business/B1',
      {
        permissions: ['Mapi.Business.Read'],
        access: accessFromPolicy({
          roles: [],
          partnerPolicy: null,
          businessPolicies: [
            {
              businessId: 'B1',
              businessName: 'Alpha',
              roles: [],
              merchantPolicies: [{ businessId: 'B1', merchantId: 'M1', merchantName: 'Online', roles: ['Finance'] }],
            },
          ],
        }),
      },
      'noPermission',
    ],
    [
      'merchant page with a merchant role',
      '/business/B1/merchants/M1',
      {
        permissions: ['Mapi.Merchant.Read'],
        access: accessFromPolicy({
          roles: [],
          partnerPolicy: null,
          businessPolicies: [
            {
              businessId: 'B1',
              businessName: 'Alpha',
              roles: [],
              merchantPolicies: [{ businessId: 'B1', merchantId: 'M1', merchantName: 'Online', roles: ['Finance'] }],
            },
          ],
        }),
      },
      'allow',
    ],
    [
      'hosted payment page editor needs update rights',
      '/configurations/C1/hosted-payment-page/HPP1',
      { permissions: ['Mapi.Configurations.Read'] },
      'noPermission',
    ],
  ])('%s: %s → %s', (_name, path, overrides, expected) => {
    expect(decideRoute(path, ctx(overrides)).kind).toBe(expected);
  });

  it('matches the more specific route first and decodes parameters', () => {
    expect(matchPath('/notifications/add')?.route.id).toBe('notificationAdd');
    expect(matchPath('/notifications/N%2F1')?.params).toEqual({ reference: 'N/1' });
    expect(matchPath('/tickets/add?type=bug')?.route.id).toBe('ticketAdd');
    expect(matchPath('/configurations/C1/virtual-terminal/settings')?.route.id).toBe('virtualTerminalSettings');
  });
});

describe('route table', () => {
  it('holds every route of the shell document once', () => {
    const patterns = routes.map((route) => route.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const path of [
      '/',
      '/user-invite',
      '/sign-in',
      '/sign-out',
      '/404',
      '/account-watch-list',
      '/billing',
      '/business',
      '/business/B1',
      '/business/B1/merchants',
      '/business/B1/merchants/M1',
      '/business/B1/pricing-plan',
      '/business/B1/merchants/M1/merchant-accounts-overview',
      '/business/B1/merchants/M1/merchant-accounts-overview/MA1',
      '/business/B1/merchants/M1/business-accounts-overview',
      '/business/B1/merchants/M1/business-accounts-overview/1',
      '/configurations',
      '/configurations/C1',
      '/configurations/C1/hosted-payment-page/H1',
      '/configurations/C1/payments',
      '/configurations/C1/payments/PJ1',
      '/configurations/C1/payments/PJ1/trace/T1',
      '/configurations/C1/virtual-terminal',
      '/configurations/C1/virtual-terminal/settings',
      '/context',
      '/context/apply',
      '/dashboard',
      '/notifications',
      '/notifications/add',
      '/notifications/N1',
      '/notifications/edit/N1',
      '/partners',
      '/partners/P1',
      '/partners/P1/users/add',
      '/partners/P1/users/U1',
      '/partners/P1/commissions/CP1',
      '/partners/P1/declines',
      '/partners/P1/transactions',
      '/partners/P1/business/B1',
      '/partners/P1/business/B1/merchant/M1',
      '/partners/P1/business/B1/transactions',
      '/profile',
      '/reporting-overview',
      '/reporting/business-account',
      '/reporting/trading-account/1',
      '/reporting/reserve-account',
      '/reporting/security-account',
      '/reporting/remittance-account',
      '/reporting/invoice-account',
      '/reporting/cost-statement',
      '/reporting/batch-report',
      '/reporting/batch-report/1/batch/B7',
      '/tickets',
      '/tickets/add',
      '/tickets/T1',
      '/transactions',
      '/transactions/TX1',
      '/users',
      '/users/add',
      '/users/U1',
    ]) {
      expect(matchPath(path), path).not.toBeNull();
    }
  });

  it('marks the documented routes context-free and the editor route with the editor layout', () => {
    const contextFree = routes.filter((route) => route.contextFree).map((route) => route.pattern);
    for (const pattern of ['/account-watch-list', '/billing', '/notifications', '/profile', '/reporting-overview', '/transactions', '/users'])
      expect(contextFree).toContain(pattern);
    expect(matchPath('/configurations/C1/hosted-payment-page/H1')?.route.layout).toBe('editor');
  });

  it('builds breadcrumbs from the table', () => {
    expect(breadcrumb('/configurations/C1/payments/PJ7')).toEqual([
      { label: 'Configurations', path: '/configurations' },
      { label: 'Configuration C1', path: '/configurations/C1' },
      { label: 'Payments', path: '/configurations/C1/payments' },
      { label: 'Payment job PJ7', path: '/configurations/C1/payments/PJ7' },
    ]);
  });
});
