// A partner's commission plan: its rules in priority order (conditions, volume band, what they earn)
// and the commission earned per month and currency, computed from the ledger's fees and reconciled to the cent
// (server/partners/commission.ts); a month opens its commission per transaction. Both are plain tables a screen reader walks cell by cell. Those who may change the
// plan (finance admins; never the partner) edit it with Shift+E under the version rule: a stale save answers 409 and
// the shell asks 'Someone updated this view'; leaving with unsaved changes asks first. A plan that has not started
// may be deleted ('Delete this commission plan', after a confirmation); once started it is ended by its last day.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { formatDate } from '../../src/format/dates.ts';
import { formatMinorUnits } from '../../src/format/money.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { useVersionedSave } from '../record/versioned-save.ts';
import { useVersionedDraft, VersionedEditForm } from '../../src/ui/record-changed.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { describeBand, describeConditions, describeEarning, formatMonth } from './commission-format.ts';
import { checkPlanDraft, CommissionPlanFields, newRuleDraft, planDraftOf, planEditOf } from './commission-plan-form.tsx';
import { commissionTransactionsPath, deleteCommissionPlan, partnerPath, partnerQueries, saveCommissionPlan } from './partner-queries.ts';
import '../../src/ui/form-field.css';
import '../../src/ui/data-table/data-table.css';
import '../configurations/configurations.css';
import './partners.css';

