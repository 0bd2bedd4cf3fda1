// One beneficiary: its details, its screening alerts (each resolved by a risk analyst with a reason) and its status.
// Approve (Shift+Y) is offered only when the server says the caller may: not the creator or last changer (four
// eyes), no open or confirmed alert, an independent person signed in with two-factor. After a status change the beneficiary is read again (spec).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { userQueries } from '../../src/api/user-queries.ts';
import { screeningAlertStatusLabels } from '../../src/contract/beneficiaries.ts';
import type { Beneficiary, ScreeningAlert } from '../../src/contract/beneficiary-schemas.ts';
import { formatIban } from '../../src/contract/iban.ts';
import { formatDate, formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { useFocusRequest } from '../../src/ui/focus-request.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { AlertDecisionDialog } from './alert-decision-dialog.tsx';
import { beneficiaryQueries, resolveAlert, setBeneficiaryStatus } from './beneficiary-queries.ts';
import '../watch-list/watch-list.css';

/** Whether the latest change was the approval, referral or rejection (made when the record last changed). */
const lastChangeWasDecision = (data: Beneficiary) => data.statusChangedUtc !== null && data.statusChangedUtc === data.lastUpdatedUtc;

export function BeneficiaryDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const beneficiaryId = params.beneficiaryId ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery(beneficiaryQueries.detail(businessId, beneficiaryId));
  const permissions = useQuery(userQueries.permissions(`/user/businesses/${encodeURIComponent(businessId)}/permissions`));
  const held = new Set(permissions.data ?? []);
  const [deciding, setDeciding] = useState<ScreeningAlert | null>(null);
  const reread = () => queryClient.invalidateQueries({ queryKey: beneficiaryQueries.all });
  const statusValue = useRef<HTMLElement>(null);
  const requestFocus = useFocusRequest();
  const status = useMutation({
    mutationFn: (next: 'Approved' | 'Referred' | 'Rejected') => setBeneficiaryStatus(businessId, beneficiaryId, next, detail.data?.version ?? 0),
    onSuccess: async (_answer, next) => {
      await reread();
      showToast({ kind: 'success', message: `Beneficiary ${next.toLowerCase()}.` });
      // The button pressed is now disabled (the status it sets holds): focus goes to the status it changed.
      requestFocus(() => statusValue.current);
    },
  });
  const decide = useMutation({
    mutationFn: ({ alert, decision, reason }: { alert: ScreeningAlert; decision: 'confirmed' | 'dismissed'; reason: string }) =>
      resolveAlert(businessId, beneficiaryId, alert.alertId, decision, reason, alert.version),
    onSuccess: async (_answer, { decision }) => {
      setDeciding(null);
      await reread();
      showToast({
        kind: 'success',
        message: decision === 'confirmed' ? 'Match confirmed; the beneficiary is rejected.' : 'Alert dismissed as a false positive.',
      });
    },
  });
  const data = detail.data;
  const openAlerts = data?.alerts.filter((alert) => alert.status === 'open') ?? [];
  const canResolve = held.has('Mapi.Screening.Resolve');
  const canDecideStatus = held.has('Mapi.Beneficiary.Approve');

  const handlers: PaneRequestHandlers = {};
  if (data && deciding === null) {
    if (data.approvable && data.status !== 'Approved') handlers.approve = () => status.mutate('Approved');
    if (canResolve && openAlerts[0]) handlers.resolveAlert = () => setDeciding(openAlerts[0] ?? null);
  }
  usePaneCapabilities(handlers);

  if (detail.isPending) return <Skeleton lines={6} label="Loading the beneficiary" />;
  if (detail.isError || !data)
    return (
      <p role="alert" className="risk-pane">
        The beneficiary could not be loaded.
      </p>
    );
  return (
    <section className="risk-pane" aria-labelledby="beneficiary-title">
      <header className="risk-header">
        <h1 id="beneficiary-title">{data.name}</h1>
        {canDecideStatus ? (
          <div className="risk-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={!data.approvable || data.status === 'Approved'}
              aria-disabled={status.isPending}
              onClick={() => {
                if (!status.isPending) status.mutate('Approved');
              }}
            >
              Approve
            </button>
            <button
              type="button"
              className="button"
              disabled={data.status === 'Referred'}
              aria-disabled={status.isPending}
              onClick={() => {
                if (!status.isPending) status.mutate('Referred');
              }}
            >
              Refer
            </button>
            <button
              type="button"
              className="button"
              disabled={data.status === 'Rejected'}
              aria-disabled={status.isPending}
              onClick={() => {
                if (!status.isPending) status.mutate('Rejected');
              }}
            >
              Reject
            </button>
          </div>
        ) : null}
      </header>
      {canDecideStatus && data.approvalRefusal && data.status !== 'Approved' ? (
        <p className="risk-note" role="note">
          {data.approvalRefusal}
        </p>
      ) : null}
      <dl className="risk-facts">
        <dt>Status</dt>
        <dd ref={statusValue} tabIndex={-1}>
          {data.status}
          {data.statusChangedBy ? ` (by ${data.statusChangedBy}${data.statusChangedUtc ? `, ${formatDateTime(data.statusChangedUtc)}` : ''})` : ''}
        </dd>
        <dt>Business</dt>
        <dd>
          {data.businessName}
          {data.businessName !== data.businessId ? <span className="muted"> ({data.businessId})</span> : null}
        </dd>
        <dt>Type</dt>
        <dd>{data.kind === 'company' ? 'Company' : 'Person'}</dd>
        {data.kind === 'person' ? (
          <>
            <dt>Date of birth</dt>
            <dd>{data.dateOfBirth ? formatDate(data.dateOfBirth) : '—'}</dd>
          </>
        ) : null}
        <dt>Name on the bank account</dt>
        <dd>{data.nameOnBankAccount}</dd>
        <dt>IBAN</dt>
        <dd>{formatIban(data.iban)}</dd>
        <dt>BIC</dt>
        <dd>{data.bic}</dd>
        <dt>Created by</dt>
        <dd>
          {data.createdBy}, {formatDateTime(data.createdUtc)}
        </dd>
        {/* The latest change, whoever made it: the decision when nothing changed after it, else the change of details. */}
        <dt>Last changed by</dt>
        <dd>
          {data.lastChangedBy}, {formatDateTime(data.lastUpdatedUtc)}
          {lastChangeWasDecision(data) ? ` (${data.status.toLowerCase()})` : ' (details)'}
        </dd>
      </dl>
      <h2>Screening alerts</h2>
      {data.alerts.length === 0 ? (
        <p>No possible match on the sanctions and PEP list.</p>
      ) : (
        <table className="notifications-table" aria-label="Screening alerts">
          <thead>
            <tr>
              <th scope="col">Listed name</th>
              <th scope="col">List</th>
              <th scope="col">Score</th>
              <th scope="col">Status</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {data.alerts.map((alert) => (
              <tr key={alert.alertId}>
                <th scope="row">
                  {alert.listedName}
                  {alert.listedDateOfBirth ? `, born ${alert.listedDateOfBirth}` : ''}
                  <br />
                  <small>{alert.listedReason}</small>
                </th>
                <td>{alert.list === 'pep' ? 'PEP' : 'Sanctions'}</td>
                <td>{Math.round(alert.score * 100)}%</td>
                <td>{screeningAlertStatusLabels[alert.status]}</td>
                <td>
                  {alert.status === 'open' && canResolve ? (
                    <button type="button" className="button" onClick={() => setDeciding(alert)}>
                      Resolve alert: {alert.listedName}
                    </button>
                  ) : alert.reason ? (
                    `${alert.reason} (${alert.resolvedBy ?? ''})`
                  ) : (
                    'Awaiting a risk analyst'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {/* Keyed by the alert: each alert's dialog starts afresh, never on the decision recorded for the one before. */}
      <AlertDecisionDialog
        key={deciding?.alertId ?? 'none'}
        alert={deciding}
        busy={decide.isPending}
        onClose={() => setDeciding(null)}
        onDecide={(decision, reason) => {
          if (deciding) decide.mutate({ alert: deciding, decision, reason });
        }}
      />
    </section>
  );
}
