// The tokens of the session, in session storage (never local storage): gone when the tab closes.
import { proxy, subscribe } from 'valtio';
import type { UserInfo } from '../contract/policy.ts';

export type Credentials = {
  accessToken: string;
  idToken?: string;
  refreshToken?: string;
  expiresIn: number;
  /** epoch ms: issued-at + expiresIn */
  validUntilUtc: number;
  /** the ID token's claims, the fallback for user info */
  claims?: UserInfo;
};

const storageKey = 'portal.credentials';

function restore(): Credentials | null {
  try {
    const parsed = JSON.parse(globalThis.sessionStorage?.getItem(storageKey) ?? 'null') as Credentials | null;
    return parsed && typeof parsed.accessToken === 'string' && typeof parsed.validUntilUtc === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

export const credentialsStore = proxy<{ credentials: Credentials | null }>({ credentials: restore() });

subscribe(credentialsStore, () => {
  if (credentialsStore.credentials) globalThis.sessionStorage?.setItem(storageKey, JSON.stringify(credentialsStore.credentials));
  else globalThis.sessionStorage?.removeItem(storageKey);
});

/** Authorised only while an access token exists and now is before the validity time derived from expiresIn. */
export function isAuthorised(credentials: Credentials | null, now: number): boolean {
  return Boolean(credentials?.accessToken) && now < (credentials?.validUntilUtc ?? 0);
}
