// Resolving a screening alert: a true match (confirmed) or a false positive (dismissed), always with a reason.
import { useRef, useState } from 'react';
import type { ScreeningAlert } from '../../src/contract/beneficiaries.ts';
import { Modal } from '../../src/ui/modal.tsx';

export function AlertDecisionDialog({ alert, busy, onClose, onDecide }: {
  alert: ScreeningAlert | null; busy: boolean; onClose: () => void; onDecide: (decision: 'confirmed' | 'dismissed', reason: string) => void;
}) {
  const [decision, setDecision] = useState<'confirmed' | 'dismissed'>('dismissed');
  const [reason, setReason] = useState('');
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const tooShort = reason.trim().length < 5;
  const close = () => { setReason(''); setDecision('dismissed'); onClose(); };
  return (
    <Modal open={alert !== null} title="Resolve screening alert" onClose={close} closeActionLabel="Cancel" initialFocus={reasonField}
      description={alert ? <p>{alert.screenedName} against {alert.listedName} ({alert.list === 'pep' ? 'PEP' : 'sanctions'}, score {Math.round(alert.score * 100)}%): {alert.listedReason}</p> : null}
      footer={<button type="submit" form="alert-decision-form" className="button button-primary" disabled={busy || tooShort}>Record decision</button>}>
      <form id="alert-decision-form" className="risk-form" onSubmit={(event) => { event.preventDefault(); if (!tooShort) onDecide(decision, reason.trim()); }}>
        <fieldset>
          <legend>Decision</legend>
          <label><input type="radio" name="decision" checked={decision === 'dismissed'} onChange={() => setDecision('dismissed')} /> False positive: dismiss</label>
          <label><input type="radio" name="decision" checked={decision === 'confirmed'} onChange={() => setDecision('confirmed')} /> True match: confirm (the beneficiary is rejected)</label>
        </fieldset>
        <label>Reason (at least 5 characters)<textarea ref={reasonField} rows={3} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} /></label>
      </form>
    </Modal>
  );
}
