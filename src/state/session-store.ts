// What the session knows about the signed-in user: user info and policy (loaded once after sign-in or a
// refresh) and the permissions of each context visited (fetched once per context, kept for the session).
// All of it lives in session storage, never local storage, and is cleared together with the credentials.
import { proxy, subscribe } from 'valtio';
import type { ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy, UserInfo } from '../contract/policy.ts';

const storageKey = 'portal.session';

export type SessionProfile = {
  userInfo: UserInfo | null;
  policy: AuthorizationPolicy | null;
  /** permission lists keyed by permissionScope().key */
  permissions: Record<string, readonly string[]>;
  /** the on-load messages (unread notification, password expiry) were shown this session */
  noticesShown: boolean;
};

function empty(): SessionProfile {
  return { userInfo: null, policy: null, permissions: {}, noticesShown: false };
}

function restore(): SessionProfile {
  try {
    const raw = globalThis.sessionStorage?.getItem(storageKey);
    if (!raw) return empty();
    const parsed = JSON.parse(raw) as Partial<SessionProfile> | null;
    if (!parsed || typeof parsed !== 'object') return empty();
    const permissions: Record<string, readonly string[]> = {};
    for (const [key, list] of Object.entries(parsed.permissions ?? {})) {
      if (Array.isArray(list) && list.every((item) => typeof item === 'string')) permissions[key] = list;
    }
    return {
      userInfo: parsed.userInfo && typeof parsed.userInfo.sub === 'string' ? parsed.userInfo : null,
      policy: parsed.policy && Array.isArray(parsed.policy.roles) && Array.isArray(parsed.policy.businessPolicies) ? parsed.policy : null,
      permissions,
      noticesShown: parsed.noticesShown === true,
    };
  } catch {
    return empty();
  }
}

export const sessionStore = proxy<SessionProfile>(restore());

subscribe(sessionStore, () => {
  globalThis.sessionStorage?.setItem(storageKey, JSON.stringify(sessionStore));
});

export function setProfile(userInfo: UserInfo, policy: AuthorizationPolicy): void {
  sessionStore.userInfo = userInfo;
  sessionStore.policy = policy;
}

export function markNoticesShown(): void {
  sessionStore.noticesShown = true;
}

export function setPermissions(scopeKey: string, permissions: readonly string[]): void {
  sessionStore.permissions = { ...sessionStore.permissions, [scopeKey]: [...permissions] };
}

export function clearSessionProfile(): void {
  sessionStore.userInfo = null;
  sessionStore.policy = null;
  sessionStore.permissions = {};
  sessionStore.noticesShown = false;
  globalThis.sessionStorage?.removeItem(storageKey);
}

/**
 * Which permission list applies in a context: the merchant's, else the business's, else the partner's,
 * else all of the user's (no context). Also the path of the call that fetches it (under /api/portal).
 */
export function permissionScope(selections: ContextSelections): { key: string; path: string } {
  const { partner, business, merchant } = selections;
  if (business?.id && merchant?.id) {
    const path = `/user/businesses/${encodeURIComponent(business.id)}/merchants/${encodeURIComponent(merchant.id)}/permissions`;
    return { key: `merchant:${business.id}/${merchant.id}`, path };
  }
  if (business?.id) return { key: `business:${business.id}`, path: `/user/businesses/${encodeURIComponent(business.id)}/permissions` };
  if (partner?.id) return { key: `partner:${partner.id}`, path: `/user/partner/${encodeURIComponent(partner.id)}/permissions` };
  return { key: 'all', path: '/user/permissions' };
}
