// Scheduled statements (query factory and calls): the caller's schedules, made from a statement's 'Schedule…' and
// listed, paused and deleted in My report queue.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { ReportSchedule, ReportScheduleBody } from '../../src/contract/report-schedule-schemas.ts';

export const scheduleQueries = {
  all: ['report-schedules'] as const,
  list: () => queryOptions({
    queryKey: [...scheduleQueries.all, 'list'] as const,
    queryFn: async ({ signal }) => validate('reportScheduleList', await api.get<unknown>('/report-schedules', { signal })),
    staleTime: 0,
  }),
};

export const createSchedule = async (body: ReportScheduleBody) => validate('reportSchedule', await api.post<unknown>('/report-schedules', body));
export const setSchedulePaused = async (schedule: Pick<ReportSchedule, 'id' | 'version'>, paused: boolean) =>
  validate('reportSchedule', await api.patch<unknown>(`/report-schedules/${encodeURIComponent(schedule.id)}`, { paused, version: schedule.version }));
export const deleteSchedule = (id: string) => api.delete<unknown>(`/report-schedules/${encodeURIComponent(id)}`);
