// One user, in tabs: profile, access per business and merchant (an editable matrix with role groups), and sign-in
// and security (lockout with Unlock, invitation re-send and revoke, password reset email, deletion with both
// acknowledgements). Shift+E edits the profile and access (the leave-form guard asks before unsaved changes go);
// the users commands (lock, unlock, reset, invitation, delete) act through userActionStore.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { subscribe, useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { isApiError } from '../../src/api/api-error.ts';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import type { UserDetail } from '../../src/contract/user-schemas.ts';
import { lockedUntilMessage, roleGroupApplies, roleGroups, signInRefusalLabels, type SignInRefusalReason, userMessages } from '../../src/contract/users.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { type UserAction, userActionStore } from '../../src/state/user-action-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { Modal } from '../../src/ui/modal.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { accessOfPolicy, AccessMatrix, accessProblems, type AccessDraft, policyOfAccess } from './access-matrix.tsx';
import {
  deleteUser,
  resendInvitation,
  resetSecondFactor,
  revokeInvitation,
  sendPasswordResetEmail,
  setUserLock,
  updatePartnerUser,
  updateUser,
  userAdminQueries,
} from './user-queries.ts';
import { fullName, UserStatusChip } from './users-pane.tsx';
import '../../src/ui/data-table/data-table.css';
import './users.css';
import { useStepUp } from '../step-up/step-up.tsx';

const tabDefinitions = [
  { id: 'profile', label: 'Profile' },
  { id: 'access', label: 'Access' },
  { id: 'security', label: 'Sign-in and security' },
] as const;

const when = (iso: string | null, empty = 'N/A') => (iso ? formatDateTime(iso) : empty);

/** 'Sign In Failed: refused: the account is locked': the event's words, and why a sign-in was refused. */
const auditEventLabel = (event: { event: string; reason?: SignInRefusalReason | null }) => {
  const words = event.event.replace(/([a-z])([A-Z])/g, '$1 $2');
  return event.reason ? `${words}: ${signInRefusalLabels[event.reason]}` : words;
};

function DeleteDialog({
  open,
  user,
  busy,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  user: UserDetail;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const [accessLoss, setAccessLoss] = useState(false);
  const [emailBlocked, setEmailBlocked] = useState(false);
  useEffect(() => {
    if (!open) {
      setAccessLoss(false);
      setEmailBlocked(false);
    }
  }, [open]);
  return (
    <Modal
      open={open}
      title={`Delete ${fullName(user)}?`}
      role="alertdialog"
      size="md"
      closeOnOutsideClick={false}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-danger" disabled={!accessLoss || !emailBlocked || busy} onClick={onConfirm}>
            Delete user
          </button>
        </>
      }
    >
      <p>{userMessages.deleteAcknowledgements}</p>
      <label className="check">
        <input type="checkbox" checked={accessLoss} onChange={(event) => setAccessLoss(event.target.checked)} /> I understand that {user.email} loses access to
        the portal at once.
      </label>
      <label className="check">
        <input type="checkbox" checked={emailBlocked} onChange={(event) => setEmailBlocked(event.target.checked)} /> I understand that {user.email} cannot be
        registered again.
      </label>
    </Modal>
  );
}

