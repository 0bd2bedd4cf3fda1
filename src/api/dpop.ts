// The browser's DPoP key (RFC 9449): an ECDSA P-256 key pair made with WebCrypto as non-extractable, so page script
// can sign with it but never read the private key out. The provider binds the session's access and refresh tokens to
// it; the Portal API and userinfo want a proof signed by it on every call (server/http/dpop.ts). A copied token is
// useless without the key.
//
// Each sign-in makes a new key. The key lives in IndexedDB (a CryptoKey is stored as itself, still non-extractable)
// under an id kept in session storage beside the tokens, so a reload keeps it and each tab has its own; without
// IndexedDB (tests, some private modes) it is kept in memory only and a reload asks to sign in again.

/** persisted: kept in IndexedDB, so the tab finds it again after a reload or the provider's redirect back */
export type DpopKey = { id: string; keyPair: CryptoKeyPair; publicJwk: JsonWebKey; persisted: boolean };

const idKey = 'portal.dpopKey';
const databaseName = 'portal-dpop';
const storeName = 'keys';
/** keys of tabs long closed are removed when a new one is made */
const keepKeysMs = 2 * 24 * 60 * 60 * 1000;

const inMemory = new Map<string, CryptoKeyPair>();
let current: Promise<DpopKey | null> | null = null;

type StoredKey = { id: string; keyPair: CryptoKeyPair; createdAt: number };

function openDatabase(): Promise<IDBDatabase | null> {
  const factory = globalThis.indexedDB;
  if (!factory) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

async function withStore<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T> | undefined): Promise<T | undefined> {
  const db = await openDatabase();
  if (!db) return undefined;
  return new Promise((resolve) => {
    try {
      const transaction = db.transaction(storeName, mode);
      const request = action(transaction.objectStore(storeName));
      transaction.oncomplete = () => {
        db.close();
        resolve(request ? request.result : undefined);
      };
      transaction.onerror = () => {
        db.close();
        resolve(undefined);
      };
    } catch {
      db.close();
      resolve(undefined);
    }
  });
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return base64url(bytes);
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const encoder = new TextEncoder();
const encodeJson = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

async function dpopKeyOf(id: string, keyPair: CryptoKeyPair, persisted: boolean): Promise<DpopKey> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keyPair.publicKey);
  return { id, keyPair, publicJwk: { kty, crv, x, y }, persisted };
}

/** A new key for a new sign-in; the tab's previous key (and keys of long-closed tabs) are removed. */
export function newDpopKey(): Promise<DpopKey> {
  const made = (async () => {
    const previous = globalThis.sessionStorage?.getItem(idKey);
    const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const id = randomId();
    inMemory.clear();
    inMemory.set(id, keyPair);
    globalThis.sessionStorage?.setItem(idKey, id);
    const now = Date.now();
    const stored = await withStore<IDBValidKey>('readwrite', (store) => {
      const put = store.put({ id, keyPair, createdAt: now } satisfies StoredKey);
      if (previous) store.delete(previous);
      const all = store.getAll() as IDBRequest<StoredKey[]>;
      all.onsuccess = () => {
        for (const other of all.result) if (other.id !== id && now - other.createdAt > keepKeysMs) store.delete(other.id);
      };
      return put;
    });
    return dpopKeyOf(id, keyPair, stored === id);
  })();
  current = made;
  return made;
}

/** The tab's key, or null when it has none (signed out, or its storage was cleared). */
export function currentDpopKey(): Promise<DpopKey | null> {
  current ??= (async () => {
    const id = globalThis.sessionStorage?.getItem(idKey);
    if (!id) return null;
    const remembered = inMemory.get(id);
    if (remembered) return dpopKeyOf(id, remembered, false);
    const stored = await withStore<StoredKey | undefined>('readonly', (store) => store.get(id) as IDBRequest<StoredKey | undefined>);
    if (!stored?.keyPair) return null;
    inMemory.set(id, stored.keyPair);
    return dpopKeyOf(id, stored.keyPair, true);
  })().catch(() => null);
  const pending = current;
  // A tab without a key now may get one later (a sign-in): do not remember the absence.
  void pending.then((key) => {
    if (!key && current === pending) current = null;
  });
  return pending;
}

/** Signing out: the key is removed, so tokens bound to it are worth nothing even if something kept them. */
export async function forgetDpopKey(): Promise<void> {
  const id = globalThis.sessionStorage?.getItem(idKey);
  globalThis.sessionStorage?.removeItem(idKey);
  inMemory.clear();
  current = null;
  if (id) await withStore('readwrite', (store) => void store.delete(id));
}

/**
 * The server's clock as this tab knows it, from the Date header of its answers: proofs are dated by it (the API and the
 * provider take a proof within a minute of their own time), so a tab whose clock is off still signs in and calls.
 * A Date header has whole seconds: differences under 5 s are taken as none.
 */
let serverOffsetMs = 0;
export function noteServerDate(header: string | null | undefined): boolean {
  const at = header ? Date.parse(header) : Number.NaN;
  if (!Number.isFinite(at)) return false;
  const seen = at - Date.now();
  const offset = Math.abs(seen) > 5_000 ? seen : 0;
  if (Math.abs(offset - serverOffsetMs) <= 5_000) return false;
  serverOffsetMs = offset;
  return true;
}
/** How far the server's clock is ahead of this tab's, in whole seconds (oauth4webapi's clockSkew). */
export const serverClockSkewSeconds = () => Math.round(serverOffsetMs / 1000);

/** A DPoP proof for one request: method, address (query and fragment dropped) and, for a resource, the token's hash. */
export async function dpopProof(key: DpopKey, method: string, url: string, accessToken?: string): Promise<string> {
  const target = new URL(url, globalThis.location?.href);
  target.search = '';
  target.hash = '';
  const payload: Record<string, unknown> = {
    jti: randomId(),
    htm: method.toUpperCase(),
    htu: target.href,
    iat: Math.floor((Date.now() + serverOffsetMs) / 1000),
  };
  if (accessToken !== undefined) {
    payload.ath = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(accessToken))));
  }
  const signingInput = `${encodeJson({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk })}.${encodeJson(payload)}`;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.keyPair.privateKey, encoder.encode(signingInput));
  return `${signingInput}.${base64url(new Uint8Array(signature))}`;
}

/**
 * The headers that present an access token: `DPoP` with a proof when the tab has a key, else `Bearer` (a token
 * issued without a proof is not bound, and the API accepts it as such).
 */
export async function authorizationHeaders(method: string, url: string, accessToken: string): Promise<Record<string, string>> {
  const key = await currentDpopKey();
  if (!key) return { Authorization: `Bearer ${accessToken}` };
  return { Authorization: `DPoP ${accessToken}`, DPoP: await dpopProof(key, method, url, accessToken) };
}
