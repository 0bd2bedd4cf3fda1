// The server's side of the embedded database's thread (pglite-thread.ts): a client with the two methods the ORM's
// PGlite driver calls, query and transaction, each a message to the thread and its answer. Rows cross by
// structured clone; an error crosses with PostgreSQL's fields (code, detail, constraint…) so it reads as before.
import { Worker } from 'node:worker_threads';
import { logger } from '../log.ts';
import type { PgliteAnswer, PgliteRequest, PgliteThreadOptions, SerialisedError } from './pglite-thread.ts';

type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: unknown } | undefined;
/** A request without its id, distributed over the union so each kind keeps its own fields. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Result = { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };

export type PgliteQueryable = {
  query: <Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Result & { rows: Row[] }>;
};

export type PgliteRemote = PgliteQueryable & {
  /** the thread itself (tests stop it to see a lost database answered) */
  thread: Worker;
  transaction: <T>(run: (tx: PgliteQueryable) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

/** Connection failure (SQLSTATE class 08): what the API answers 503 to, as for a lost PostgreSQL server. */
const lostCode = '08006';

function revive(serialised: SerialisedError): Error {
  const error = new Error(serialised.message);
  error.name = serialised.name;
  Object.assign(error, serialised.fields);
  return error;
}

/** Starts the thread and resolves once PGlite is open there (rejects with PGlite's error if it cannot open). */
export async function startPgliteThread(options: PgliteThreadOptions): Promise<PgliteRemote> {
  const worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), { workerData: options });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let lost: Error | null = null;
  let closing = false;
  let started = false;

  const loseAll = (error: Error) => {
    lost ??= error;
    for (const waiter of pending.values()) waiter.reject(lost);
    pending.clear();
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (answer: PgliteAnswer) => {
      if (answer.id === 0) {
        started = answer.ok;
        if (answer.ok) resolve();
        else reject(revive(answer.error));
        return;
      }
      const waiter = pending.get(answer.id);
      if (!waiter) return;
      pending.delete(answer.id);
      // Nothing in flight: the thread must not keep the process alive on its own.
      if (pending.size === 0) worker.unref();
      if (answer.ok) waiter.resolve(answer.value);
      else waiter.reject(revive(answer.error));
    });
    const onEnd = (cause: Error) => {
      const error = Object.assign(new Error(`The embedded database stopped: ${cause.message}`, { cause }), { code: lostCode });
      if (started && !closing) logger.error({ component: 'db' }, error.message);
      reject(error);
      loseAll(error);
    };
    worker.on('error', onEnd);
    worker.on('exit', (code) => onEnd(new Error(`its thread exited with code ${code}`)));
  });
  await ready;
  worker.unref();

  const send = (request: Unnumbered<PgliteRequest>): Promise<unknown> => {
    if (lost) return Promise.reject(lost);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...request, id } as PgliteRequest);
    });
  };

  // The ORM's parsers are left out: the thread's instance reads those types as text already (and merging a
  // parser set into PGlite's ~340 for every result cost ~0.1 ms a statement).
  const queryIn =
    (transaction: number | undefined): PgliteQueryable['query'] =>
    (text, params, queryOptions) =>
      send({ op: 'query', text, params, rowMode: queryOptions?.rowMode, transaction }) as never;

  return {
    thread: worker,
    query: queryIn(undefined),
    async transaction<T>(run: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
      const transaction = (await send({ op: 'begin' })) as number;
      let result: T;
      try {
        result = await run({ query: queryIn(transaction) });
      } catch (error) {
        await send({ op: 'end', transaction, commit: false }).catch(() => undefined);
        throw error;
      }
      await send({ op: 'end', transaction, commit: true });
      return result;
    },
    async close() {
      if (lost) return;
      closing = true;
      await send({ op: 'close' });
      // The thread ends by itself once its port is closed (about 50 ms). Terminate only a thread that has not ended
      // by then: a test process died once in CI (SIGTRAP) around closing databases, and terminating a thread that
      // still runs WASM is the one forced stop on this path.
      worker.ref();
      const ended = new Promise<boolean>((done) => worker.once('exit', () => done(true)));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((done) => {
        timer = setTimeout(done, 5_000, false);
      });
      const endedByItself = await Promise.race([ended, late]);
      clearTimeout(timer);
      if (!endedByItself) await worker.terminate();
    },
  };
}
