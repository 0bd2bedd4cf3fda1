// 'Schedule statement…': receive this statement (or ledger report) daily, weekly on a weekday or monthly on a day,
// at an hour of a chosen time zone, as PDF, Excel, CSV or camt.053. Each run covers the period just ended and lands
// in My report queue; 'Email me when it is ready' sends a link there (never the file).
// 'Schedule this export…' on the transactions overview uses the same dialog: the view's filters and visible columns
// as CSV or Excel, each run exporting the period just ended in place of the view's own date range. It says whose
// transactions those are: a partner's export covers every business of the partner ('the 9 businesses of Northwind
// Partners'), a business's every merchant of it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { ApiError } from '../../src/api/api-error.ts';
import type { ReportScheduleBody } from '../../src/contract/report-schedule-schemas.ts';
import {
  allTransactionsWords,
  describeTransactionFilters,
  type ScheduleFrequency,
  type ScheduleOrdering,
  type SchedulableReportType,
  scheduleFrequencies,
  scheduleFrequencyLabels,
  weekdayNames,
} from '../../src/contract/report-schedules.ts';
import type { TransactionColumn } from '../../src/contract/transactions.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { FormModal } from '../../src/ui/form-modal.tsx';
import { FileTypeChoice } from './download-dialog.tsx';
import { createSchedule, type ScheduleScope, scheduleQueries, scheduleScopeQuery } from '../reporting-overview/schedule-queries.ts';

type FileType = 'pdf' | 'xlsx' | 'csv' | 'xml';
const fileTypeLabels: Record<FileType, string> = { pdf: 'PDF (.pdf)', xlsx: 'Excel workbook (.xlsx)', csv: 'CSV (.csv)', xml: 'ISO 20022 camt.053 (.xml)' };
const pad = (value: number) => String(value).padStart(2, '0');
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = () => {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', browserZone(), ...known])].sort();
};

export type StatementScheduleTarget = { reportType: SchedulableReportType; businessId: string; merchantId?: string; accountNumber: string };
/** A transactions export: the view's filters without its date range (each run has its own period) and its columns. */
export type TransactionsScheduleTarget = {
  reportType: 'transactions';
  businessId?: string;
  merchantId?: string;
  partnerId?: string;
  columns: TransactionColumn[];
  filters: Record<string, string>;
  ordering?: ScheduleOrdering;
};
export type ScheduleTarget = StatementScheduleTarget | TransactionsScheduleTarget;

