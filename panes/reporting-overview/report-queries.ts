// My report queue (query factory): the list polls while any report is queued or generating.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { hasReportsInProgress } from '../../src/contract/reports.ts';
import type { QueuedReport } from '../../src/contract/report-schemas.ts';

export const reportPollMs = 2000;

export const reportQueries = {
  all: ['reports'] as const,
  list: (pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'list', pageNumber, pageSize] as const,
      queryFn: async ({ signal }) =>
        validate('queuedReportList', await api.get<unknown>('/reports', { query: { pagenumber: pageNumber, pagesize: pageSize }, signal })),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (query) => (query.state.data && hasReportsInProgress(query.state.data.results) ? reportPollMs : false),
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'one', id] as const,
      queryFn: async ({ signal }) => validate('queuedReport', await api.get<unknown>(`/reports/${encodeURIComponent(id)}`, { signal })),
      staleTime: 0,
      refetchInterval: (query) => (query.state.data && hasReportsInProgress([query.state.data]) ? reportPollMs : false),
    }),
};

export const deleteReport = (id: string) => api.delete<unknown>(`/reports/${encodeURIComponent(id)}`);
export const retryReport = async (id: string) => validate('queuedReport', await api.post<unknown>(`/reports/${encodeURIComponent(id)}/retry`));
export const cancelReport = async (id: string) => validate('queuedReport', await api.post<unknown>(`/reports/${encodeURIComponent(id)}/cancel`));

/** Fetches the file (with the session's token) and hands it to the browser under the report's own name. */
export async function downloadReport(report: Pick<QueuedReport, 'id' | 'fileName'>): Promise<void> {
  const blob = await api.get<Blob>(`/reports/${encodeURIComponent(report.id)}/download`, { responseType: 'blob', headers: { Accept: '*/*' } });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = report.fileName ?? 'unknown';
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
