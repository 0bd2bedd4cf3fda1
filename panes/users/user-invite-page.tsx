// /user-invite?InviteId=…: the public page an invitation email links to. The person sets their name and a password
// (with the strength estimator's feedback); success says a welcome email was sent. An expired, used or revoked
// link says 'Oops that link has expired.'; any other failure 'Something went wrong with submission of your request'.
// Once the account is created the invitee is signed in: the acceptance left a single-use cookie that the provider's
// sign-in page takes in place of the password just chosen (server/users/invitations.ts), so the portal starts an
// ordinary sign-in (asking for the login, so another account signed in in this browser is not reused); the
// 'Sign in' link stays for a browser where that fails.
import { type FormEvent, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { userMessages } from '../../src/contract/users.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { PasswordFields } from './password-fields.tsx';
import './users.css';

type Preview = { email: string; givenName: string; familyName: string; expiresUtc: string };
type Phase = { kind: 'loading' } | { kind: 'form'; preview: Preview } | { kind: 'expired' } | { kind: 'failed' } | { kind: 'done'; message: string };

async function errorsOf(response: Response): Promise<string[]> {
  try {
    const body = (await response.json()) as { errorReport?: { errors?: { message: string }[] } };
    return body.errorReport?.errors?.map((error) => error.message) ?? [];
  } catch {
    return [];
  }
}

/** `onAccountReady` starts the sign-in (the shell's session: src/app/user-invite-route.tsx). */
export function UserInvitePage({ search, onAccountReady }: PaneProps & { onAccountReady?: () => Promise<void> | void }) {
  const inviteId = new URLSearchParams(search).get('InviteId') ?? '';
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [givenName, setGivenName] = useState('');
  const [familyName, setFamilyName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const ids = { title: useId(), given: useId(), family: useId() };
  const ready = useRef<HTMLParagraphElement>(null);
  // The form is gone: focus goes to what replaced it, not to the page's body.
  const accountReady = useEffectEvent(() => {
    ready.current?.focus();
    void Promise.resolve(onAccountReady?.()).catch(() => undefined);
  });
  useEffect(() => {
    if (phase.kind === 'done') accountReady();
  }, [phase.kind]);

  useEffect(() => {
    if (!inviteId) {
      setPhase({ kind: 'expired' });
      return;
    }
    const controller = new AbortController();
    // The secret goes in the body: a path is written to the request log.
    fetch('/api/public/user-invites/lookup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inviteId }),
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status === 410 || response.status === 404) return setPhase({ kind: 'expired' });
        if (!response.ok) return setPhase({ kind: 'failed' });
        const preview = (await response.json()) as Preview;
        setGivenName(preview.givenName);
        setFamilyName(preview.familyName);
        return setPhase({ kind: 'form', preview });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted && !(error instanceof DOMException)) setPhase({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [inviteId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setProblems(['The two passwords are not the same.']);
      return;
    }
    setBusy(true);
    try {
      const response = await fetch('/api/public/user-invites/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ inviteId, givenName, familyName, password }),
      });
      if (response.ok) setPhase({ kind: 'done', message: ((await response.json()) as { message: string }).message });
      else if (response.status === 410) setPhase({ kind: 'expired' });
      else if (response.status === 400) setProblems(await errorsOf(response));
      else setProblems([userMessages.inviteFailed]);
    } catch {
      setProblems([userMessages.inviteFailed]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="simple-card user-invite" aria-labelledby={ids.title}>
      <h1 id={ids.title}>Create your account</h1>
      {phase.kind === 'loading' ? <p role="status">Checking your invitation…</p> : null}
      {phase.kind === 'expired' ? <p role="alert">{userMessages.linkExpired}</p> : null}
      {phase.kind === 'failed' ? <p role="alert">{userMessages.inviteFailed}</p> : null}
      {phase.kind === 'done' ? (
        <>
          <p role="status" tabIndex={-1} ref={ready}>
            {phase.message}
          </p>
          <p>
            <a className="button button-primary" href="/">
              Sign in
            </a>
          </p>
        </>
      ) : null}
      {phase.kind === 'form' ? (
        <form onSubmit={(event) => void submit(event)}>
          <p>
            You were invited as <strong>{phase.preview.email}</strong>.
          </p>
          <div className="field">
            <label htmlFor={ids.given}>First name</label>
            <input
              id={ids.given}
              required
              maxLength={100}
              autoComplete="given-name"
              value={givenName}
              onChange={(event) => setGivenName(event.target.value)}
              // biome-ignore lint/a11y/noAutofocus: the invitation opens with the keyboard in its first field (decision 0132, focus on load)
              autoFocus
            />
          </div>
          <div className="field">
            <label htmlFor={ids.family}>Last name</label>
            <input
              id={ids.family}
              required
              maxLength={100}
              autoComplete="family-name"
              value={familyName}
              onChange={(event) => setFamilyName(event.target.value)}
            />
          </div>
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            userInputs={[phase.preview.email, givenName, familyName]}
            label="Password"
          />
          {problems.length > 0 ? (
            <ul className="form-problems" role="alert">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
          <button type="submit" className="button button-primary" disabled={busy}>
            Create account
          </button>
        </form>
      ) : null}
    </main>
  );
}