export function CommissionPlanPane({ params }: PaneProps) {
  const partnerId = params.partnerId ?? '';
  const planId = params.commissionPlanId ?? '';
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const plan = useQuery(partnerQueries.commissionPlan(partnerId, planId));
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const ids = { title: useId(), rules: useId(), months: useId(), edit: useId(), perTransaction: useId() };
  const editor = useVersionedDraft(plan.data, planDraftOf);
  const { draft, setDraft, editing, theirs, tried } = editor;
  useLeaveFormGuard(editor.dirty);
  const firstField = useRef<HTMLInputElement>(null);
  const editForm = useRef<HTMLFormElement>(null);
  const startEditing = () => {
    if (!plan.data?.editable) return;
    editor.start();
    requestAnimationFrame(() => firstField.current?.focus());
  };
  // Only a plan that has not started: the server refuses the others (months earned under them are history).
  const deletable = plan.data?.editable === true && plan.data.status === 'Scheduled' && !editing;
  const askDelete = () => {
    if (deletable) setConfirmingDelete(true);
  };
  usePaneCapabilities({
    ...(plan.data?.editable && !editing ? { edit: startEditing } : {}),
    ...(deletable ? { delete: askDelete } : {}),
    ...(editing && draft
      ? { save: () => editForm.current?.requestSubmit(), newItem: () => setDraft({ ...draft, rules: [...draft.rules, newRuleDraft(draft.rules)] }) }
      : {}),
  });
  const save = useVersionedSave({
    editor,
    record: partnerQueries.commissionPlan(partnerId, planId),
    save: (edited: NonNullable<typeof draft>, version) => saveCommissionPlan(partnerId, planId, { ...planEditOf(edited), version }),
    onSaved: async () => {
      await queryClient.invalidateQueries({ queryKey: partnerQueries.detail(partnerId).queryKey });
      showToast({ kind: 'success', message: 'Commission plan saved.' });
    },
  });

  const remove = useMutation({
    mutationFn: (version: number) => deleteCommissionPlan(partnerId, planId, version),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: partnerQueries.commissionPlan(partnerId, planId).queryKey });
      await queryClient.invalidateQueries({ queryKey: partnerQueries.detail(partnerId).queryKey });
      showToast({ kind: 'success', message: 'Commission plan deleted.' });
      navigate(partnerPath(partnerId));
    },
    // Stale (409) or started meanwhile (400): the shell shows why; the plan is read again as it now is.
    onError: () => queryClient.invalidateQueries({ queryKey: partnerQueries.commissionPlan(partnerId, planId).queryKey }),
  });

  if (plan.isPending)
    return (
      <div className="record-pane">
        <Skeleton lines={8} label="Loading the commission plan" />
      </div>
    );
  if (plan.isError) {
    const notFound = isApiError(plan.error) && plan.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Commission plan {planId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The commission plan could not be loaded.'}</p>
      </div>
    );
  }
  const detail = plan.data;
  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>{detail.name}</h1>
        <span className="status-chip" data-tone={detail.status === 'Active' ? 'success' : undefined}>
          {detail.status}
        </span>
        {detail.editable && !editing ? (
          <button type="button" className="button" onClick={startEditing}>
            Edit plan
          </button>
        ) : null}
        {deletable ? (
          <button type="button" className="button" onClick={askDelete} disabled={remove.isPending}>
            Delete plan
          </button>
        ) : null}
      </header>
      <ConfirmDialog
        open={confirmingDelete}
        title="Delete this commission plan?"
        text={`'${detail.name}' and its ${detail.rules.length === 1 ? 'rule' : `${detail.rules.length} rules`} will be deleted. The plan has not started, so nothing has been earned under it.`}
        confirmLabel="Delete"
        cancelLabel="Keep the plan"
        onConfirm={() => {
          setConfirmingDelete(false);
          remove.mutate(detail.version);
        }}
        onCancel={() => setConfirmingDelete(false)}
      />
      {editing && draft ? (
        <VersionedEditForm
          editor={editor}
          formRef={editForm}
          heading="Edit commission plan"
          headingId={ids.edit}
          what="commission plan"
          theirs={
            theirs ? (
              <>
                Someone else saved this plan meanwhile ('{theirs.name}', {theirs.rules.length} rules).
              </>
            ) : null
          }
          hasProblems={() => Object.keys(checkPlanDraft(draft)).length > 0}
          onSave={(version) => save.mutate({ draft, version })}
        >
          <CommissionPlanFields draft={draft} onChange={setDraft} errors={tried ? checkPlanDraft(draft) : {}} firstField={firstField} />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              Save plan
            </button>
            <button type="button" className="button" onClick={editor.stop}>
              Cancel
            </button>
          </div>
        </VersionedEditForm>
      ) : null}
      <dl className="partner-figures">
        <div>
          <dt>Partner</dt>
          <dd>
            <a href={partnerPath(detail.partnerId)}>{detail.partnerName}</a>
          </dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>
            {formatDate(detail.validFrom)} to {detail.validTo ? formatDate(detail.validTo) : 'open-ended'}
          </dd>
        </div>
        {detail.totals.map((total) => (
          <div key={total.currency}>
            <dt>Commission earned in {total.currency}</dt>
            <dd>{formatMinorUnits(total.commissionMinor, total.currency)}</dd>
          </div>
        ))}
      </dl>

      <section className="record-section" aria-labelledby={ids.rules}>
        <h2 id={ids.rules}>Rules</h2>
        <p className="partners-note">
          Each fee-bearing transaction earns under the first rule that matches it, lowest priority number first; the volume band is the partner's paid sales
          that month in the fee's currency.
        </p>
        <div className="plain-table-scroll">
          <table className="plain-table">
            <caption className="visually-hidden">Rules of {detail.name}, in priority order</caption>
            <thead>
              <tr>
                <th scope="col">Priority</th>
                <th scope="col">Rule</th>
                <th scope="col">Applies to</th>
                <th scope="col">Monthly volume</th>
                <th scope="col">Earns</th>
              </tr>
            </thead>
            <tbody>
              {detail.rules.map((rule) => (
                <tr key={rule.ruleId}>
                  <td>{rule.priority}</td>
                  <th scope="row">{rule.description}</th>
                  <td>{describeConditions(rule)}</td>
                  <td>{describeBand(rule)}</td>
                  <td>{describeEarning(rule)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="record-section" aria-labelledby={ids.months}>
        <h2 id={ids.months}>Commission earned per month</h2>
        <p className="partners-note" id={ids.perTransaction}>
          Open a month to see its commission transaction by transaction.
        </p>
        {detail.months.length === 0 ? (
          <p>No fees have been charged under this plan yet.</p>
        ) : (
          <div className="plain-table-scroll">
            <table className="plain-table">
              <caption className="visually-hidden">Commission earned per month, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Currency</th>
                  <th scope="col" className="numeric">
                    Volume
                  </th>
                  <th scope="col" className="numeric">
                    Transactions
                  </th>
                  <th scope="col" className="numeric">
                    Fees
                  </th>
                  <th scope="col" className="numeric">
                    Commission
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.months.map((month) => (
                  <tr key={`${month.month}-${month.currency}`}>
                    <th scope="row">
                      <a
                        href={commissionTransactionsPath(detail.partnerId, detail.commissionPlanId, month.month, month.currency)}
                        aria-describedby={ids.perTransaction}
                      >
                        {formatMonth(month.month)}
                      </a>
                    </th>
                    <td>{month.currency}</td>
                    <td className="numeric">{formatMinorUnits(month.volumeMinor, month.currency)}</td>
                    <td className="numeric">
                      {month.transactionCount.toLocaleString('en-GB')}
                      {month.unmatchedCount > 0 ? ` (${month.unmatchedCount.toLocaleString('en-GB')} matched no rule)` : ''}
                    </td>
                    <td className="numeric">{formatMinorUnits(month.feesMinor, month.currency)}</td>
                    <td className="numeric">{formatMinorUnits(month.commissionMinor, month.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </article>
  );
}
