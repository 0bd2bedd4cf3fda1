// Add users: several email addresses at once, all given the same access (the matrix of roles per business and
// merchant with role groups, or roles at a partner under /partners/{id}/users/add). Each gets an invitation email
// with a single-use link valid 7 days. '?from={userId}' (Duplicate user) starts from another user's access.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { roleLabels, type RoleName } from '../../src/contract/permissions.ts';
import { invitationValidityDays, maxInviteEmails } from '../../src/contract/users.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { sessionStore } from '../../src/state/session-store.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { accessOfPolicy, AccessMatrix, accessProblems, type AccessDraft, emptyAccess, policyOfAccess } from './access-matrix.tsx';
import { inviteUsers, userAdminQueries } from './user-queries.ts';
import './users.css';

const plausibleEmail = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** The addresses typed (commas, semicolons, spaces or new lines between them) and the problems with them. */
export function parseEmails(text: string): { emails: string[]; problems: string[] } {
  const emails = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const problems: string[] = [];
  if (emails.length === 0) problems.push('Enter at least one email address.');
  if (emails.length > maxInviteEmails) problems.push(`Invite at most ${maxInviteEmails} addresses at once.`);
  const bad = emails.filter((email) => !plausibleEmail.test(email));
  if (bad.length > 0) problems.push(`Not an email address: ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? '…' : ''}`);
  return { emails, problems };
}

const partnerRoleChoices = ['Owner', 'Finance', 'ExternalDeveloper', 'Sales', 'VirtualTerminal'] as const;

export function UserAddPane({ params, search }: PaneProps) {
  const partnerId = params.partnerId;
  const from = new URLSearchParams(search).get('from') ?? '';
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [emailText, setEmailText] = useState('');
  const [access, setAccess] = useState<AccessDraft>(emptyAccess);
  const [partnerRoles, setPartnerRoles] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const source = useQuery({ ...userAdminQueries.detail(from), enabled: from !== '' && !partnerId });
  const copied = useRef(false);
  useEffect(() => {
    if (source.data && !copied.current) {
      copied.current = true;
      setAccess(accessOfPolicy(source.data.policyStructure.portalPolicy));
    }
  }, [source.data]);
  const ids = { emails: useId(), hint: useId() };
  const emailsField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => emailsField.current?.focus(), []);
  usePaneCapabilities({});

  const parsed = parseEmails(emailText);
  const problems = [
    ...(submitted ? parsed.problems : []),
    ...(partnerId ? (partnerRoles.length === 0 && submitted ? ['Choose at least one role.'] : []) : submitted ? accessProblems(access) : []),
  ];
  const dirty = emailText.trim() !== '' || access.businesses.length > 0 || access.rootRoles.length > 0 || partnerRoles.length > 0;
  const invite = useMutation({
    mutationFn: () =>
      inviteUsers(
        parsed.emails,
        partnerId ? { roles: [], partnerPolicy: { partnerId, roles: partnerRoles as RoleName[] }, businessPolicies: [] } : policyOfAccess(access),
        partnerId,
      ),
    onSuccess: (result) => {
      setEmailText('');
      setAccess(emptyAccess);
      setPartnerRoles([]);
      void queryClient.invalidateQueries({ queryKey: userAdminQueries.all });
      showToast({
        kind: 'success',
        message: `${result.users.length === 1 ? 'An invitation has' : `${result.users.length} invitations have`} been sent (valid ${invitationValidityDays} days).`,
      });
      const first = result.users[0];
      setNext(
        result.users.length === 1 && first
          ? partnerId
            ? `/partners/${encodeURIComponent(partnerId)}/users/${encodeURIComponent(first.userId)}`
            : `/users/${encodeURIComponent(first.userId)}`
          : partnerId
            ? `/partners/${encodeURIComponent(partnerId)}`
            : '/users',
      );
    },
  });
  useLeaveFormGuard(dirty);
  // Leave once the cleared form has told the guard it holds nothing (navigating in onSuccess would ask first).
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => {
    if (next) navigate(next, { replace: true });
  }, [next, navigate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const blocking = [...parsed.problems, ...(partnerId ? (partnerRoles.length === 0 ? ['roles'] : []) : accessProblems(access))];
    if (blocking.length === 0) invite.mutate();
  };

  return (
    <form className="user-add" aria-labelledby={`${ids.emails}-title`} onSubmit={submit} noValidate>
      <h1 id={`${ids.emails}-title`}>{partnerId ? 'New partner users' : 'New users'}</h1>
      {from && source.data ? <p role="status">Starting from the access of {source.data.email}.</p> : null}
      <div className="field">
        <label htmlFor={ids.emails}>Email addresses</label>
        <textarea
          id={ids.emails}
          ref={emailsField}
          rows={3}
          value={emailText}
          aria-describedby={ids.hint}
          onChange={(event) => setEmailText(event.target.value)}
        />
        <p className="hint" id={ids.hint}>
          One or more addresses (up to {maxInviteEmails}), separated by commas or new lines. Everyone gets the same access and an invitation email valid{' '}
          {invitationValidityDays} days.
        </p>
      </div>
      {partnerId ? (
        <fieldset>
          <legend>Roles at the partner (all its businesses)</legend>
          {partnerRoleChoices.map((role) => (
            <label key={role} className="check">
              <input
                type="checkbox"
                checked={partnerRoles.includes(role)}
                onChange={(event) => setPartnerRoles(event.target.checked ? [...partnerRoles, role] : partnerRoles.filter((held) => held !== role))}
              />
              {roleLabels[role]}
            </label>
          ))}
        </fieldset>
      ) : (
        <AccessMatrix value={access} onChange={setAccess} allowInternal={(sessionStore.policy?.roles ?? []).includes('TechnicalAdmin')} />
      )}
      {problems.length > 0 ? (
        <ul className="form-problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <div className="actions-row">
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          Send {parsed.emails.length > 1 ? `${parsed.emails.length} invitations` : 'invitation'}
        </button>
      </div>
    </form>
  );
}
