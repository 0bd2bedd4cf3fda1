// Response validation with the contract's arktype schemas, loaded on first use through a dynamic import so
// arktype stays out of the first load: validate(() => import('../contract/policy.ts').then((m) => m.policyStructureSchema), data).
import { ApiError } from './api-error.ts';

type Schema<T> = { assert: (data: unknown) => T };

const cache = new Map<() => Promise<unknown>, Promise<unknown>>();

export async function validate<T>(loadSchema: () => Promise<Schema<T>>, data: unknown): Promise<T> {
  let pending = cache.get(loadSchema) as Promise<Schema<T>> | undefined;
  if (!pending) {
    pending = loadSchema();
    cache.set(loadSchema, pending);
  }
  const schema = await pending;
  try {
    return schema.assert(data);
  } catch (error) {
    // Fail loudly: the server and the contract disagree.
    console.error('[api] response does not match the contract', error);
    throw new ApiError({ status: 0, messages: [error instanceof Error ? error.message : String(error)], kind: 'drift', handled: false });
  }
}
