// Step-up for sensitive actions (src/contract/step-up.ts). A pane wraps the sensitive call in
// `stepUp.run(call)`: when the server answers 403 asking for a recent authentication, the dialog asks for the password
// (and the authenticator code, when the user has one), POST /user/step-up, and the call is made again. Cancelling the
// dialog rejects the call with the server's message (already told, so nothing else is shown).
import { type FormEvent, type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { ApiError, isApiError } from '../../src/api/api-error.ts';
import { api } from '../../src/api/api-client.ts';
import { stepUpAskedFor, stepUpMessages } from '../../src/contract/step-up.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { Modal } from '../../src/ui/modal.tsx';
import '../../src/ui/form-field.css';
import './step-up.css';

export type StepUpKind = 'password' | 'passwordAndCode';

export function StepUpDialog({ kind, onDone, onCancel }: { kind: StepUpKind; onDone: () => void; onCancel: () => void }) {
  const ids = { password: useId(), code: useId(), error: useId() };
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await api.post<unknown>('/user/step-up', kind === 'passwordAndCode' ? { password, code } : { password }, { handleErrors: false });
      onDone();
    } catch (failure) {
      setError(isApiError(failure) && failure.messages.length > 0 ? failure.messages.join(' ') : 'Your password could not be checked. Try again.');
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title="Confirm it is you"
      size="sm"
      onClose={onCancel}
      closeOnOutsideClick={false}
      initialFocus={passwordRef}
      description={
        kind === 'passwordAndCode'
          ? 'This action needs your password and a code from your authenticator app. You will not be asked again for 5 minutes.'
          : 'This action needs your password again. You will not be asked again for 5 minutes.'
      }
    >
      <form className="step-up-form" onSubmit={(event) => void submit(event)}>
        {error ? (
          <p id={ids.error} className="form-summary" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-field">
          <label htmlFor={ids.password}>Password</label>
          <input
            ref={passwordRef}
            id={ids.password}
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {kind === 'passwordAndCode' ? (
          <div className="form-field">
            <label htmlFor={ids.code}>Code from your authenticator app</label>
            <input
              id={ids.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              maxLength={32}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !password || (kind === 'passwordAndCode' && !code)}>
            Confirm
          </button>
        </div>
      </form>
    </Modal>
  );
}

type Pending = { kind: StepUpKind; resolve: () => void; reject: (error: unknown) => void };

/** The step-up of one pane: `run` makes a sensitive call, stepping up when asked; render `dialog` in the pane. */
export function useStepUp(): { run: <T>(call: () => Promise<T>) => Promise<T>; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);

  const run = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (failure) {
        if (!isApiError(failure) || failure.status !== 403 || failure.handled) throw failure;
        const kind = stepUpAskedFor(failure.messages);
        if (!kind || attempt >= 2) {
          // A 403 about something else (no permission): told as the client tells any refusal.
          const message = failure.messages.join(' ') || 'You do not have the correct permissions.';
          showToast({ kind: 'danger', message });
          throw new ApiError({ status: 403, messages: failure.messages, kind: 'http', handled: true });
        }
        await new Promise<void>((resolve, reject) => setPending({ kind, resolve, reject }));
      }
    }
  }, []);

  const dialog = pending ? (
    <StepUpDialog
      kind={pending.kind}
      onDone={() => {
        setPending(null);
        pending.resolve();
      }}
      onCancel={() => {
        setPending(null);
        pending.reject(
          new ApiError({
            status: 403,
            messages: [pending.kind === 'password' ? stepUpMessages.passwordRequired : stepUpMessages.passwordAndCodeRequired],
            kind: 'http',
            handled: true,
          }),
        );
      }}
    />
  ) : null;

  return { run, dialog };
}
