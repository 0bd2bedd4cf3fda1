// /profile's two-factor section: set up (password again, QR code and the secret for typing, the first code), the ten
// recovery codes shown once, and turning it off with the current password and a current code.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { showToast } from '../../src/state/toast-store.ts';

const statusKey = ['users', 'secondFactor'] as const;

export function SecondFactorSection() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: statusKey,
    queryFn: async ({ signal }) => validate('secondFactorStatus', await api.get<unknown>('/user/second-factor', { signal })),
  });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [offPassword, setOffPassword] = useState('');
  const ids = { title: useId(), password: useId(), code: useId(), off: useId(), offPassword: useId() };
  const start = useMutation({
    mutationFn: async () => validate('secondFactorEnrolment', await api.post<unknown>('/user/second-factor/enrolment', { currentPassword: password })),
    onSuccess: () => setPassword(''),
  });
  const confirm = useMutation({
    mutationFn: async () => validate('recoveryCodes', await api.post<unknown>('/user/second-factor/enrolment/confirm', { code })),
    onSuccess: (answer) => {
      setCodes(answer.recoveryCodes);
      setCode('');
      start.reset();
      void queryClient.invalidateQueries({ queryKey: statusKey });
      showToast({ kind: 'success', message: 'Two-factor sign-in is on.' });
    },
  });
  const turnOff = useMutation({
    mutationFn: async () => {
      await api.post<unknown>('/user/second-factor/removal', { currentPassword: offPassword, code });
    },
    onSuccess: () => {
      setCode('');
      setOffPassword('');
      void queryClient.invalidateQueries({ queryKey: statusKey });
      showToast({ kind: 'success', message: 'Two-factor sign-in is off.' });
    },
  });
  const on = status.data?.status === 'on';
  const enrolment = start.data;

  return (
    <section className="profile-section" aria-labelledby={ids.title}>
      <h2 id={ids.title}>Two-factor sign-in</h2>
      {codes ? (
        <div role="region" aria-label="Recovery codes">
          <p>Keep these recovery codes somewhere safe. Each signs you in once if you lose your authenticator; they are shown only now.</p>
          <ul className="recovery-codes">
            {codes.map((recovery) => (
              <li key={recovery}>
                <code>{recovery}</code>
              </li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => setCodes(null)}>
            I have saved them
          </button>
        </div>
      ) : null}
      {status.isPending ? <p>Loading…</p> : null}
      {on && !codes ? (
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            turnOff.mutate();
          }}
        >
          <p>Two-factor sign-in is on. {status.data?.recoveryCodesLeft ?? 0} recovery codes left.</p>
          <div className="field">
            <label htmlFor={ids.offPassword}>Your password</label>
            <input
              id={ids.offPassword}
              type="password"
              autoComplete="current-password"
              value={offPassword}
              onChange={(event) => setOffPassword(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.off}>Current code to turn it off</label>
            <input
              id={ids.off}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={16}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
          <button type="submit" className="button" disabled={!code || !offPassword || turnOff.isPending}>
            Turn off two-factor sign-in
          </button>
        </form>
      ) : null}
      {!on && !enrolment && !status.isPending ? (
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            start.mutate();
          }}
        >
          <p>Sign-in will ask for a code from an authenticator app after your password.</p>
          <div className="field">
            <label htmlFor={ids.password}>Your password</label>
            <input id={ids.password} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </div>
          <button type="submit" className="button button-primary" disabled={!password || start.isPending}>
            Set up two-factor sign-in
          </button>
        </form>
      ) : null}
      {!on && enrolment ? (
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            confirm.mutate();
          }}
        >
          <p>Scan this QR code with your authenticator app, or type the key below, then enter the 6-digit code it shows.</p>
          <img src={enrolment.qrCodeDataUrl} alt="QR code for your authenticator app" width={220} height={220} />
          <p>
            Key:{' '}
            <code role="group" aria-label="Key for typing">
              {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </p>
          <div className="field">
            <label htmlFor={ids.code}>Code from the app</label>
            <input
              id={ids.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
          <button type="submit" className="button button-primary" disabled={code.length !== 6 || confirm.isPending}>
            Turn on
          </button>
        </form>
      ) : null}
    </section>
  );
}
