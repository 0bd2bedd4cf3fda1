// Scheduled statements and reports in My report queue: what each schedule sends and when, its next and last run
// (a failed last run says why), and Run now / Pause / Resume / Delete. Made from a statement's 'Schedule statement…'
// or the transactions overview's 'Schedule this export…' (described by its filters, timing and period).
// Run now (the button, or Shift+R on the current schedule: the row last holding focus, or the only one) queues one run
// of the period just ended; it is offered only where the server says it would run it (mayRunNow).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { ReportSchedule, ReportScheduleRun } from '../../src/contract/report-schedule-schemas.ts';
import { scheduleReportLabel } from '../../src/contract/report-schedules.ts';
import { formatDate, formatDateTime } from '../../src/format/dates.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { ApiError } from '../../src/api/api-error.ts';
import { useFocusRequest } from '../../src/ui/focus-request.ts';
import { newIdempotencyKey } from '../payment-jobs/payment-job-queries.ts';
import { deleteSchedule, runScheduleNow, scheduleQueries, setSchedulePaused } from './schedule-queries.ts';
import { reportQueries } from './report-queries.ts';
import '../reporting/reporting.css';

const fileLabels: Record<string, string> = { pdf: 'PDF', xlsx: 'XLSX', csv: 'CSV', xml: 'camt.053 XML' };
const outcomeLabels = { queued: 'Queued', generated: 'Ready', failed: 'Failed' } as const;
const scheduleName = (schedule: ReportSchedule) => `${scheduleReportLabel(schedule.reportType)} ${schedule.accountNumber}`.trim();
// Calendar days of the schedule's zone: read at noon, so no browser zone moves them to the day before.
const dayWords = (day: string) => formatDate(`${day}T12:00:00`);
const periodWords = (run: ReportScheduleRun) =>
  run.periodFirstDay === run.periodLastDay ? dayWords(run.periodFirstDay) : `${dayWords(run.periodFirstDay)} to ${dayWords(run.periodLastDay)}`;
/** The toast after Run now: what was queued and where the file will be. */
const runNowMessage = (run: ReportScheduleRun) =>
  `${scheduleName(run.schedule)} for ${periodWords(run)} is queued. The file appears in My report queue when it is ready${run.schedule.emailWhenReady ? ', and you get an email then' : ''}.`;
/** The id of a schedule's Run now button, where focus lands after a run. */
const runButtonId = (prefix: string, schedule: ReportSchedule) => `${prefix}-run-${schedule.id}`;

