// The names reports are downloaded under. A ledger report (a statement, the batch overview, transfers) is named by
// what it holds, its account and period, so that a folder of downloads sorts and reads by account and month:
//
//   trading-account-3M1a070215-2026-10.csv         a calendar month
//   trading-account-3M1a070215-2026-10-02-to-2026-10-31.pdf
//   settlement-batch-overview-3M1a070215-2026-10-05.xlsx  one day
//   reserve-3M1a070215-from-2026-10-01.csv / …-to-2026-10-31.csv / …-until-2026-11-20.csv (no period: to the day it was queued)
//   batch-detail-B3M1a070215-20261001.csv          a batch names its account and day already
//   settlement-details-B3M1a070215-20261001.xlsx   (settlement details of one batch; of a month: …-3M1a070215-2026-10.xlsx)
//
// The period's days are those of the report's zone (its context's time zone), as the file's own heading states them.
// Other reports keep their type, queued day and id (transactions-2026-11-21-RPT….csv).
import { calendarDate } from '../../src/contract/calendar-date.ts';
import { ledgerReportTypes } from '../../src/contract/ledger.ts';

export type NamedReport = {
  id: string;
  reportType: string;
  fileType: string;
  queuedAt: Date;
  context: unknown;
  filters: unknown;
  startDate: Date | null;
  endDate: Date | null;
};

/** 'tradingAccount' → 'trading-account'; anything but letters, digits and '-' is dropped. */
const kebab = (value: string) =>
  value
    .replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
    .replace(/[^a-z0-9-]/gi, '')
    .replace(/^-+/, '');
const safe = (value: string) => value.replace(/[^A-Za-z0-9-]/g, '');

/** A period as it reads in a file name: 'yyyy-MM' for one whole month, 'yyyy-MM-dd' for one day, else its two ends. */
export function periodName(start: Date | null, end: Date | null, timeZone: string, asOf: Date): string {
  const first = start ? calendarDate(start, timeZone) : null;
  const last = end ? calendarDate(end, timeZone) : null;
  if (first && last) {
    if (first === last) return first;
    const month = first.slice(0, 7);
    const lastOfMonth = calendarDate(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)), 'UTC');
    if (first.endsWith('-01') && last === lastOfMonth) return month;
    return `${first}-to-${last}`;
  }
  if (first) return `from-${first}`;
  if (last) return `to-${last}`;
  return `until-${calendarDate(asOf, timeZone)}`;
}

export function reportDownloadName(report: NamedReport): string {
  const filters = (report.filters ?? {}) as Record<string, unknown>;
  const context = (report.context ?? {}) as Record<string, unknown>;
  const accountNumber = typeof filters.accountNumber === 'string' ? safe(filters.accountNumber) : '';
  if (Object.hasOwn(ledgerReportTypes, report.reportType) && accountNumber !== '') {
    const type = kebab(report.reportType);
    if (
      (report.reportType === 'batchDetail' || report.reportType === 'settlementDetails') &&
      typeof filters.batchId === 'string' &&
      safe(filters.batchId) !== ''
    )
      return `${type}-${safe(filters.batchId)}.${report.fileType}`;
    const timeZone = typeof context.timeZone === 'string' && context.timeZone !== '' ? context.timeZone : 'UTC';
    return `${type}-${accountNumber}-${periodName(report.startDate, report.endDate, timeZone, report.queuedAt)}.${report.fileType}`;
  }
  const day = report.queuedAt.toISOString().slice(0, 10);
  return `${report.reportType.replace(/[^a-z0-9-]/gi, '')}-${day}-${report.id}.${report.fileType}`;
}