export function UserDetailPane({ params }: PaneProps) {
  const userId = params.userId ?? '';
  const partnerId = params.partnerId;
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const detail = useQuery(userAdminQueries.detail(userId));
  const auditTrail = useQuery({ ...userAdminQueries.auditEvents(userId), enabled: detail.isSuccess });
  const [tab, setTab] = useState(0);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<{ givenName: string; familyName: string; phoneNumber: string; access: AccessDraft; partnerRoles: string[] } | null>(null);
  const [confirming, setConfirming] = useState<UserAction | null>(null);
  const ids = { title: useId(), given: useId(), family: useId(), phone: useId() };
  const firstField = useRef<HTMLInputElement>(null);
  const user = detail.data;
  const self = user?.userId === sessionStore.userInfo?.sub;
  const canEditInternal = (sessionStore.policy?.roles ?? []).includes('TechnicalAdmin');
  // 'Duplicate user' adds a user: offered only with the permission the server checks.
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const mayCreateUsers = (session.permissions[permissionScope(applied as ContextSelections).key] ?? []).includes('Mapi.Users.Create');

  // After a write: the answer is the detail; the lists and the audit events (a lock, an unlock, a save each add one)
  // are fetched again, so the 'Sign-in and security' tab shows what just happened.
  const refresh = (next?: UserDetail) => {
    if (next) queryClient.setQueryData(userAdminQueries.detail(userId).queryKey, next);
    void queryClient.invalidateQueries({ queryKey: [...userAdminQueries.all, 'list'] });
    void queryClient.invalidateQueries({ queryKey: userAdminQueries.auditEvents(userId).queryKey });
  };
  const startEditing = () => {
    if (!user?.allowed.update) return;
    setDraft({
      givenName: user.givenName,
      familyName: user.familyName,
      phoneNumber: user.phoneNumber ?? '',
      access: accessOfPolicy(user.policyStructure.portalPolicy),
      partnerRoles: [...(user.policyStructure.portalPolicy.partnerPolicy?.roles ?? [])],
    });
    setEditing(true);
    requestAnimationFrame(() => firstField.current?.focus());
  };
  const dirty =
    editing &&
    draft !== null &&
    user !== undefined &&
    JSON.stringify(draft) !==
      JSON.stringify({
        givenName: user.givenName,
        familyName: user.familyName,
        phoneNumber: user.phoneNumber ?? '',
        access: accessOfPolicy(user.policyStructure.portalPolicy),
        partnerRoles: [...(user.policyStructure.portalPolicy.partnerPolicy?.roles ?? [])],
      });
  useLeaveFormGuard(dirty);

  const save = useMutation({
    mutationFn: async () => {
      if (!user || !draft) throw new Error('nothing to save');
      if (partnerId) return updatePartnerUser(partnerId, user.userId, { version: user.version, roles: draft.partnerRoles });
      return updateUser(user.userId, {
        version: user.version,
        givenName: draft.givenName,
        familyName: draft.familyName,
        phoneNumber: draft.phoneNumber.trim() || null,
        policy: policyOfAccess(draft.access),
      });
    },
    onSuccess: (next) => {
      refresh(next);
      setEditing(false);
      showToast({ kind: 'success', message: `${fullName(next)} saved.` });
    },
  });

  // Deleting needs a recent step-up: the dialog asks for the password and the deletion is sent again.
  const stepUp = useStepUp();
  const act = useMutation({
    mutationFn: async (action: UserAction) => {
      if (!user) return undefined;
      switch (action) {
        case 'lock':
          return setUserLock(user.userId, user.version, true);
        case 'unlock':
          return setUserLock(user.userId, user.version, false);
        case 'resetPassword':
          await sendPasswordResetEmail(user.userId);
          return undefined;
        case 'resendInvitation':
          await resendInvitation(user.userId);
          return undefined;
        case 'revokeInvitation':
          await revokeInvitation(user.userId);
          return undefined;
        case 'delete':
          await stepUp.run(() => deleteUser(user.userId, user.version));
          return undefined;
        case 'resetSecondFactor':
          await resetSecondFactor(user.userId);
          return undefined;
      }
    },
    onSuccess: (next, action) => {
      setConfirming(null);
      const name = user ? fullName(user) : 'The user';
      const done: Record<UserAction, string> = {
        lock: `${name} can no longer sign in; their sessions have ended.`,
        unlock: `${name} can sign in again.`,
        resetPassword: `A password reset email has been sent to ${user?.email ?? 'the user'}.`,
        resendInvitation: `A new invitation has been sent to ${user?.email ?? 'the user'}.`,
        revokeInvitation: 'The invitation has been revoked.',
        delete: `${name} has been deleted.`,
        resetSecondFactor: `${name}'s second factor has been reset; they sign in with their password and can set it up again.`,
      };
      showToast({ kind: 'success', message: done[action] });
      if (action === 'delete') {
        void queryClient.invalidateQueries({ queryKey: userAdminQueries.all });
        navigate(partnerId ? `/partners/${encodeURIComponent(partnerId)}` : '/users');
        return;
      }
      refresh(next);
      if (!next) void queryClient.invalidateQueries({ queryKey: userAdminQueries.detail(userId).queryKey });
    },
  });

  // What the commands ask for: confirmed first where the action is weighty.
  const allowedAction = (action: UserAction): boolean => {
    if (!user) return false;
    switch (action) {
      case 'lock':
        return user.allowed.lock && user.status !== 'locked';
      case 'unlock':
        return user.allowed.lock && user.status === 'locked';
      case 'resetPassword':
        return user.allowed.resetPassword && user.status !== 'invited';
      case 'resendInvitation':
        return user.allowed.lock && user.status === 'invited';
      case 'revokeInvitation':
        return user.allowed.lock && user.invitation?.state === 'pending';
      case 'delete':
        return user.allowed.delete;
      case 'resetSecondFactor':
        return user.allowed.resetSecondFactor && user.secondFactor !== 'off';
    }
  };
  const request = (action: UserAction) => {
    if (!allowedAction(action)) {
      showToast({ kind: 'danger', message: 'That action is not available for this user.' });
      return;
    }
    if (action === 'unlock' || action === 'resendInvitation') act.mutate(action);
    else setConfirming(action);
  };
  const latestRequest = useRef(request);
  latestRequest.current = request;
  useEffect(() => {
    let lastSeq = userActionStore.request?.seq ?? 0;
    return subscribe(userActionStore, () => {
      const pending = userActionStore.request;
      if (!pending || pending.seq === lastSeq) return;
      lastSeq = pending.seq;
      latestRequest.current(pending.action);
    });
  }, []);

  const showTab = (index?: number) => setTab(Math.min(Math.max(index ?? 0, 0), tabDefinitions.length - 1));
  usePaneCapabilities(user?.allowed.update && !self && !editing ? { edit: startEditing, tabs: showTab } : { tabs: showTab });

  if (detail.isPending)
    return (
      <div className="user-detail">
        <Skeleton lines={6} label="Loading the user" />
      </div>
    );
  if (detail.isError || !user) {
    const missing = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="user-detail">
        <h1>User {userId}</h1>
        <p role="alert">{missing ? 'The requested record was not found.' : 'The user could not be loaded.'}</p>
      </div>
    );
  }

  const policy = user.policyStructure.portalPolicy;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft && (partnerId || accessProblems(draft.access).length === 0)) save.mutate();
  };
  const problems = draft && !partnerId ? accessProblems(draft.access) : [];

  const profileTab =
    editing && draft ? (
      <div className="user-form-fields">
        <div className="field">
          <label htmlFor={ids.given}>First name</label>
          <input
            id={ids.given}
            ref={firstField}
            required
            maxLength={100}
            value={draft.givenName}
            disabled={Boolean(partnerId)}
            onChange={(event) => setDraft({ ...draft, givenName: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.family}>Last name</label>
          <input
            id={ids.family}
            required
            maxLength={100}
            value={draft.familyName}
            disabled={Boolean(partnerId)}
            onChange={(event) => setDraft({ ...draft, familyName: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.phone}>Phone number</label>
          <input
            id={ids.phone}
            type="tel"
            maxLength={32}
            value={draft.phoneNumber}
            disabled={Boolean(partnerId)}
            onChange={(event) => setDraft({ ...draft, phoneNumber: event.target.value })}
          />
        </div>
      </div>
    ) : (
      <dl className="detail-grid">
        <div>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{fullName(user)}</dd>
        </div>
        <div>
          <dt>Phone number</dt>
          <dd>{user.phoneNumber ?? 'N/A'}</dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd>{user.language}</dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>{user.internal ? 'Internal' : 'External'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(user.createdUtc)}</dd>
        </div>
        <div>
          <dt>Last sign-in</dt>
          <dd>{when(user.lastSignInUtc, 'Never')}</dd>
        </div>
      </dl>
    );

  const accessTab =
    editing && draft ? (
      partnerId ? (
        <fieldset>
          <legend>Roles at the partner</legend>
          {(['Owner', 'Finance', 'ExternalDeveloper', 'Sales', 'VirtualTerminal'] as const).map((role) => (
            <label key={role} className="check">
              <input
                type="checkbox"
                checked={draft.partnerRoles.includes(role)}
                onChange={(event) =>
                  setDraft({
                    ...draft,
                    partnerRoles: event.target.checked ? [...draft.partnerRoles, role] : draft.partnerRoles.filter((held) => held !== role),
                  })
                }
              />
              {roleLabels[role]}
            </label>
          ))}
        </fieldset>
      ) : (
        <AccessMatrix value={draft.access} onChange={(access) => setDraft({ ...draft, access })} allowInternal={canEditInternal} />
      )
    ) : (
      <div>
        {policy.roles.length > 0 ? <p>Internal roles: {policy.roles.map((role) => roleLabels[role as RoleName] ?? role).join(', ')}</p> : null}
        {policy.partnerPolicy ? (
          <p>
            Partner {policy.partnerPolicy.partnerName}: {policy.partnerPolicy.roles.map((role) => roleLabels[role as RoleName] ?? role).join(', ')}
          </p>
        ) : null}
        {policy.businessPolicies.length === 0 && policy.roles.length === 0 && !policy.partnerPolicy ? <p>No access you can see.</p> : null}
        {policy.businessPolicies.length > 0 ? (
          <table className="detail-table">
            <caption>Access per business and merchant</caption>
            <thead>
              <tr>
                <th scope="col">Business or merchant</th>
                <th scope="col">Roles</th>
                <th scope="col">Role groups applied</th>
              </tr>
            </thead>
            <tbody>
              {policy.businessPolicies.flatMap((business) => [
                <tr key={business.businessId}>
                  <th scope="row">{business.businessName}</th>
                  <td>{business.roles.map((role) => roleLabels[role as RoleName] ?? role).join(', ') || '—'}</td>
                  <td>
                    {roleGroups
                      .filter((group) => roleGroupApplies(group, business.roles, 'business'))
                      .map((group) => group.name)
                      .join(', ') || '—'}
                  </td>
                </tr>,
                ...business.merchantPolicies.map((merchant) => (
                  <tr key={`${business.businessId}/${merchant.merchantId}`}>
                    <th scope="row">
                      <span aria-hidden="true">↳ </span>
                      {merchant.merchantName}
                    </th>
                    <td>{merchant.roles.map((role) => roleLabels[role as RoleName] ?? role).join(', ') || '—'}</td>
                    <td>
                      {roleGroups
                        .filter((group) => roleGroupApplies(group, merchant.roles, 'merchant'))
                        .map((group) => group.name)
                        .join(', ') || '—'}
                    </td>
                  </tr>
                )),
              ])}
            </tbody>
          </table>
        ) : null}
      </div>
    );

  const locked = user.status === 'locked';
  const securityTab = (
    <div className="user-security">
      <section aria-label="Lockout">
        <h2>Sign-in</h2>
        {locked ? (
          <p className="notice-danger">
            {lockedUntilMessage(user.lockoutEndDateUtc?.startsWith('9999') ? 'unlocked by an administrator' : when(user.lockoutEndDateUtc))}
          </p>
        ) : (
          <p>Sign-in is open.</p>
        )}
        <p>Password expires: {when(user.passwordExpiresUtc)}</p>
        <div className="actions-row">
          {user.allowed.lock ? (
            locked ? (
              <button type="button" className="button button-primary" onClick={() => request('unlock')}>
                Unlock
              </button>
            ) : (
              <button type="button" className="button" onClick={() => request('lock')}>
                Lock sign-in
              </button>
            )
          ) : null}
          {allowedAction('resetPassword') ? (
            <button type="button" className="button" onClick={() => request('resetPassword')}>
              Send password reset email
            </button>
          ) : null}
        </div>
      </section>
      <section aria-label="Invitation">
        <h2>Invitation</h2>
        {user.invitation ? (
          <p>
            Invitation {user.invitation.state}: sent {when(user.invitation.createdUtc)}, valid until {when(user.invitation.expiresUtc)}.
          </p>
        ) : (
          <p>No invitation on record.</p>
        )}
        <div className="actions-row">
          {allowedAction('resendInvitation') ? (
            <button type="button" className="button" onClick={() => request('resendInvitation')}>
              Re-send invitation
            </button>
          ) : null}
          {allowedAction('revokeInvitation') ? (
            <button type="button" className="button" onClick={() => request('revokeInvitation')}>
              Revoke invitation
            </button>
          ) : null}
        </div>
      </section>
      <section aria-label="Second factor">
        <h2>Second factor</h2>
        <p>Two-factor sign-in: {user.secondFactor === 'on' ? 'on' : user.secondFactor === 'pending' ? 'being set up' : 'off'}.</p>
        {user.allowed.resetSecondFactor && user.secondFactor !== 'off' ? (
          <button type="button" className="button" onClick={() => request('resetSecondFactor')}>
            Reset second factor
          </button>
        ) : null}
      </section>
      <section aria-label="Recent audit events">
        <h2>Recent audit events</h2>
        {auditTrail.isError ? <p role="alert">The audit events could not be loaded.</p> : null}
        {auditTrail.data && auditTrail.data.results.length === 0 ? <p>No audit events yet.</p> : null}
        {auditTrail.data && auditTrail.data.results.length > 0 ? (
          <table className="detail-table">
            <caption className="visually-hidden">Recent audit events</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">By</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {auditTrail.data.results.map((event, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an audit event has no id in the answer and two may share a time; the rows hold no state
                <tr key={`${event.dateTimeUtc}-${index}`}>
                  <td>{when(event.dateTimeUtc)}</td>
                  <td>{auditEventLabel(event)}</td>
                  <td>{event.actor}</td>
                  <td>{event.clientAddress ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      {user.allowed.delete ? (
        <section aria-label="Danger zone">
          <h2>Delete</h2>
          <button type="button" className="button button-danger" onClick={() => request('delete')}>
            Delete user
          </button>
        </section>
      ) : null}
    </div>
  );

  const confirmTexts: Partial<Record<UserAction, { title: string; text: string; label: string }>> = {
    lock: { title: `Lock ${fullName(user)}?`, text: 'They cannot sign in until unlocked, and every session they have ends now.', label: 'Lock sign-in' },
    resetPassword: {
      title: 'Send a password reset email?',
      text: `${user.email} gets a single-use link, valid for 15 minutes, to choose a new password.`,
      label: 'Send email',
    },
    revokeInvitation: { title: 'Revoke the invitation?', text: 'The invitation link stops working. You can send a new one later.', label: 'Revoke' },
    resetSecondFactor: {
      title: 'Reset the second factor?',
      text: 'Their authenticator and recovery codes stop working, their sessions end, and they sign in with the password alone until they set it up again.',
      label: 'Reset second factor',
    },
  };
  const confirmText = confirming && confirming !== 'delete' ? confirmTexts[confirming] : undefined;

  return (
    <article className="user-detail" aria-labelledby={ids.title}>
      <form onSubmit={submit}>
        <header className="user-detail-title">
          <h1 id={ids.title}>{fullName(user)}</h1>
          <UserStatusChip status={user.status} />
          <div className="users-tools">
            {editing ? (
              <>
                <button type="button" className="button" onClick={() => setEditing(false)}>
                  Cancel
                </button>
                <button type="submit" className="button button-primary" disabled={save.isPending || problems.length > 0}>
                  Save
                </button>
              </>
            ) : (
              <>
                {user.allowed.update && !self ? (
                  <button type="button" className="button" onClick={startEditing}>
                    Edit <kbd>Shift</kbd>+<kbd>E</kbd>
                  </button>
                ) : null}
                {!partnerId && !user.internal && mayCreateUsers ? (
                  <button type="button" className="button" onClick={() => navigate(`/users/add?from=${encodeURIComponent(user.userId)}`)}>
                    Duplicate user
                  </button>
                ) : null}
              </>
            )}
          </div>
        </header>
        {locked ? (
          <p className="notice-danger" role="status">
            {lockedUntilMessage(user.lockoutEndDateUtc?.startsWith('9999') ? 'unlocked by an administrator' : when(user.lockoutEndDateUtc))}
          </p>
        ) : null}
        {problems.length > 0 ? (
          <ul className="form-problems" aria-live="polite">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
        <Tabs label="User" tabs={tabDefinitions} contents={[profileTab, accessTab, securityTab]} activeIndex={tab} onActiveIndexChange={setTab} />
      </form>
      <ConfirmDialog
        open={confirmText !== undefined}
        title={confirmText?.title ?? ''}
        text={confirmText?.text ?? ''}
        confirmLabel={confirmText?.label ?? 'Confirm'}
        cancelLabel="Cancel"
        tone={confirming === 'resetPassword' ? 'primary' : 'danger'}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && act.mutate(confirming)}
      />
      {stepUp.dialog}
      <DeleteDialog
        open={confirming === 'delete'}
        user={user}
        busy={act.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => act.mutate('delete')}
      />
    </article>
  );
}