const statementPeriods: Record<ScheduleFrequency, string> = { daily: 'the day before', weekly: 'the seven days before', monthly: 'the month before' };
const exportPeriods: Record<ScheduleFrequency, string> = {
  daily: 'the previous day (midnight to midnight)',
  weekly: 'the previous 7 days, ending the day before the run',
  monthly: 'the previous calendar month',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Whose transactions: 'the 9 businesses of Northwind Partners', 'the 3 merchants of Alpha Trading Ltd', 'Alpha Online'. */
function scopeWords(scope: ScheduleScope | null, level: ScheduleScope['level']): string {
  if (level === 'partner') {
    const partner = scope?.level === 'partner' ? scope : null;
    const name = partner?.name ?? 'this partner';
    return partner?.businessCount != null ? `the ${plural(partner.businessCount, 'business', 'businesses')} of ${name}` : `every business of ${name}`;
  }
  if (level === 'business') {
    const business = scope?.level === 'business' ? scope : null;
    const name = business?.name ?? 'this business';
    if (business?.merchantCount == null) return `every merchant of ${name}`;
    return business.merchantCount === 1 ? `${name} (its one merchant)` : `the ${plural(business.merchantCount, 'merchant', 'merchants')} of ${name}`;
  }
  return scope?.level === 'merchant' && scope.name ? scope.name : 'this merchant';
}

/**
 * A scheduled transactions export in one sentence, saying whose transactions it covers: 'All transactions of the 9
 * businesses of Northwind Partners.' or 'Transactions of the 3 merchants of Alpha Trading Ltd with status paid.'
 * The scope is what is known so far (null while it loads: the sentence then says 'every business of this partner').
 */
export function describeScheduleCoverage(filters: Record<string, string>, level: ScheduleScope['level'], scope: ScheduleScope | null): string {
  const whose = scopeWords(scope, level);
  const filtered = describeTransactionFilters(filters);
  return filtered === allTransactionsWords ? `All transactions of ${whose}.` : `Transactions of ${whose} with ${filtered}.`;
}

export function ScheduleDialog({
  open,
  title,
  target,
  camt053 = false,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  target: ScheduleTarget;
  camt053?: boolean;
  onClose: () => void;
  /** what is scheduled, in words (a transactions export's filters and columns) */
  children?: ReactNode;
}) {
  const periodId = useId();
  const queryClient = useQueryClient();
  const exportsTransactions = target.reportType === 'transactions';
  const [fileType, setFileType] = useState<FileType>(exportsTransactions ? 'csv' : 'pdf');
  // A transactions export is mostly wanted every morning (yesterday's); a statement once a month.
  const [frequency, setFrequency] = useState<ScheduleFrequency>(exportsTransactions ? 'daily' : 'monthly');
  const [weekday, setWeekday] = useState(1);
  const [dayOfMonth, setDayOfMonth] = useState(1);
  const [hour, setHour] = useState(6);
  const [timeZone, setTimeZone] = useState(browserZone);
  const [emailWhenReady, setEmailWhenReady] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const zoneOptions = useMemo(() => (open ? zones() : []), [open]);
  const transactionsTarget = target.reportType === 'transactions' ? target : null;
  const scopeLevel: ScheduleScope['level'] =
    transactionsTarget?.partnerId !== undefined ? 'partner' : transactionsTarget?.merchantId !== undefined ? 'merchant' : 'business';
  const scope = useQuery({
    ...scheduleScopeQuery({ partnerId: transactionsTarget?.partnerId, businessId: transactionsTarget?.businessId, merchantId: transactionsTarget?.merchantId }),
    enabled: open && transactionsTarget !== null,
  });
  useEffect(() => {
    if (open) setError(null);
  }, [open]);
  const save = useMutation({
    mutationFn: () => {
      const timing = {
        frequency,
        hour,
        timeZone,
        emailWhenReady,
        ...(frequency === 'weekly' ? { weekday } : {}),
        ...(frequency === 'monthly' ? { dayOfMonth } : {}),
      };
      const body: ReportScheduleBody =
        target.reportType === 'transactions' ? { ...target, fileType: fileType === 'xlsx' ? 'xlsx' : 'csv', ...timing } : { ...target, fileType, ...timing };
      return createSchedule(body);
    },
    onSuccess: (schedule) => {
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
      onClose();
      showToast({
        kind: 'success',
        message: `Scheduled: ${schedule.description}. Each run appears in your report queue.`,
        link: { href: '/reporting-overview', label: 'Open my report queue' },
      });
    },
    onError: (failure) => setError(failure instanceof ApiError ? failure.messages.join(' ') : 'The schedule could not be saved.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!save.isPending) save.mutate();
  };
  const periodText = (exportsTransactions ? exportPeriods : statementPeriods)[frequency];
  const fileTypes: FileType[] = exportsTransactions ? ['csv', 'xlsx'] : camt053 ? ['pdf', 'xlsx', 'csv', 'xml'] : ['pdf', 'xlsx', 'csv'];
  return (
    <FormModal
      open={open}
      title={title}
      onClose={onClose}
      size="md"
      closeActionLabel="Cancel"
      submitLabel="Schedule"
      busyLabel="Saving…"
      busy={save.isPending}
      formClassName="export-form schedule-form"
      onSubmit={submit}
    >
      <p className="export-count" id={periodId}>
        {exportsTransactions
          ? `Each run exports the transactions of ${periodText}, in the time zone chosen below, and lands in My report queue. The view's own date range is not used: each run's period replaces it.`
          : `Each run covers ${periodText} and lands in My report queue.`}
      </p>
      {transactionsTarget ? <p className="schedule-coverage">{describeScheduleCoverage(transactionsTarget.filters, scopeLevel, scope.data ?? null)}</p> : null}
      {children}
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <FileTypeChoice name="scheduleFileType" types={fileTypes} labels={fileTypeLabels} value={fileType} onChange={setFileType} />
      <label className="reporting-select">
        Repeat{' '}
        <select value={frequency} onChange={(event) => setFrequency(event.target.value as ScheduleFrequency)}>
          {scheduleFrequencies.map((value) => (
            <option key={value} value={value}>
              {scheduleFrequencyLabels[value]}
            </option>
          ))}
        </select>
      </label>
      {frequency === 'weekly' ? (
        <label className="reporting-select">
          Weekday{' '}
          <select value={weekday} onChange={(event) => setWeekday(Number(event.target.value))}>
            {weekdayNames.map((name, index) => (
              <option key={name} value={index + 1}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {frequency === 'monthly' ? (
        <label className="reporting-select">
          Day of the month{' '}
          <select value={dayOfMonth} onChange={(event) => setDayOfMonth(Number(event.target.value))}>
            {Array.from({ length: 31 }, (_, index) => index + 1).map((day) => (
              <option key={day} value={day}>
                {day === 31 ? "31 (or the month's last day)" : day > 28 ? `${day} (or the month's last day)` : day}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="reporting-select">
        At{' '}
        <select value={hour} onChange={(event) => setHour(Number(event.target.value))}>
          {Array.from({ length: 24 }, (_, index) => index).map((value) => (
            <option key={value} value={value}>
              {pad(value)}:00
            </option>
          ))}
        </select>
      </label>
      <label className="reporting-select">
        Time zone{' '}
        <select value={timeZone} onChange={(event) => setTimeZone(event.target.value)}>
          {zoneOptions.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <label className="dt-checkbox">
        <input type="checkbox" checked={emailWhenReady} onChange={(event) => setEmailWhenReady(event.target.checked)} />
        Email me when it is ready (a link to the portal, never the file)
      </label>
    </FormModal>
  );
}
