// /profile: the caller's own names and phone number (PATCH /users, versioned), and a password change that needs the
// current password, two-factor sign-in (second-factor-section.tsx), the caller's sessions and 'sign out everywhere'.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { isApiError } from '../../src/api/api-error.ts';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { PasswordFields } from './password-fields.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';
import { changeOwnPassword, signOutEverywhere, updateOwnProfile, userAdminQueries } from './user-queries.ts';
import './users.css';

export function ProfilePane(_props: PaneProps) {
  const { userInfo } = useSnapshot(sessionStore);
  const userId = userInfo?.sub ?? '';
  const queryClient = useQueryClient();
  const me = useQuery({ ...userAdminQueries.detail(userId), enabled: userId !== '' });
  const [names, setNames] = useState({ givenName: '', familyName: '', phoneNumber: '' });
  const [passwords, setPasswords] = useState({ current: '', next: '', confirm: '' });
  const [passwordProblems, setPasswordProblems] = useState<string[]>([]);
  const ids = {
    title: useId(),
    given: useId(),
    family: useId(),
    phone: useId(),
    current: useId(),
    names: useId(),
    password: useId(),
    email: useId(),
    newEmail: useId(),
    emailPassword: useId(),
  };
  // The fields start from the profile and start again from each newer version of it (adjusted while rendering).
  const [namesVersion, setNamesVersion] = useState<number | null>(null);
  if (me.data && me.data.version !== namesVersion) {
    setNamesVersion(me.data.version);
    setNames({ givenName: me.data.givenName, familyName: me.data.familyName, phoneNumber: me.data.phoneNumber ?? '' });
  }
  usePaneCapabilities({});
  const sessions = useQuery(userAdminQueries.sessions());
  const [newEmail, setNewEmail] = useState('');
  // Changing the email address asks for the current password: a borrowed session cannot move the account.
  const [emailPassword, setEmailPassword] = useState('');
  const changeEmail = useMutation({
    mutationFn: () => updateOwnProfile({ version: me.data?.version ?? 1, email: newEmail.trim(), currentPassword: emailPassword }),
    onSuccess: (next) => {
      queryClient.setQueryData(userAdminQueries.detail(userId).queryKey, next);
      showToast({ kind: 'success', message: `We have sent a confirmation link to ${newEmail.trim()}.` });
      setNewEmail('');
      setEmailPassword('');
    },
  });
  const everywhere = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => {
      window.location.assign('/sign-out');
    },
  });
  const namesDirty =
    me.data !== undefined &&
    (names.givenName !== me.data.givenName || names.familyName !== me.data.familyName || names.phoneNumber !== (me.data.phoneNumber ?? ''));
  useLeaveFormGuard(namesDirty || passwords.next !== '' || passwords.current !== '');

  const saveNames = useMutation({
    mutationFn: () =>
      updateOwnProfile({
        version: me.data?.version ?? 1,
        givenName: names.givenName,
        familyName: names.familyName,
        phoneNumber: names.phoneNumber.trim() || null,
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(userAdminQueries.detail(userId).queryKey, next);
      showToast({ kind: 'success', message: 'Your profile has been saved.' });
    },
  });
  const changePassword = useMutation({
    mutationFn: () => changeOwnPassword(passwords.current, passwords.next),
    onSuccess: () => {
      setPasswords({ current: '', next: '', confirm: '' });
      setPasswordProblems([]);
      showToast({ kind: 'success', message: 'Your password has been changed.' });
    },
    onError: (error) => {
      if (isApiError(error)) setPasswordProblems([...error.messages]);
    },
  });

  if (!userId || me.isPending)
    return (
      <div className="profile-pane">
        <Skeleton lines={5} label="Loading your profile" />
      </div>
    );
  if (me.isError || !me.data)
    return (
      <div className="profile-pane">
        <h1>My profile</h1>
        <p role="alert">Your profile could not be loaded.</p>
      </div>
    );
  const policy = me.data.policyStructure.portalPolicy;
  const submitNames = (event: FormEvent) => {
    event.preventDefault();
    saveNames.mutate();
  };
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (passwords.next !== passwords.confirm) {
      setPasswordProblems(['The two passwords are not the same.']);
      return;
    }
    changePassword.mutate();
  };

  return (
    <article className="profile-pane" aria-labelledby={ids.title}>
      <h1 id={ids.title}>My profile</h1>
      <dl className="detail-grid">
        <div>
          <dt>Email</dt>
          <dd>{me.data.email}</dd>
        </div>
        <div>
          <dt>Password expires</dt>
          <dd>{me.data.passwordExpiresUtc ? formatDateTime(me.data.passwordExpiresUtc) : 'N/A'}</dd>
        </div>
        <div>
          <dt>Roles</dt>
          <dd>
            {[...policy.roles, ...(policy.partnerPolicy?.roles ?? []), ...policy.businessPolicies.flatMap((business) => business.roles)]
              .map((role) => roleLabels[role as RoleName] ?? role)
              .filter((role, index, all) => all.indexOf(role) === index)
              .join(', ') || '—'}
          </dd>
        </div>
      </dl>
      <form className="profile-section" aria-labelledby={ids.names} onSubmit={submitNames}>
        <h2 id={ids.names}>Name and phone</h2>
        <div className="field">
          <label htmlFor={ids.given}>First name</label>
          <input
            id={ids.given}
            required
            maxLength={100}
            autoComplete="given-name"
            value={names.givenName}
            onChange={(event) => setNames({ ...names, givenName: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.family}>Last name</label>
          <input
            id={ids.family}
            required
            maxLength={100}
            autoComplete="family-name"
            value={names.familyName}
            onChange={(event) => setNames({ ...names, familyName: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.phone}>Phone number</label>
          <input
            id={ids.phone}
            type="tel"
            maxLength={32}
            autoComplete="tel"
            value={names.phoneNumber}
            onChange={(event) => setNames({ ...names, phoneNumber: event.target.value })}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={!namesDirty || saveNames.isPending}>
          Save profile
        </button>
      </form>
      <form
        className="profile-section"
        aria-labelledby={ids.email}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          changeEmail.mutate();
        }}
      >
        <h2 id={ids.email}>Email address</h2>
        <div className="field">
          <label htmlFor={ids.newEmail}>New email address</label>
          <input id={ids.newEmail} type="email" autoComplete="email" maxLength={254} value={newEmail} onChange={(event) => setNewEmail(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.emailPassword}>Password to confirm the change</label>
          <input
            id={ids.emailPassword}
            type="password"
            autoComplete="current-password"
            value={emailPassword}
            onChange={(event) => setEmailPassword(event.target.value)}
          />
        </div>
        <p className="hint">
          We send a link to the new address; the change applies once you open it, and you then sign in with the new address. Your current address is told at
          once, with a link that undoes the change.
        </p>
        <button type="submit" className="button" disabled={!newEmail.trim() || !emailPassword || changeEmail.isPending}>
          Send confirmation link
        </button>
      </form>
      <form className="profile-section" aria-labelledby={ids.password} onSubmit={submitPassword}>
        <h2 id={ids.password}>Change password</h2>
        <div className="field">
          <label htmlFor={ids.current}>Current password</label>
          <input
            id={ids.current}
            type="password"
            required
            autoComplete="current-password"
            value={passwords.current}
            onChange={(event) => setPasswords({ ...passwords, current: event.target.value })}
          />
        </div>
        <PasswordFields
          password={passwords.next}
          confirm={passwords.confirm}
          onPassword={(next) => setPasswords({ ...passwords, next })}
          onConfirm={(confirm) => setPasswords({ ...passwords, confirm })}
          userInputs={[me.data.email, me.data.givenName, me.data.familyName]}
        />
        {passwordProblems.length > 0 ? (
          <ul className="form-problems" role="alert">
            {passwordProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
        <button type="submit" className="button button-primary" disabled={changePassword.isPending || !passwords.current || !passwords.next}>
          Change password
        </button>
      </form>
      <SecondFactorSection />
      <section className="profile-section" aria-label="Sessions">
        <h2>Sessions</h2>
        {sessions.data ? (
          <ul>
            {sessions.data.results.map((session, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a session has no id in the answer and two may share a sign-in time; the items hold no state
              <li key={`${session.signedInUtc ?? ''}-${index}`}>
                Signed in {session.signedInUtc ? formatDateTime(session.signedInUtc) : 'at an unknown time'}
                {session.expiresUtc ? `, until ${formatDateTime(session.expiresUtc)}` : ''}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="hint">Signing out everywhere ends every session, this one included, and every app signed in as you.</p>
        <button type="button" className="button" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
          Sign out everywhere
        </button>
      </section>
    </article>
  );
}
