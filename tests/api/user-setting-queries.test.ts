// Reading a user setting: an unset key is 'not set' (null) with no error anywhere — not a toast, not a failed
// request in the browser's console — whether the server answers { key, value: null } or (an older one) 404.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../src/api/api-client.ts';
import { createHttpClient } from '../../src/api/http-client.ts';
import { fetchUserSetting } from '../../src/api/user-setting-queries.ts';
import { setSchemaChecker } from '../../src/api/validate.ts';
import { checkAgainstContract } from '../../src/api/contract-schemas.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function client(answer: () => Response) {
  const notify = vi.fn();
  const fetch = vi.fn(async () => answer());
  configureApi(
    createHttpClient({
      baseURL: 'http://localhost/api/portal',
      getAccessToken: async () => 'token',
      refreshAccessToken: async () => 'token',
      confirmConflict: async () => false,
      notify,
      timeZone: () => 'Europe/London',
      fetch: fetch as unknown as typeof globalThis.fetch,
    }),
  );
  return { notify, fetch };
}

describe('fetchUserSetting', () => {
  beforeEach(() => {
    // The real contract schema, checked here (no worker in tests).
    setSchemaChecker(async (name, data) => checkAgainstContract(name, data));
  });

  it('reads an unset key from a 200 with a null value as null, with no toast', async () => {
    const { notify, fetch } = client(() => json(200, { key: 'ContextFavorites', value: null }));
    await expect(fetchUserSetting('ContextFavorites')).resolves.toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('parses a stored value, including JSON null apart from not set', async () => {
    client(() => json(200, { key: 'ContextFavorites', value: '[{"businessId":"B3"}]' }));
    await expect(fetchUserSetting('ContextFavorites')).resolves.toEqual([{ businessId: 'B3' }]);
    client(() => json(200, { key: 'Flag', value: 'false' }));
    await expect(fetchUserSetting('Flag')).resolves.toBe(false);
  });

  it('still reads a 404 as not set, quietly', async () => {
    const { notify } = client(() => json(404, { errorReport: { errors: [{ message: 'Not found', translatedMessage: 'Not found' }] } }));
    await expect(fetchUserSetting('ContextRecent')).resolves.toBeNull();
    expect(notify).not.toHaveBeenCalled();
  });

  it('reports other failures and a value of the wrong shape', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { notify } = client(() => json(400, { errorReport: { errors: [{ message: 'Bad key', translatedMessage: 'Bad key' }] } }));
    await expect(fetchUserSetting('x')).rejects.toMatchObject({ status: 400 });
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ message: 'Bad key' }));
    client(() => json(200, { key: 'x', value: 5 }));
    await expect(fetchUserSetting('x')).rejects.toMatchObject({ kind: 'drift' });
  });
});
