// A question with two answers: the conflict modal ('Stay' / 'Discard changes') and the leave-form guard
// ('Stay' / 'Leave'). Escape and the X answer the safe choice (cancel); there is no outside-click dismissal.
import { useRef } from 'react';
import { Modal } from './modal.tsx';

export type ConfirmDialogProps = {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  tone?: 'danger' | 'primary';
};

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, text, confirmLabel, cancelLabel, onConfirm, onCancel, tone = 'danger' } = props;
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      title={title}
      role="alertdialog"
      size="sm"
      description={<p>{text}</p>}
      closeOnOutsideClick={false}
      onClose={onCancel}
      initialFocus={cancelRef}
      footer={
        <>
          <button ref={cancelRef} type="button" className="button" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className={`button button-${tone}`} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    />
  );
}

/** The leave-form guard's dialog: 'stay' or 'leave'. */
export function LeaveFormDialog(props: {
  open: boolean;
  title: string;
  text: string;
  stayLabel: string;
  leaveLabel: string;
  onAnswer: (answer: 'stay' | 'leave') => void;
}) {
  return (
    <ConfirmDialog
      open={props.open}
      title={props.title}
      text={props.text}
      confirmLabel={props.leaveLabel}
      cancelLabel={props.stayLabel}
      onConfirm={() => props.onAnswer('leave')}
      onCancel={() => props.onAnswer('stay')}
    />
  );
}
