// Renders the confirmation the state asks for: the edit conflict ('Someone updated this view', Stay /
// Discard changes) or the leave-form guard (Stay / Leave). The dialogs load on first need.
import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { messages } from '../contract/messages.ts';
import { resolveConfirmation, shellStore } from '../state/shell-store.ts';

const ConfirmDialog = lazy(() => import('../ui/confirm-dialog.tsx').then((module) => ({ default: module.ConfirmDialog })));
const LeaveFormDialog = lazy(() => import('../ui/confirm-dialog.tsx').then((module) => ({ default: module.LeaveFormDialog })));

export function ConfirmationHost() {
  const { confirmation } = useSnapshot(shellStore);
  if (!confirmation) return null;
  return (
    <Suspense fallback={null}>
      {confirmation.kind === 'conflict' ? (
        <ConfirmDialog
          open
          title={messages.conflictTitle}
          text={messages.conflictText}
          confirmLabel={messages.conflictDiscard}
          cancelLabel={messages.conflictStay}
          onConfirm={() => resolveConfirmation(confirmation.id, true)}
          onCancel={() => resolveConfirmation(confirmation.id, false)}
        />
      ) : (
        <LeaveFormDialog
          open
          title={messages.leaveFormTitle}
          text={messages.leaveFormText}
          stayLabel={messages.leaveFormStay}
          leaveLabel={messages.leaveFormLeave}
          onAnswer={(answer) => resolveConfirmation(confirmation.id, answer === 'leave')}
        />
      )}
    </Suspense>
  );
}
