// Response validation against the contract's arktype schemas, named: validate('transactionList', data). The
// schemas live in a worker (validation-worker.ts), so neither arktype (46 KB gzip) nor building the schemas
// (about 100 ms of script on the bench machine, the dashboard's longest task after load) nor the checking itself
// runs on the main thread. Where no worker can run (tests, a browser refusing it) the schemas are imported here.
//
// Every answer is checked and a mismatch rejects before anybody uses the answer — except during the first load
// of the page (the app calls deferValidationDuringFirstLoad() at start and finishFirstLoad() once the first
// screen has settled): then an answer is handed on at once and kept, and finishFirstLoad() checks every kept
// answer, reporting a mismatch through the drift handler (the app shows the general error and logs the
// details). So the first screen never waits for the validator, and no answer goes unchecked.
import { ApiError } from './api-error.ts';
import type { SchemaName, SchemaOutput } from './contract-schemas.ts';
import type { ValidationReply, ValidationRequest } from './validation-worker.ts';

/** Checks an answer: resolves with the schema's output, rejects with an Error saying what is wrong. */
export type SchemaChecker = (name: SchemaName, data: unknown) => Promise<unknown>;

let onLateDrift: (error: ApiError) => void = () => undefined;
let firstLoad = false;
/** Answers handed on during the first load, each to be checked once the first screen has settled. */
let deferred: { name: SchemaName; data: unknown }[] = [];

/** The schemas could not be loaded (a network failure fetching the chunk): not the server's fault. */
class SchemasUnavailable extends Error {}

/** On the main thread: the schemas imported on first use. */
const checkHere: SchemaChecker = async (name, data) => {
  const module = await import('./contract-schemas.ts').catch((error: unknown) => {
    throw new SchemasUnavailable(error instanceof Error ? error.message : String(error));
  });
  return module.checkAgainstContract(name, data);
};

/** In the worker; a worker that cannot start or fails hands its pending checks, and every later one, to checkHere. */
function workerChecker(): SchemaChecker {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 1;
  const waiting = new Map<number, { name: SchemaName; data: unknown; resolve: (output: unknown) => void; reject: (error: Error) => void }>();
  const fallBack = (reason: unknown) => {
    if (!broken) console.error('[api] the validation worker failed; answers are checked on the main thread', reason);
    broken = true;
    worker?.terminate();
    worker = null;
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      checkHere(entry.name, entry.data).then(entry.resolve, entry.reject);
    }
  };
  const start = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(new URL('./validation-worker.ts', import.meta.url), { type: 'module', name: 'contract validation' });
    } catch (error) {
      fallBack(error);
      return null;
    }
    worker.onmessage = (event: MessageEvent<ValidationReply>) => {
      const reply = event.data;
      const entry = waiting.get(reply.id);
      if (!entry) return;
      waiting.delete(reply.id);
      if (reply.ok) entry.resolve(reply.output);
      else entry.reject(new Error(reply.message));
    };
    worker.onerror = (event) => fallBack(event.message || event);
    worker.onmessageerror = (event) => fallBack(event);
    return worker;
  };
  return (name, data) => {
    const running = start();
    if (!running) return checkHere(name, data);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { name, data, resolve, reject });
      try {
        running.postMessage({ id, name, data } satisfies ValidationRequest);
      } catch {
        // An answer that cannot be copied to the worker is checked here.
        waiting.delete(id);
        checkHere(name, data).then(resolve, reject);
      }
    });
  };
}

let checker: SchemaChecker = typeof Worker === 'undefined' ? checkHere : workerChecker();

/** Tests put their own checker here (a fake schema); null restores the default. */
export function setSchemaChecker(next: SchemaChecker | null): void {
  checker = next ?? (typeof Worker === 'undefined' ? checkHere : workerChecker());
}

/** From now until finishFirstLoad(), answers are handed on at once and checked afterwards. */
export function deferValidationDuringFirstLoad(): void {
  firstLoad = true;
}

/**
 * The first screen has settled: check the answers already handed on, reporting a mismatch through the drift
 * handler, and from now on check every answer before use. With nothing handed on, the schemas are still loaded
 * now (in the worker), so the next answer does not wait for them.
 */
export async function finishFirstLoad(): Promise<void> {
  firstLoad = false;
  const handedOn = deferred;
  deferred = [];
  if (handedOn.length === 0) {
    await checker('userSetting', { key: '', value: '' }).catch(() => undefined);
    return;
  }
  await Promise.all(
    handedOn.map(async ({ name, data }) => {
      try {
        await check(name, data);
      } catch (error) {
        if (error instanceof ApiError) onLateDrift(error);
        else console.error('[api] the contract schema could not be loaded', error);
      }
    }),
  );
}

/** Where a mismatch found after the answer was handed on goes (the composition root shows the general error). */
export function setLateDriftHandler(handler: (error: ApiError) => void): void {
  onLateDrift = handler;
}

async function check<N extends SchemaName>(name: N, data: unknown): Promise<SchemaOutput<N>> {
  let output: unknown;
  try {
    output = await checker(name, data);
  } catch (error) {
    if (error instanceof SchemasUnavailable) throw error;
    // Fail loudly: the server and the contract disagree.
    console.error('[api] response does not match the contract', error);
    throw new ApiError({ status: 0, messages: [error instanceof Error ? error.message : String(error)], kind: 'drift', handled: false });
  }
  return output as SchemaOutput<N>;
}

export async function validate<N extends SchemaName>(name: N, data: unknown): Promise<SchemaOutput<N>> {
  if (!firstLoad) return check(name, data);
  // A copy is kept: the answer handed on may become part of a store (a valtio proxy, which cannot be sent to the
  // worker: the policy's did, and its check fell back to loading arktype on the main thread).
  deferred.push({ name, data: structuredClone(data) });
  // Handed on now, checked by finishFirstLoad() once the first screen has settled.
  return data as SchemaOutput<N>;
}
