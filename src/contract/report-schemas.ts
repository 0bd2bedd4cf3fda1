// The report queue's schemas (arktype): a queued report, its context and the queue's page. The constants and
// rules they use are in reports.ts.
import { type } from 'arktype';
import { reportStatuses } from './reports.ts';

export const reportContext = type({
  level: "'all' | 'partner' | 'business' | 'merchant'",
  'partnerId?': 'string',
  'businessId?': 'string',
  'merchantId?': 'string',
  /** the business, merchant or partner name at queue time, for display */
  title: 'string',
  /** the IANA zone the date filters were given in */
  timeZone: 'string',
});
export type ReportContext = typeof reportContext.infer;

export const queuedReport = type({
  id: 'string',
  reportType: 'string',
  fileType: "'csv' | 'xlsx' | 'pdf' | 'xml'",
  status: type.enumerated(...reportStatuses),
  state: type.enumerated(...reportStatuses, 'expired'),
  context: reportContext,
  filters: type({ '[string]': 'string' }),
  ordering: type({ OrderingField: 'string', OrderingDirection: "'Ascending' | 'Descending'" }).or('null'),
  columns: 'string[]',
  startDate: 'string | null',
  endDate: 'string | null',
  totalRows: 'number | null',
  processedRows: 'number',
  attempts: 'number',
  queuedAt: 'string',
  generatedAt: 'string | null',
  expirationDateTime: 'string | null',
  deletedAt: 'string | null',
  fileName: 'string | null',
  fileSize: 'number | null',
  error: 'string | null',
});
export type QueuedReport = typeof queuedReport.infer;

export const queuedReportList = type({ results: queuedReport.array(), numberOfResults: 'number' });
export type QueuedReportList = typeof queuedReportList.infer;
