// The dashboard's query factory (TkDodo style): keys from generic to specific, the fetcher beside its key, the
// answer validated against the contract's schema, loaded lazily so arktype stays out of the first load.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { DashboardDateBasis, DashboardPeriod } from '../../src/contract/dashboard-intervals.ts';

/** Statistics do not change under the user's eyes often; past periods never do. */
const staleTime = 60_000;

export const dashboardQueries = {
  all: ['dashboard'] as const,
  /**
   * `context` is the API prefix of the applied context; a null currency lets the server choose (GBP first); the view
   * by activity date is asked for by name, the one by payment date is the server's default.
   */
  statistics: (context: string, period: DashboardPeriod, currency: string | null, dateBasis: DashboardDateBasis = 'paymentDate') =>
    queryOptions({
      queryKey: [...dashboardQueries.all, context, 'statistics', period.interval, period.startDate, period.endDate, currency, dateBasis] as const,
      queryFn: async ({ signal }) =>
        validate(
          'dashboardResponse',
          await api.post<unknown>(
            `${context}/dashboard`,
            {
              dateRange: { startDate: period.startDate, endDate: period.endDate },
              interval: period.interval,
              ...(currency ? { currency } : {}),
              ...(dateBasis === 'activityDate' ? { dateBasis } : {}),
            },
            { signal },
          ),
        ),
      staleTime,
    }),
  declines: (context: string, period: DashboardPeriod, currency: string) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, context, 'declines', period.startDate, period.endDate, currency] as const,
      queryFn: async ({ signal }) =>
        validate(
          'declinesResponse',
          await api.post<unknown>(
            `${context}/dashboard/declines`,
            {
              currency,
              dateRange: { startDate: period.startDate, endDate: period.endDate },
            },
            { signal },
          ),
        ),
      staleTime,
    }),
};
