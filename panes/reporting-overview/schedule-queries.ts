// Scheduled statements (query factory and calls): the caller's schedules, made from a statement's 'Schedule…' and
// listed, paused, run now and deleted in My report queue.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { ReportSchedule, ReportScheduleBody } from '../../src/contract/report-schedule-schemas.ts';

export const scheduleQueries = {
  all: ['report-schedules'] as const,
  list: () =>
    queryOptions({
      queryKey: [...scheduleQueries.all, 'list'] as const,
      queryFn: async ({ signal }) => validate('reportScheduleList', await api.get<unknown>('/report-schedules', { signal })),
      staleTime: 0,
    }),
};

export const createSchedule = async (body: ReportScheduleBody) => validate('reportSchedule', await api.post<unknown>('/report-schedules', body));
export const setSchedulePaused = async (schedule: Pick<ReportSchedule, 'id' | 'version'>, paused: boolean) =>
  validate('reportSchedule', await api.patch<unknown>(`/report-schedules/${encodeURIComponent(schedule.id)}`, { paused, version: schedule.version }));
export const deleteSchedule = (id: string) => api.delete<unknown>(`/report-schedules/${encodeURIComponent(id)}`);
/**
 * 'Run now': one run of the period just ended into the report queue. The key is kept by the caller until the run is
 * answered, so a repeated click or a retry after a lost answer gets the same run rather than a second one.
 */
export const runScheduleNow = async (scheduleId: string, idempotencyKey: string) =>
  validate(
    'reportScheduleRun',
    await api.post<unknown>(`/report-schedules/${encodeURIComponent(scheduleId)}/runs`, undefined, { headers: { 'Idempotency-Key': idempotencyKey } }),
  );

/** Where a scheduled transactions export reaches, for the dialog's sentence ('the 9 businesses of Northwind Partners'). */
export type ScheduleScope =
  | { level: 'partner'; name: string | null; businessCount: number | null }
  | { level: 'business'; name: string | null; merchantCount: number | null }
  | { level: 'merchant'; name: string | null };

const quietly = async <T>(read: () => Promise<T>): Promise<T | null> => read().catch(() => null);
const id = encodeURIComponent;

/**
 * The partner's name and business count, or the business's name and merchant count (or the merchant's name): the
 * reads the caller already has for the context. Quiet: a read refused leaves that part out of the sentence, no toast.
 */
export const scheduleScopeQuery = (target: { partnerId?: string; businessId?: string; merchantId?: string }) =>
  queryOptions({
    queryKey: ['report-schedule-scope', target.partnerId ?? null, target.businessId ?? null, target.merchantId ?? null] as const,
    queryFn: async ({ signal }): Promise<ScheduleScope> => {
      if (target.partnerId !== undefined) {
        const partner = await quietly(async () =>
          validate('partnerDetail', await api.get<unknown>(`/partners/${id(target.partnerId ?? '')}`, { signal, handleErrors: false })),
        );
        return { level: 'partner', name: partner?.partnerName ?? null, businessCount: partner?.businessCount ?? null };
      }
      const business = `/businesses/${id(target.businessId ?? '')}`;
      if (target.merchantId !== undefined) {
        const merchant = await quietly(async () =>
          validate('merchantDetail', await api.get<unknown>(`${business}/merchants/${id(target.merchantId ?? '')}`, { signal, handleErrors: false })),
        );
        return { level: 'merchant', name: merchant?.merchantName ?? null };
      }
      const [detail, merchants] = await Promise.all([
        quietly(async () => validate('businessDetail', await api.get<unknown>(business, { signal, handleErrors: false }))),
        quietly(async () =>
          validate('merchantList', await api.get<unknown>(`${business}/merchants`, { query: { pagesize: '10' }, signal, handleErrors: false })),
        ),
      ]);
      return { level: 'business', name: detail?.businessName ?? null, merchantCount: merchants?.numberOfResults ?? null };
    },
    staleTime: 60_000,
  });
