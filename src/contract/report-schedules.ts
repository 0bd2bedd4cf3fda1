// Scheduled statements: a statement or ledger report a user receives daily, weekly on a weekday or monthly
// on a day, at an hour of the time zone they choose. Each run covers the period that just ended (the day before, the
// seven days before, the month before) and lands in the owner's report queue; an email (opt-in) links to it.
// A transactions export (the overview's filters and columns, CSV or XLSX) can be scheduled the same way: each run
// exports the period that just ended in place of any date range of the view it was made from.
// Pure rules shared by server and client; schemas in report-schedule-schemas.ts.
import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, calendarDate, isoWeekday, type IsoDate } from './calendar-date.ts';
import { ledgerReportTypes, type LedgerReportType } from './ledger.ts';
import { parseListQuery, type Ordering } from './list-query.ts';
import { transactionListSpec } from './transactions.ts';

export const scheduleFrequencies = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof scheduleFrequencies)[number];
export const scheduleFrequencyLabels: Record<ScheduleFrequency, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** What can be scheduled: every ledger report over a period (a batch's detail is one day and is not). */
export const schedulableReportTypes = [
  'tradingAccount',
  'reserve',
  'security',
  'remittance',
  'invoice',
  'costs',
  'businessAccount',
  'settlementBatchOverview',
  'transfers',
] as const satisfies readonly LedgerReportType[];
export type SchedulableReportType = (typeof schedulableReportTypes)[number];
export const scheduleReportLabel = (reportType: string) =>
  reportType === 'transactions' ? 'Transactions' : (ledgerReportTypes[reportType as LedgerReportType] ?? reportType);

/**
 * The filter a scheduled transactions export may not carry: its period is the one that just ended, so the view's own
 * date range (absolute dates) has no place in it.
 */
export const scheduledExportDateFilter = 'date';
export const scheduledExportDateMessage = 'A scheduled export covers the period that just ended at each run; leave the date filter out.';
export const transactionsScheduleContextMessage =
  'A scheduled transactions export needs either a businessId (with a merchantId for one merchant) or a partnerId.';

/** Schedules one user may hold; a run that fails is queued once more, then reported. */
export const maxSchedulesPerUser = 20;
export const maxRunAttempts = 2;
export const scheduleLimitMessage = `You have ${maxSchedulesPerUser} scheduled reports, the most there may be. Delete one before adding another.`;

export type ScheduleTiming = { frequency: ScheduleFrequency; weekday: number | null; dayOfMonth: number | null; hour: number; timeZone: string };

const pad = (value: number) => String(value).padStart(2, '0');
const lastDayOf = (date: IsoDate) => Number(addDays(`${addMonths(`${date.slice(0, 7)}-01`, 1)}`, -1).slice(8, 10));

/** The instant of an hour on a calendar date in a zone (a skipped hour of a clock change moves forward). */
export function zonedInstant(date: IsoDate, hour: number, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(year, month - 1, day, hour, 0, 0, timeZone).getTime());
}

function runsOn(timing: ScheduleTiming, date: IsoDate): boolean {
  if (timing.frequency === 'daily') return true;
  if (timing.frequency === 'weekly') return isoWeekday(date) === (timing.weekday ?? 1);
  return Number(date.slice(8, 10)) === Math.min(timing.dayOfMonth ?? 1, lastDayOf(date));
}

