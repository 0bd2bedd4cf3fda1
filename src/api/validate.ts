// Response validation with the contract's arktype schemas, loaded through dynamic imports so arktype (46 KB gzip)
// stays out of the first load: validate(() => import('../contract/policy.ts').then((m) => m.policyStructureSchema), data).
//
// Every answer is checked and a mismatch rejects before anybody uses the answer — except during the first load
// of the page (the app calls deferValidationDuringFirstLoad() at start and finishFirstLoad() once the first
// screen has settled): then an answer is handed on at once and kept, and finishFirstLoad() fetches the schemas
// and checks every kept answer, reporting a mismatch through the drift handler (the app shows the general error
// and logs the details). So the first screen never waits for the validator, and no answer goes unchecked.
import { ApiError } from './api-error.ts';

type Schema<T> = { assert: (data: unknown) => T };
type Loader<T> = () => Promise<Schema<T>>;

const pending = new Map<Loader<unknown>, Promise<Schema<unknown>>>();
const ready = new Map<Loader<unknown>, Schema<unknown>>();
let onLateDrift: (error: ApiError) => void = () => undefined;
let firstLoad = false;
/** Answers handed on during the first load, each to be checked once the schemas are fetched. */
let deferred: { loadSchema: Loader<unknown>; data: unknown }[] = [];

/** From now until finishFirstLoad(), answers are handed on at once and checked afterwards. */
export function deferValidationDuringFirstLoad(): void {
  firstLoad = true;
}

/**
 * The first screen has settled: fetch the given schemas (and those of the answers already handed on), check those
 * answers, reporting a mismatch through the drift handler, and from now on check every answer before use.
 */
export async function finishFirstLoad(loaders: readonly Loader<unknown>[]): Promise<void> {
  firstLoad = false;
  const handedOn = deferred;
  deferred = [];
  await Promise.all([
    ...loaders.map((loader) => load(loader).catch(() => undefined)),
    ...handedOn.map(async ({ loadSchema, data }) => {
      try {
        check(await load(loadSchema), data);
      } catch (error) {
        if (error instanceof ApiError) onLateDrift(error);
        else console.error('[api] the contract schema could not be loaded', error);
      }
    }),
  ]);
}

/** Where a mismatch found after the answer was handed on goes (the composition root shows the general error). */
export function setLateDriftHandler(handler: (error: ApiError) => void): void {
  onLateDrift = handler;
}

function load<T>(loadSchema: Loader<T>): Promise<Schema<T>> {
  let promise = pending.get(loadSchema as Loader<unknown>) as Promise<Schema<T>> | undefined;
  if (!promise) {
    promise = loadSchema().then((schema) => {
      ready.set(loadSchema as Loader<unknown>, schema as Schema<unknown>);
      return schema;
    });
    promise.catch(() => pending.delete(loadSchema as Loader<unknown>));
    pending.set(loadSchema as Loader<unknown>, promise as Promise<Schema<unknown>>);
  }
  return promise;
}

function check<T>(schema: Schema<T>, data: unknown): T {
  try {
    return schema.assert(data);
  } catch (error) {
    // Fail loudly: the server and the contract disagree.
    console.error('[api] response does not match the contract', error);
    throw new ApiError({ status: 0, messages: [error instanceof Error ? error.message : String(error)], kind: 'drift', handled: false });
  }
}

export async function validate<T>(loadSchema: Loader<T>, data: unknown): Promise<T> {
  const schema = ready.get(loadSchema as Loader<unknown>) as Schema<T> | undefined;
  if (schema) return check(schema, data);
  if (!firstLoad) return check(await load(loadSchema), data);
  deferred.push({ loadSchema: loadSchema as Loader<unknown>, data });
  // Handed on now, checked by finishFirstLoad() once the first screen has settled.
  return data as T;
}
