// A new commission plan for a partner (finance admins; 'New commission plan' on the partner). The plan's edit form
// (commission-plan-form.tsx) with its checks, starting on the first day of next month so that the plan is scheduled
// (and can still be deleted) until then; saved, the screen goes to the new plan.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { checkPlanDraft, CommissionPlanFields, newRuleDraft, type PlanDraft, planEditOf } from './commission-plan-form.tsx';
import { commissionPlanPath, createCommissionPlan, partnerPath, partnerQueries } from './partner-queries.ts';
import '../../src/ui/form-field.css';
import '../configurations/configurations.css';
import './partners.css';

/** The first day of the month after `now` (UTC), 'YYYY-MM-DD'. */
export function firstOfNextMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

export const emptyPlanDraft = (now: Date): PlanDraft => ({ name: '', validFrom: firstOfNextMonth(now), validTo: '', rules: [newRuleDraft([])] });

export function NewCommissionPlanPane({ params }: PaneProps) {
  const partnerId = params.partnerId ?? '';
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const ids = { title: useId() };
  const [initial] = useState(() => emptyPlanDraft(new Date()));
  const [draft, setDraft] = useState<PlanDraft>(initial);
  const [tried, setTried] = useState(false);
  const [next, setNext] = useState<string | null>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const dirty = next === null && JSON.stringify(draft) !== JSON.stringify(initial);
  useLeaveFormGuard(dirty);
  useEffect(() => firstField.current?.focus(), []);
  // Leave once the guard has been told the form holds nothing (navigating in onSuccess would ask first).
  useEffect(() => {
    if (next) navigate(next, { replace: true });
  }, [next, navigate]);

  const create = useMutation({
    mutationFn: (values: PlanDraft) => createCommissionPlan(partnerId, planEditOf(values)),
    onSuccess: async (created) => {
      queryClient.setQueryData(partnerQueries.commissionPlan(partnerId, created.commissionPlanId).queryKey, created);
      await queryClient.invalidateQueries({ queryKey: partnerQueries.detail(partnerId).queryKey });
      showToast({ kind: 'success', message: 'Commission plan created.' });
      setNext(commissionPlanPath(partnerId, created.commissionPlanId));
    },
  });
  usePaneCapabilities({
    save: () => form.current?.requestSubmit(),
    newItem: () => setDraft((current) => ({ ...current, rules: [...current.rules, newRuleDraft(current.rules)] })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(checkPlanDraft(draft)).length === 0 && !create.isPending) create.mutate(draft);
  };

  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>New commission plan</h1>
      </header>
      <form ref={form} aria-labelledby={ids.title} onSubmit={submit} noValidate>
        <CommissionPlanFields draft={draft} onChange={setDraft} errors={tried ? checkPlanDraft(draft) : {}} firstField={firstField} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Create plan
          </button>
          <a className="button" href={partnerPath(partnerId)}>
            Cancel
          </a>
        </div>
      </form>
    </article>
  );
}
