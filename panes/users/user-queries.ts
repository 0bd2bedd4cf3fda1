// Users (TkDodo-style query factory): the overview, one user, role groups, and every write of the users area.
// Answers are validated against the contract in the validation worker; failures toast through the HTTP client.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { ListState } from '../../src/contract/list-state.ts';
import { encodeSort } from '../../src/contract/list-query.ts';
import type { PolicyInput } from '../../src/contract/user-schemas.ts';

/** The list convention of the spec: pagenumber, pagesize, sort (leading minus for descending), filters. */
export function userListParams(state: ListState): Record<string, string> {
  return { pagenumber: String(state.pageNumber), pagesize: String(state.pageSize), sort: encodeSort([state.sort]), ...state.filters };
}

const usersPath = (partnerId?: string) => (partnerId ? `/partners/${encodeURIComponent(partnerId)}/users` : '/user/users');

export const userAdminQueries = {
  all: ['users'] as const,
  list: (state: ListState, partnerId?: string) => {
    const query = userListParams(state);
    return queryOptions({
      queryKey: [...userAdminQueries.all, 'list', partnerId ?? '', query] as const,
      queryFn: async ({ signal }) => validate('userList', await api.get<unknown>(usersPath(partnerId), { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  detail: (userId: string) =>
    queryOptions({
      queryKey: [...userAdminQueries.all, 'detail', userId] as const,
      queryFn: async ({ signal }) =>
        validate('userDetail', await api.get<unknown>(`/users/${encodeURIComponent(userId)}`, { signal, handleErrors: (status) => status !== 404 })),
      staleTime: 10_000,
    }),
  auditEvents: (userId: string) =>
    queryOptions({
      queryKey: [...userAdminQueries.all, 'detail', userId, 'auditEvents'] as const,
      queryFn: async ({ signal }) => validate('userAuditEvents', await api.get<unknown>(`/users/${encodeURIComponent(userId)}/audit-events`, { signal })),
      staleTime: 10_000,
    }),
  sessions: () =>
    queryOptions({
      queryKey: [...userAdminQueries.all, 'sessions'] as const,
      queryFn: async ({ signal }) => validate('userSessions', await api.get<unknown>('/user/sessions', { signal })),
    }),
  roleGroups: () =>
    queryOptions({
      queryKey: [...userAdminQueries.all, 'roleGroups'] as const,
      queryFn: async ({ signal }) => validate('roleGroupList', await api.get<unknown>('/user/role-groups', { signal })),
      staleTime: Infinity,
    }),
};

export async function inviteUsers(emails: readonly string[], policy: PolicyInput, partnerId?: string) {
  const body = partnerId ? { emails, roles: policy.partnerPolicy?.roles ?? [] } : { emails, policy };
  // POST /users (spec); a partner's users are invited under the partner.
  return validate('invitedUsers', await api.post<unknown>(partnerId ? usersPath(partnerId) : '/users', body));
}

export async function updateUser(
  userId: string,
  body: { version: number; givenName: string; familyName: string; phoneNumber: string | null; policy: PolicyInput },
) {
  return validate('userDetail', await api.put<unknown>(`/users/${encodeURIComponent(userId)}`, body));
}

export async function updatePartnerUser(partnerId: string, userId: string, body: { version: number; roles: string[] }) {
  return validate('userDetail', await api.put<unknown>(`/partners/${encodeURIComponent(partnerId)}/users/${encodeURIComponent(userId)}`, body));
}

export async function setUserLock(userId: string, version: number, locked: boolean) {
  return validate('userDetail', await api.put<unknown>(`/users/${encodeURIComponent(userId)}/login`, { version, locked }));
}

export async function sendPasswordResetEmail(userId: string) {
  await api.post<unknown>(`/users/${encodeURIComponent(userId)}/password-reset-email`);
}

export async function resendInvitation(userId: string) {
  await api.post<unknown>(`/users/${encodeURIComponent(userId)}/invitation`);
}

export async function revokeInvitation(userId: string) {
  await api.delete<unknown>(`/users/${encodeURIComponent(userId)}/invitation`);
}

export async function deleteUser(userId: string, version: number) {
  // A 403 comes back to the caller: it may ask for a step-up (panes/step-up), which the user detail pane handles.
  await api.request<unknown>(`/users/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    body: { version, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true },
    handleErrors: (status) => status !== 403,
  });
}

export async function updateOwnProfile(body: {
  version: number;
  givenName?: string;
  familyName?: string;
  phoneNumber?: string | null;
  email?: string;
  currentPassword?: string;
}) {
  return validate('userDetail', await api.patch<unknown>('/users', body));
}

export async function changeOwnPassword(currentPassword: string, newPassword: string) {
  await api.put<unknown>('/user/password', { currentPassword, newPassword });
}

export async function resetSecondFactor(userId: string) {
  await api.delete<unknown>(`/users/${encodeURIComponent(userId)}/second-factor`);
}

export async function signOutEverywhere() {
  await api.post<unknown>('/user/sessions/revocation', { confirm: true });
}
