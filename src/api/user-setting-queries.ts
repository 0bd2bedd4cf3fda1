// Per-user settings (JSON text values). The server answers an unset key as { key, value: null }, so reading
// one logs no failed request in the browser; a 404 (a server from before that answer) still means "not set":
// the global handler is off for 404 only, and the query answers null either way.
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { isApiError } from './api-error.ts';
import { validate } from './validate.ts';

export async function fetchUserSetting(key: string, signal?: AbortSignal): Promise<unknown> {
  try {
    const data = await api.get<unknown>(`/user-settings/${encodeURIComponent(key)}`, {
      ...(signal ? { signal } : {}),
      handleErrors: (status) => status !== 404,
    });
    const setting = await validate('userSetting', data);
    return setting.value === null ? null : (JSON.parse(setting.value) as unknown);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function saveUserSetting(key: string, value: unknown): Promise<void> {
  await api.put(`/user-settings/${encodeURIComponent(key)}`, { value: JSON.stringify(value) });
}

export const userSettingQueries = {
  all: ['userSettings'] as const,
  detail: (key: string) =>
    queryOptions({
      queryKey: [...userSettingQueries.all, key] as const,
      queryFn: ({ signal }) => fetchUserSetting(key, signal),
      staleTime: 5 * 60_000,
    }),
};
