// A payment's trace: the gateway conversation as a vertical timeline with times and the time between steps;
// 'advanced' shows the raw messages (card data masked) in a monospace block that can be copied.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ContextSelections } from '../../src/contract/context.ts';
import { isApiError } from '../../src/api/api-error.ts';
import { contextPath, contextStore } from '../../src/state/context-store.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { formatShortDateTime } from '../../src/format/dates.ts';
import { paymentJobQueries } from './payment-job-queries.ts';
import './payment-jobs.css';

export const formatDuration = (ms: number | null | undefined) =>
  ms === null || ms === undefined
    ? null
    : ms < 1000
      ? `${ms} ms`
      : ms < 120_000
        ? `${(ms / 1000).toFixed(1)} s`
        : ms < 7_200_000
          ? `${Math.round(ms / 60_000)} min`
          : `${Math.round(ms / 3_600_000)} h`;

export function PaymentTracePane({ params }: PaneProps) {
  const traceReference = params.traceReference ?? '';
  const { applied } = useSnapshot(contextStore);
  const contextPrefix = contextPath(applied as ContextSelections) ?? '';
  const [advanced, setAdvanced] = useState(false);
  const trace = useQuery({ ...paymentJobQueries.trace(contextPrefix, traceReference, advanced), enabled: contextPrefix !== '' });
  const copy = (text: string) => void navigator.clipboard?.writeText(text).then(() => showToast({ kind: 'success', message: 'Message copied.' }));

  return (
    <article className="payment-job-detail" aria-labelledby="trace-title">
      <header className="payment-job-title">
        <h1 id="trace-title">Trace {traceReference}</h1>
        <label className="checkbox-field">
          <input type="checkbox" checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} /> Advanced: show raw messages
        </label>
      </header>
      {contextPrefix === '' ? (
        <p role="alert">Choose a business or merchant first.</p>
      ) : trace.isPending ? (
        <Skeleton lines={6} label="Loading the trace" />
      ) : trace.isError ? (
        <p role="alert">{isApiError(trace.error) && trace.error.status === 404 ? 'The requested record was not found.' : 'The trace could not be loaded.'}</p>
      ) : (
        <>
          <p>
            Payment {trace.data.paymentId} of payment job{' '}
            <a
              className="data-table-link"
              href={`/configurations/${encodeURIComponent(params.configurationId ?? '')}/payments/${encodeURIComponent(trace.data.paymentJobReference)}`}
            >
              {trace.data.paymentJobReference}
            </a>
          </p>
          <ol className="trace-timeline" aria-label="Trace sequences">
            {trace.data.traceSequences.map((sequence) => (
              <li key={sequence.sequence} data-direction={sequence.direction}>
                <span>
                  {sequence.sequence}. {sequence.message}
                </span>
                <span className="trace-meta">
                  <time dateTime={sequence.timestampUtc}>{formatShortDateTime(sequence.timestampUtc)}</time>
                  <span>{sequence.direction === 'outbound' ? 'to the acquirer' : 'from the acquirer'}</span>
                  {formatDuration(sequence.durationMs) ? (
                    <span>
                      {sequence.direction === 'inbound' ? 'answered after' : 'after the previous step'} {formatDuration(sequence.durationMs)}
                    </span>
                  ) : null}
                </span>
                {advanced && (sequence.rawRequest || sequence.rawResponse) ? (
                  <div>
                    <pre className="trace-raw" role="group" aria-label={`Raw message ${sequence.sequence}`}>
                      {sequence.rawRequest ?? sequence.rawResponse}
                    </pre>
                    <button type="button" className="button" onClick={() => copy(sequence.rawRequest ?? sequence.rawResponse ?? '')}>
                      Copy message {sequence.sequence}
                    </button>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </article>
  );
}
