// A dialog that is one form: its submit button stands in the footer, tied to the form by id, and says what is
// happening while the work runs ('Saving…'); Ctrl+Enter submits it as in every modal.
import { type FormEvent, type ReactNode, useId } from 'react';
import { Modal, type ModalProps } from './modal.tsx';

export type FormModalProps = Pick<ModalProps, 'open' | 'title' | 'onClose' | 'size' | 'closeActionLabel'> & {
  /** the submit button's label, and its label while `busy` */
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** the submit button is off (busy, or an answer is still missing) */
  disabled?: boolean;
  formClassName?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
};

export function FormModal({ submitLabel, busyLabel, busy, disabled = false, formClassName, onSubmit, children, ...modal }: FormModalProps) {
  const formId = useId();
  return (
    <Modal
      {...modal}
      footer={
        <button type="submit" form={formId} className="button button-primary" disabled={busy || disabled}>
          {busy ? busyLabel : submitLabel}
        </button>
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit}>
        {children}
      </form>
    </Modal>
  );
}
