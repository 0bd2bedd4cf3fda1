// The Modal, loaded on first use: the shell's own dialogs (inactivity warning, confirmations) are rarely
// open, so floating-ui stays out of the first load.
import { lazy, Suspense } from 'react';
import type { ModalProps } from './modal.tsx';

const Modal = lazy(() => import('./modal.tsx').then((module) => ({ default: module.Modal })));

export function DeferredModal(props: ModalProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