function ScheduleActions({ schedule, runButton, running, onRun }: { schedule: ReportSchedule; runButton: string; running: boolean; onRun: () => void }) {
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: async (action: 'pause' | 'resume' | 'delete') => {
      if (action === 'delete') await deleteSchedule(schedule.id);
      else await setSchedulePaused(schedule, action === 'pause');
      return action;
    },
    onSuccess: (action) => {
      showToast({
        kind: 'success',
        message: action === 'delete' ? 'The schedule has been deleted.' : action === 'pause' ? 'The schedule is paused.' : 'The schedule runs again.',
      });
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    },
    onError: (error) => {
      showToast({
        kind: 'danger',
        message: error instanceof ApiError && error.status === 409 ? 'Someone updated this view' : 'The schedule could not be changed.',
      });
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    },
  });
  const name = scheduleName(schedule);
  return (
    <span className="report-actions">
      {schedule.mayRunNow ? (
        // aria-disabled, not disabled, while it runs: focus stays on the button rather than falling to the page.
        <button
          type="button"
          id={runButton}
          className="button button-small"
          aria-label={`Run now ${name}`}
          aria-disabled={running}
          aria-keyshortcuts="Shift+R"
          onClick={() => {
            if (!running) onRun();
          }}
        >
          {running ? 'Running…' : 'Run now'}
        </button>
      ) : null}
      <button
        type="button"
        className="button button-small"
        aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${name}`}
        disabled={act.isPending}
        onClick={() => act.mutate(schedule.paused ? 'resume' : 'pause')}
      >
        {schedule.paused ? 'Resume' : 'Pause'}
      </button>
      <button
        type="button"
        className="button button-ghost button-small"
        aria-label={`Delete schedule ${name}`}
        disabled={act.isPending}
        onClick={() => act.mutate('delete')}
      >
        Delete
      </button>
    </span>
  );
}

export function ScheduledReports({
  focus,
  onRunNowChange,
}: {
  focus: boolean;
  /** the current schedule's Run now while the server would run it, else null: the pane declares it to the command */
  onRunNowChange?: (run: (() => void) | null) => void;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const queryClient = useQueryClient();
  const list = useQuery(scheduleQueries.list());
  const schedules = list.isError ? [] : (list.data?.results ?? []);
  useEffect(() => {
    if (focus && list.isSuccess) heading.current?.focus();
  }, [focus, list.isSuccess]);
  const requestFocus = useFocusRequest();
  // One Idempotency-Key per schedule until its run is answered: a second press or a retry is the same run.
  const runKeys = useRef(new Map<string, string>());
  const run = useMutation({
    mutationFn: (schedule: ReportSchedule) => {
      const key = runKeys.current.get(schedule.id) ?? newIdempotencyKey();
      runKeys.current.set(schedule.id, key);
      return runScheduleNow(schedule.id, key);
    },
    onSuccess: (answer, schedule) => {
      runKeys.current.delete(schedule.id);
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
      void queryClient.invalidateQueries({ queryKey: reportQueries.all });
      showToast({
        kind: 'success',
        message: runNowMessage(answer),
        link: { href: `/reporting-overview?report=${encodeURIComponent(answer.reportId)}`, label: 'Open the queued report' },
      });
      // Back on the schedule's Run now (the palette or a shortcut may have moved focus away).
      requestFocus(() => document.getElementById(runButtonId(titleId, schedule)));
    },
    onError: (error) => {
      showToast({
        kind: 'danger',
        message: error instanceof ApiError && error.messages.length > 0 ? error.messages.join(' ') : 'The schedule could not be run now.',
      });
      void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    },
  });
  // The current schedule: the row that last held focus, else the only one.
  const [currentId, setCurrentId] = useState<string | null>(null);
  const current = schedules.find((schedule) => schedule.id === currentId) ?? (schedules.length === 1 ? schedules[0] : undefined);
  const runCurrent = current?.mayRunNow ? current : null;
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    if (!onRunNowChange) return undefined;
    onRunNowChange(
      runCurrent
        ? () => {
            if (!runRef.current.isPending) runRef.current.mutate(runCurrent);
          }
        : null,
    );
    return () => onRunNowChange(null);
  }, [onRunNowChange, runCurrent]);
  // A run queues a report: the queue above shows it when the schedules are refreshed.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: scheduleQueries.all });
    void queryClient.invalidateQueries({ queryKey: reportQueries.all });
  };
  return (
    <section className="scheduled-reports" aria-labelledby={titleId} id="scheduled-reports">
      <div className="report-queue-head">
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          Scheduled statements and reports
        </h2>
        <button type="button" className="button button-ghost" onClick={refresh}>
          Refresh schedules
        </button>
      </div>
      {list.isError ? <p role="alert">Your schedules could not be loaded.</p> : null}
      {list.isPending ? <p>Loading schedules…</p> : null}
      {list.isSuccess && schedules.length === 0 ? (
        <p>
          No schedules yet. Open a statement and choose Schedule statement…, or the transactions overview and choose Schedule this export…, to receive it daily,
          weekly or monthly.
        </p>
      ) : null}
      {schedules.length > 0 ? (
        <table className="reporting-totals scheduled-reports-table">
          <caption className="visually-hidden">Scheduled statements and reports</caption>
          <thead>
            <tr>
              <th scope="col">Report</th>
              <th scope="col">For</th>
              <th scope="col">When</th>
              <th scope="col">Next run</th>
              <th scope="col">Last run</th>
              <th scope="col">Email</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {schedules.map((schedule) => (
              <tr key={schedule.id} onFocus={() => setCurrentId(schedule.id)}>
                <th scope="row">
                  {scheduleName(schedule)} · {fileLabels[schedule.fileType] ?? schedule.fileType}
                </th>
                {/* A partner's export covers each of its businesses: said here as in the dialog that made it. */}
                <td>{schedule.context.level === 'partner' ? `${schedule.context.title} (all its businesses)` : schedule.context.title}</td>
                <td>{schedule.description}</td>
                <td>
                  {schedule.paused ? (
                    <span className="status-chip" data-tone="neutral">
                      Paused
                    </span>
                  ) : schedule.nextRunAt ? (
                    formatDateTime(schedule.nextRunAt)
                  ) : (
                    'N/A'
                  )}
                </td>
                <td>
                  {schedule.lastRunAt
                    ? `${formatDateTime(schedule.lastRunAt)} · ${schedule.lastOutcome ? outcomeLabels[schedule.lastOutcome] : ''}`
                    : 'Not run yet'}
                  {schedule.lastOutcome === 'failed' && schedule.lastError ? <span className="report-error"> {schedule.lastError}</span> : null}
                </td>
                <td>{schedule.emailWhenReady ? 'Yes' : 'No'}</td>
                <td>
                  <ScheduleActions
                    schedule={schedule}
                    runButton={runButtonId(titleId, schedule)}
                    running={run.isPending && run.variables.id === schedule.id}
                    onRun={() => run.mutate(schedule)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
