// Scheduled statements and reports in My report queue: what each schedule sends and when, its next and last run
// (a failed last run says why), and Pause / Resume / Delete. Made from a statement's 'Schedule statement…' or the
// transactions overview's 'Schedule this export…' (described by its filters, timing and period).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import type { ReportSchedule } from '../../src/contract/report-schedule-schemas.ts';
import { scheduleReportLabel } from '../../src/contract/report-schedules.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { ApiError } from '../../src/api/api-error.ts';
import { deleteSchedule, scheduleQueries, setSchedulePaused } from './schedule-queries.ts';
import { reportQueries } from './report-queries.ts';
import '../reporting/reporting.css';

const fileLabels: Record<string, string> = { pdf: 'PDF', xlsx: 'XLSX', csv: 'CSV', xml: 'camt.053 XML' };
const outcomeLabels = { queued: 'Queued', generated: 'Ready', failed: 'Failed' } as const;
const scheduleName = (schedule: ReportSchedule) => `${scheduleReportLabel(schedule.reportType)} ${schedule.accountNumber}`.trim();

function ScheduleActions({ schedule }: { schedule: ReportSchedule }) {
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: async (action: 'pause' | 'resume' | 'delete') => {
      if (action === 'delete') await deleteSchedule(schedule.id);
      else await setSchedulePaused(schedule, action === 'pause');
      return action;
    },
    onSuccess: (action) => {
      showToast({ kind: 'success', message: action === 'delete' ? 'The schedule has been deleted.' : action === 'pause' ? 'The schedule is paused.' : 'The schedule runs again.' });
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    },
    onError: (error) => {
      showToast({ kind: 'danger', message: error instanceof ApiError && error.status === 409 ? 'Someone updated this view' : 'The schedule could not be changed.' });
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    },
  });
  const name = scheduleName(schedule);
  return (
    <span className="report-actions">
      <button type="button" className="button button-small" aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${name}`} disabled={act.isPending}
        onClick={() => act.mutate(schedule.paused ? 'resume' : 'pause')}>{schedule.paused ? 'Resume' : 'Pause'}</button>
      <button type="button" className="button button-ghost button-small" aria-label={`Delete schedule ${name}`} disabled={act.isPending} onClick={() => act.mutate('delete')}>Delete</button>
    </span>
  );
}

export function ScheduledReports({ focus }: { focus: boolean }) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const queryClient = useQueryClient();
  const list = useQuery(scheduleQueries.list());
  const schedules = list.isError ? [] : list.data?.results ?? [];
  useEffect(() => {
    if (focus && list.isSuccess) heading.current?.focus();
  }, [focus, list.isSuccess]);
  // A run queues a report: the queue above shows it when the schedules are refreshed.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    void queryClient.invalidateQueries({ queryKey: reportQueries.all });
  };
  return (
    <section className="scheduled-reports" aria-labelledby={titleId} id="scheduled-reports">
      <div className="report-queue-head">
        <h2 id={titleId} ref={heading} tabIndex={-1}>Scheduled statements and reports</h2>
        <button type="button" className="button button-ghost" onClick={refresh}>Refresh schedules</button>
      </div>
      {list.isError ? <p role="alert">Your schedules could not be loaded.</p> : null}
      {list.isPending ? <p>Loading schedules…</p> : null}
      {list.isSuccess && schedules.length === 0 ? <p>No schedules yet. Open a statement and choose Schedule statement…, or the transactions overview and choose Schedule this export…, to receive it daily, weekly or monthly.</p> : null}
      {schedules.length > 0 ? (
        <table className="reporting-totals scheduled-reports-table">
          <caption className="visually-hidden">Scheduled statements and reports</caption>
          <thead>
            <tr><th scope="col">Report</th><th scope="col">For</th><th scope="col">When</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Email</th><th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {schedules.map((schedule) => (
              <tr key={schedule.id}>
                <th scope="row">{scheduleName(schedule)} · {fileLabels[schedule.fileType] ?? schedule.fileType}</th>
                <td>{schedule.context.title}</td>
                <td>{schedule.description}</td>
                <td>{schedule.paused ? <span className="status-chip" data-tone="neutral">Paused</span> : schedule.nextRunAt ? formatDateTime(schedule.nextRunAt) : 'N/A'}</td>
                <td>
                  {schedule.lastRunAt ? `${formatDateTime(schedule.lastRunAt)} · ${schedule.lastOutcome ? outcomeLabels[schedule.lastOutcome] : ''}` : 'Not run yet'}
                  {schedule.lastOutcome === 'failed' && schedule.lastError ? <span className="report-error"> {schedule.lastError}</span> : null}
                </td>
                <td>{schedule.emailWhenReady ? 'Yes' : 'No'}</td>
                <td><ScheduleActions schedule={schedule} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
