// Resolving a screening alert: a true match (confirmed) or a false positive (dismissed), always with a reason.
// Neither choice is made for the analyst: the dialog starts with no decision (on a 100 % sanctions hit a preselected
// 'dismiss' is one Enter away from clearing a true match), and recording without one says what is missing.
import { useRef, useState } from 'react';
import type { ScreeningAlert } from '../../src/contract/beneficiary-schemas.ts';
import { Modal } from '../../src/ui/modal.tsx';

type Decision = 'confirmed' | 'dismissed';
export const missingDecisionMessage = 'Choose a decision: true match or false positive.';

export function AlertDecisionDialog({
  alert,
  busy,
  onClose,
  onDecide,
}: {
  alert: ScreeningAlert | null;
  busy: boolean;
  onClose: () => void;
  onDecide: (decision: Decision, reason: string) => void;
}) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const tooShort = reason.trim().length < 5;
  const choose = (chosen: Decision) => {
    setDecision(chosen);
    setMissing(false);
  };
  const close = () => {
    setReason('');
    setDecision(null);
    setMissing(false);
    onClose();
  };
  const submit = () => {
    if (tooShort) return;
    if (decision === null) {
      setMissing(true);
      return;
    }
    onDecide(decision, reason.trim());
  };
  return (
    <Modal
      open={alert !== null}
      title="Resolve screening alert"
      onClose={close}
      closeActionLabel="Cancel"
      initialFocus={reasonField}
      description={
        alert ? (
          <p>
            {alert.screenedName}, beneficiary of {alert.businessName}, against {alert.listedName} ({alert.list === 'pep' ? 'PEP' : 'sanctions'}, score{' '}
            {Math.round(alert.score * 100)}%): {alert.listedReason}
          </p>
        ) : null
      }
      footer={
        <button type="submit" form="alert-decision-form" className="button button-primary" disabled={busy || tooShort}>
          Record decision
        </button>
      }
    >
      <form
        id="alert-decision-form"
        className="risk-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset aria-describedby={missing ? 'alert-decision-missing' : undefined}>
          <legend>Decision</legend>
          <label>
            <input type="radio" name="decision" checked={decision === 'dismissed'} onChange={() => choose('dismissed')} /> False positive: dismiss
          </label>
          <label>
            <input type="radio" name="decision" checked={decision === 'confirmed'} onChange={() => choose('confirmed')} /> True match: confirm (the beneficiary
            is rejected)
          </label>
          {missing ? (
            <p id="alert-decision-missing" role="alert" className="form-field-error">
              {missingDecisionMessage}
            </p>
          ) : null}
        </fieldset>
        <label>
          Reason (at least 5 characters)
          <textarea ref={reasonField} rows={3} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>
      </form>
    </Modal>
  );
}
