// The payment actions' dialogs, keyboard first: the first field has focus, Enter confirms (the form submits),
// Escape closes. Each validates as typed and shows the server's refusal (which says why and what is possible)
// inside the dialog; sending is the caller's (onSubmit), so the dialogs are plain components.
import { type FocusEvent, type FormEvent, type ReactNode, type RefObject, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import {
  formatMoney as formatMinor,
  isValidAmountFor,
  maxRefundNoteLength,
  maxVoidReasonLength,
  refundReasonLabels,
  refundReasons,
  toMinorUnits,
  type RefundReason,
} from '../../src/contract/payment-jobs.ts';
import type { PaymentDetail } from '../../src/contract/payment-job-schemas.ts';
import { currencyExponent } from '../../src/contract/transactions.ts';
import { Modal } from '../../src/ui/modal.tsx';

type Submit<T> = (body: T) => Promise<void>;

/**
 * A typed amount as a plain decimal string ('1,234.50' → '1234.50', '10,5' → '10.5', '1.234,50' → '1234.50'), or
 * null when its separators make no sense. With both separators, the last one is the decimal mark; with only commas,
 * one comma followed by at most the currency's decimals is a decimal comma (as typed in most of Europe), else commas
 * group thousands; several dots group thousands.
 */
export function normaliseAmountText(text: string, exponent: number): string | null {
  const grouped = (integer: string, mark: string) => {
    const groups = integer.split(mark);
    return groups.length > 1 && !(/^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((group) => /^\d{3}$/.test(group))) ? null : groups.join('');
  };
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const [mark, group] = lastComma > lastDot ? [',', '.'] : ['.', ','];
    const at = text.lastIndexOf(mark);
    const integer = grouped(text.slice(0, at), group);
    return integer === null || text.slice(at + 1).includes(group) ? null : `${integer}.${text.slice(at + 1)}`;
  }
  for (const mark of [',', '.']) {
    const parts = text.split(mark);
    if (parts.length === 1) continue;
    const decimals = parts[1] ?? '';
    const isDecimal = parts.length === 2 && (mark === '.' || (exponent > 0 && decimals.length >= 1 && decimals.length <= exponent));
    return isDecimal ? `${parts[0]}.${decimals}` : grouped(text, mark);
  }
  return text;
}

/**
 * The amount as typed, in the currency's decimals: the number, or what is wrong with it, in words that say what to
 * type instead ('€10': no currency sign; '-5': no minus sign).
 */