/** The first run strictly after `after`. */
export function nextRunAfter(timing: ScheduleTiming, after: Date): Date {
  let date = calendarDate(after, timing.timeZone);
  for (let step = 0; step < 400; step += 1, date = addDays(date, 1)) {
    if (!runsOn(timing, date)) continue;
    const at = zonedInstant(date, timing.hour, timing.timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no run within 400 days');
}

/** The period a run due at `dueAt` covers, in the schedule's zone: the day, seven days or month before the run's date. */
export function runPeriod(timing: ScheduleTiming, dueAt: Date): { start: Date; end: Date; firstDay: IsoDate; lastDay: IsoDate } {
  const runDate = calendarDate(dueAt, timing.timeZone);
  const lastDay = addDays(runDate, -1);
  const firstDay =
    timing.frequency === 'daily' ? lastDay : timing.frequency === 'weekly' ? addDays(runDate, -7) : `${addMonths(`${runDate.slice(0, 7)}-01`, -1)}`;
  const periodLastDay = timing.frequency === 'monthly' ? addDays(`${runDate.slice(0, 7)}-01`, -1) : lastDay;
  return {
    start: zonedInstant(firstDay, 0, timing.timeZone),
    end: new Date(zonedInstant(addDays(periodLastDay, 1), 0, timing.timeZone).getTime() - 1),
    firstDay,
    lastDay: periodLastDay,
  };
}

/** 'Monthly on day 1 at 06:00 (Europe/London)'. */
export function describeTiming(timing: ScheduleTiming): string {
  const at = `at ${pad(timing.hour)}:00 (${timing.timeZone})`;
  if (timing.frequency === 'daily') return `Daily ${at}`;
  if (timing.frequency === 'weekly') return `Weekly on ${weekdayNames[(timing.weekday ?? 1) - 1]} ${at}`;
  return `Monthly on day ${timing.dayOfMonth ?? 1} ${at}`;
}

/** 'previous day', 'previous 7 days', 'previous month': what one run covers. */
export function periodLabel(frequency: ScheduleFrequency): string {
  return frequency === 'daily' ? 'previous day' : frequency === 'weekly' ? 'previous 7 days' : 'previous month';
}

/** The date filter of one run: the period's first to last local day, as wall-clock times of the schedule's zone. */
export function runDateFilter(period: { firstDay: IsoDate; lastDay: IsoDate }): string {
  return `[gte]${period.firstDay}T00:00:00[and][lte]${period.lastDay}T23:59:59`;
}

const filterWords: Record<string, string> = {
  amount: 'amount',
  status: 'status',
  channel: 'channel',
  paymentmethod: 'payment method',
  kind: 'kind',
  currency: 'currency',
  merchantid: 'merchant',
  searchterm: 'search',
};
const operatorWords: Record<string, string> = { eq: '', gte: 'at least ', lte: 'at most ' };

/** What describeTransactionFilters says of an export without filters. */
export const allTransactionsWords = 'all transactions';

/** 'status paid or declined, currency GBP' (or 'all transactions'): a scheduled export's filters in words. */
export function describeTransactionFilters(filters: Record<string, string>): string {
  const parsed = parseListQuery(filters, transactionListSpec);
  if (!parsed.ok) return 'filters no longer valid';
  const parts = Object.entries(parsed.query.filters)
    .filter(([field]) => field !== scheduledExportDateFilter)
    .map(([field, clauses]) => {
      const equal = clauses.filter((clause) => clause.operator === 'eq').map((clause) => (field === 'searchterm' ? `"${clause.value}"` : clause.value));
      const bounds = clauses.filter((clause) => clause.operator !== 'eq').map((clause) => `${operatorWords[clause.operator] ?? ''}${clause.value}`);
      return `${filterWords[field] ?? field} ${[equal.join(' or '), ...bounds].filter(Boolean).join(' and ')}`;
    });
  return parts.length > 0 ? parts.join(', ') : allTransactionsWords;
}

/** A scheduled transactions export's ordering (the overview's OrderingField and OrderingDirection). */
export type ScheduleOrdering = Ordering;

const sortWords: Record<string, [field: string, ascending: string, descending: string]> = {
  date: ['date', 'oldest first', 'newest first'],
  amount: ['amount', 'lowest first', 'highest first'],
  status: ['status', 'A to Z', 'Z to A'],
  reference: ['reference', 'A to Z', 'Z to A'],
  merchant: ['merchant', 'A to Z', 'Z to A'],
};

/** 'sorted by amount, highest first'; empty for the default (newest first). */
export function describeScheduleOrdering(ordering: ScheduleOrdering | null | undefined): string {
  if (!ordering) return '';
  const field = ordering.OrderingField.toLowerCase();
  const descending = ordering.OrderingDirection === 'Descending';
  if (field === 'date' && descending) return '';
  const [name, ascending, down] = sortWords[field] ?? [field, 'ascending', 'descending'];
  return `sorted by ${name}, ${descending ? down : ascending}`;
}

/** 'Transactions, status paid, sorted by amount, highest first, daily at 06:00 (Europe/London), previous day'. */
export function describeTransactionsSchedule(filters: Record<string, string>, timing: ScheduleTiming, ordering?: ScheduleOrdering | null): string {
  const when = describeTiming(timing);
  const sorted = describeScheduleOrdering(ordering);
  return `Transactions, ${describeTransactionFilters(filters)}${sorted ? `, ${sorted}` : ''}, ${when.charAt(0).toLowerCase()}${when.slice(1)}, ${periodLabel(timing.frequency)}`;
}

/** Whether the zone is an IANA zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(timeZone) && timeZone !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone }).format(0);
    return true;
  } catch {
    return false;
  }
}
