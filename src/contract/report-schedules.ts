// Scheduled statements (issue 18): a statement or ledger report a user receives daily, weekly on a weekday or monthly
// on a day, at an hour of the time zone they choose. Each run covers the period that just ended (the day before, the
// seven days before, the month before) and lands in the owner's report queue; an email (opt-in) links to it.
// Pure rules shared by server and client; schemas in report-schedule-schemas.ts.
import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, calendarDate, isoWeekday, type IsoDate } from './filters.ts';
import { ledgerReportTypes, type LedgerReportType } from './ledger.ts';

export const scheduleFrequencies = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof scheduleFrequencies)[number];
export const scheduleFrequencyLabels: Record<ScheduleFrequency, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** What can be scheduled: every ledger report over a period (a batch's detail is one day and is not). */
export const schedulableReportTypes = [
  'tradingAccount', 'reserve', 'security', 'remittance', 'invoice', 'costs', 'businessAccount', 'settlementBatchOverview', 'transfers',
] as const satisfies readonly LedgerReportType[];
export type SchedulableReportType = (typeof schedulableReportTypes)[number];
export const scheduleReportLabel = (reportType: string) => ledgerReportTypes[reportType as LedgerReportType] ?? reportType;

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
  const firstDay = timing.frequency === 'daily' ? lastDay
    : timing.frequency === 'weekly' ? addDays(runDate, -7)
      : `${addMonths(`${runDate.slice(0, 7)}-01`, -1)}`;
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