export function parseAmountInput(text: string, currency: string, maxMinor: number, verb: 'refunded' | 'captured'): { amount: number } | { problem: string } {
  const exponent = currencyExponent(currency);
  const trimmed = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (trimmed === '') return { problem: 'Enter an amount.' };
  if (/^[-\u2212]/.test(trimmed)) return { problem: `Enter the amount to be ${verb} without a minus sign: it must be above zero.` };
  const foreign = trimmed.match(/[^\d.,]+/)?.[0];
  if (foreign !== undefined) return { problem: `Enter the amount as a number only, without '${foreign.slice(0, 8)}': it is in ${currency}.` };
  const plain = normaliseAmountText(trimmed, exponent);
  if (plain === null)
    return {
      problem: exponent === 0 ? `Enter a whole number of ${currency}, such as 1250.` : `Enter an amount such as 10.50, with at most ${exponent} decimals.`,
    };
  const pattern = exponent === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${exponent}})?$`);
  if (!pattern.test(plain)) return { problem: exponent === 0 ? `Enter a whole number of ${currency}.` : `Enter an amount with at most ${exponent} decimals.` };
  const amount = Number(plain);
  if (!isValidAmountFor(amount, currency)) return { problem: 'Enter an amount above zero.' };
  if (toMinorUnits(amount, currency) > maxMinor) return { problem: `At most ${formatMinor(maxMinor, currency)} can be ${verb}.` };
  return { amount };
}

/** The pre-filled amount is selected when the field gets the focus, so typing replaces it (not '55.6410'). */
const selectAll = (event: FocusEvent<HTMLInputElement>) => event.currentTarget.select();

const amountText = (amount: number, currency: string) => amount.toFixed(currencyExponent(currency));

function ActionModal(props: {
  firstField: RefObject<HTMLElement | null>;
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  error: string | null;
  children: ReactNode;
  description?: ReactNode;
  canSubmit: boolean;
}) {
  const formId = useId();
  return (
    <Modal
      open={props.open}
      title={props.title}
      onClose={props.onClose}
      description={props.description}
      closeOnOutsideClick={false}
      initialFocus={props.firstField}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className={`button ${props.tone === 'danger' ? 'button-danger' : 'button-primary'}`}
            disabled={props.busy || !props.canSubmit}
          >
            {props.busy ? 'Working…' : props.confirmLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="payment-action-form" onSubmit={props.onSubmit} noValidate>
        {props.children}
        {props.error ? (
          <p role="alert" className="payment-action-error">
            {props.error}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

/** Runs a submit, keeping its refusal message; closes on success. */
function useSubmission(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (send: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await send();
      onClose();
    } catch (failure) {
      const messages = (failure as { messages?: readonly string[] } | null)?.messages;
      setError(messages && messages.length > 0 ? messages.join(' ') : 'The action could not be completed.');
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

export type RefundDialogProps = {
  open: boolean;
  payment: PaymentDetail;
  onClose: () => void;
  onSubmit: Submit<{ amount: number; reason: RefundReason; note: string | null; notifyCustomer: boolean }>;
};

export function RefundDialog({ open, payment, onClose, onSubmit }: RefundDialogProps) {
  const first = useRef<HTMLInputElement>(null);
  const refundableMinor = toMinorUnits(payment.refundable, payment.currency);
  const [amount, setAmount] = useState(() => amountText(payment.refundable, payment.currency));
  const [reason, setReason] = useState<RefundReason>('requestedByCustomer');
  const [note, setNote] = useState('');
  const [notify, setNotify] = useState(false);
  const [touched, setTouched] = useState(false);
  const submission = useSubmission(onClose);
  // A fresh form each time the dialog opens (not when the payment's figures change while it is open).
  const freshForm = useEffectEvent(() => {
    setAmount(amountText(payment.refundable, payment.currency));
    setReason('requestedByCustomer');
    setNote('');
    setNotify(false);
    setTouched(false);
    submission.setError(null);
  });
  useEffect(() => {
    if (open) freshForm();
  }, [open]);
  const parsed = parseAmountInput(amount, payment.currency, refundableMinor, 'refunded');
  const noteProblem = reason === 'other' && note.trim() === '' ? "A refund for the reason 'Other' needs a note." : null;
  const ids = { amount: useId(), amountHint: useId(), reason: useId(), note: useId(), notify: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if ('problem' in parsed || noteProblem) return;
    void submission.run(() => onSubmit({ amount: parsed.amount, reason, note: note.trim() || null, notifyCustomer: notify }));
  };
  return (
    <ActionModal
      firstField={first}
      open={open}
      title="Refund payment"
      onClose={onClose}
      onSubmit={submit}
      busy={submission.busy}
      confirmLabel="Refund"
      error={submission.error}
      canSubmit={!('problem' in parsed) && !noteProblem}
      description={
        <p>
          Up to {formatMoney(payment.refundable, payment.currency)} of payment {payment.paymentId} can be refunded. The refund can be cancelled while it is
          still requested.
        </p>
      }
    >
      <div className="form-field">
        <label htmlFor={ids.amount}>Amount ({payment.currency})</label>
        <input
          id={ids.amount}
          ref={first}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          aria-describedby={ids.amountHint}
          aria-invalid={'problem' in parsed}
          onFocus={selectAll}
          onChange={(event) => {
            setAmount(event.target.value);
            setTouched(true);
          }}
        />
        <p id={ids.amountHint} className={'problem' in parsed && touched ? 'field-problem' : 'field-hint'}>
          {'problem' in parsed && touched ? parsed.problem : `At most ${formatMoney(payment.refundable, payment.currency)}.`}
        </p>
      </div>
      <div className="form-field">
        <label htmlFor={ids.reason}>Reason</label>
        <select id={ids.reason} value={reason} onChange={(event) => setReason(event.target.value as RefundReason)}>
          {refundReasons.map((value) => (
            <option key={value} value={value}>
              {refundReasonLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor={ids.note}>Note{reason === 'other' ? ' (required)' : ' (optional)'}</label>
        <textarea
          id={ids.note}
          value={note}
          maxLength={maxRefundNoteLength}
          rows={2}
          aria-invalid={Boolean(noteProblem && touched)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          onChange={(event) => setNote(event.target.value)}
        />
        {noteProblem && touched ? <p className="field-problem">{noteProblem}</p> : null}
      </div>
      <label className="checkbox-field" htmlFor={ids.notify}>
        <input id={ids.notify} type="checkbox" checked={notify} onChange={(event) => setNotify(event.target.checked)} />
        Email the customer a refund confirmation
      </label>
    </ActionModal>
  );
}

export type CaptureDialogProps = { open: boolean; payment: PaymentDetail; onClose: () => void; onSubmit: Submit<{ amount: number }> };

export function CaptureDialog({ open, payment, onClose, onSubmit }: CaptureDialogProps) {
  const first = useRef<HTMLInputElement>(null);
  const capturableMinor = toMinorUnits(payment.capturable, payment.currency);
  const [amount, setAmount] = useState(() => amountText(payment.capturable, payment.currency));
  const submission = useSubmission(onClose);
  const freshForm = useEffectEvent(() => {
    setAmount(amountText(payment.capturable, payment.currency));
    submission.setError(null);
  });
  useEffect(() => {
    if (open) freshForm();
  }, [open]);
  const parsed = parseAmountInput(amount, payment.currency, capturableMinor, 'captured');
  const ids = { amount: useId(), hint: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ('problem' in parsed) return;
    void submission.run(() => onSubmit({ amount: parsed.amount }));
  };
  return (
    <ActionModal
      firstField={first}
      open={open}
      title="Capture payment"
      onClose={onClose}
      onSubmit={submit}
      busy={submission.busy}
      confirmLabel="Capture"
      error={submission.error}
      canSubmit={!('problem' in parsed)}
      description={
        <p>
          {formatMoney(payment.capturable, payment.currency)} of payment {payment.paymentId} is authorised and not captured. A partial capture releases the
          rest.
        </p>
      }
    >
      <div className="form-field">
        <label htmlFor={ids.amount}>Amount ({payment.currency})</label>
        <input
          id={ids.amount}
          ref={first}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          aria-describedby={ids.hint}
          aria-invalid={'problem' in parsed}
          onFocus={selectAll}
          onChange={(event) => setAmount(event.target.value)}
        />
        <p id={ids.hint} className={'problem' in parsed ? 'field-problem' : 'field-hint'}>
          {'problem' in parsed ? parsed.problem : `At most ${formatMoney(payment.capturable, payment.currency)}.`}
        </p>
      </div>
    </ActionModal>
  );
}

export type VoidDialogProps = { open: boolean; payment: PaymentDetail; onClose: () => void; onSubmit: Submit<{ reason: string | null }> };

export function VoidDialog({ open, payment, onClose, onSubmit }: VoidDialogProps) {
  const first = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState('');
  const submission = useSubmission(onClose);
  const freshForm = useEffectEvent(() => {
    setReason('');
    submission.setError(null);
  });
  useEffect(() => {
    if (open) freshForm();
  }, [open]);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submission.run(() => onSubmit({ reason: reason.trim() || null }));
  };
  return (
    <ActionModal
      firstField={first}
      open={open}
      title="Void authorisation"
      onClose={onClose}
      onSubmit={submit}
      busy={submission.busy}
      confirmLabel="Void authorisation"
      tone="danger"
      error={submission.error}
      canSubmit
      description={
        <p>
          Voiding releases {payment.captured > 0 ? 'the rest of the authorisation, ' : 'the authorisation of '}
          {formatMoney(payment.capturable, payment.currency)}, on payment {payment.paymentId}
          {payment.captured > 0 ? `; the ${formatMoney(payment.captured, payment.currency)} captured stays` : ''}. It cannot be undone.
        </p>
      }
    >
      <div className="form-field">
        <label htmlFor={id}>Reason (optional)</label>
        <input id={id} ref={first} type="text" maxLength={maxVoidReasonLength} value={reason} onChange={(event) => setReason(event.target.value)} />
      </div>
    </ActionModal>
  );
}

export type CancelJobDialogProps = { open: boolean; reference: string; onClose: () => void; onSubmit: Submit<{ confirmed: boolean }> };

export function CancelJobDialog({ open, reference, onClose, onSubmit }: CancelJobDialogProps) {
  const first = useRef<HTMLInputElement>(null);
  const [confirmed, setConfirmed] = useState(false);
  const submission = useSubmission(onClose);
  const freshForm = useEffectEvent(() => {
    setConfirmed(false);
    submission.setError(null);
  });
  useEffect(() => {
    if (open) freshForm();
  }, [open]);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) {
      submission.setError('Tick the confirmation to cancel this payment job: cancelling is permanent.');
      return;
    }
    void submission.run(() => onSubmit({ confirmed }));
  };
  return (
    <ActionModal
      firstField={first}
      open={open}
      title="Cancel payment job"
      onClose={onClose}
      onSubmit={submit}
      busy={submission.busy}
      confirmLabel="Cancel payment job"
      tone="danger"
      error={submission.error}
      canSubmit={confirmed}
      description={<p>Cancelling payment job {reference} is permanent: the shopper can no longer pay it.</p>}
    >
      <label className="checkbox-field" htmlFor={id}>
        <input
          id={id}
          ref={first}
          type="checkbox"
          checked={confirmed}
          onChange={(event) => setConfirmed(event.target.checked)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        I understand that cancelling this payment job is permanent
      </label>
    </ActionModal>
  );
}

export type MailLinkDialogProps = { open: boolean; defaultEmail: string | null; onClose: () => void; onSubmit: Submit<{ emailAddress: string }> };

export function MailPaymentLinkDialog({ open, defaultEmail, onClose, onSubmit }: MailLinkDialogProps) {
  const first = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(defaultEmail ?? '');
  const submission = useSubmission(onClose);
  const freshForm = useEffectEvent(() => {
    setEmail(defaultEmail ?? '');
    submission.setError(null);
  });
  useEffect(() => {
    if (open) freshForm();
  }, [open]);
  const problem = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? null : 'Enter a valid email address.';
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    void submission.run(() => onSubmit({ emailAddress: email.trim() }));
  };
  return (
    <ActionModal
      firstField={first}
      open={open}
      title="Mail payment link"
      onClose={onClose}
      onSubmit={submit}
      busy={submission.busy}
      confirmLabel="Send payment link"
      error={submission.error}
      canSubmit={!problem}
      description={<p>The shopper receives an email with a link to pay this job.</p>}
    >
      <div className="form-field">
        <label htmlFor={id}>Email address</label>
        <input
          id={id}
          ref={first}
          type="email"
          autoComplete="off"
          value={email}
          aria-invalid={Boolean(problem)}
          onChange={(event) => setEmail(event.target.value)}
        />
        {problem && email !== '' ? <p className="field-problem">{problem}</p> : null}
      </div>
    </ActionModal>
  );
}

function formatMoney(amount: number, currency: string): string {
  return formatMinor(toMinorUnits(amount, currency), currency);
}
