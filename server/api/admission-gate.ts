// A first-in, first-out gate for requests that use the embedded database. PGlite runs one statement at a time (on
// a thread of its own, db/pglite-thread.ts); without a gate, the statements of every open request interleave, so
// under load each request finishes only when the whole crowd does (and requests whose clients gave up keep
// running). Through the gate a few requests run their statements at a time, in arrival order, and a request whose
// client has gone is dropped before it costs a statement.

export type AdmissionOptions = {
  /** requests running at a time */
  concurrent: number;
  /** requests waiting at most; past it new requests are refused (the caller answers 503 with Retry-After) */
  maxQueued: number;
};

export type AdmissionGate = {
  /**
   * Runs work when a place is free, in arrival order. Rejects with GateRefused when the queue is full, and with
   * the signal's reason when the signal aborts while waiting (the work never starts).
   */
  run: <T>(signal: AbortSignal | undefined, work: () => Promise<T>) => Promise<T>;
  /** running and waiting now (tests and diagnostics) */
  load: () => { running: number; queued: number };
};

export class GateRefused extends Error {
  constructor() {
    super('admission queue is full');
  }
}

type Waiter = { admit: () => void };

export function createAdmissionGate(options: AdmissionOptions): AdmissionGate {
  if (!(options.concurrent >= 1)) throw new Error('an admission gate needs at least one place');
  let running = 0;
  const queue: Waiter[] = [];

  function release() {
    running -= 1;
    // Waiters whose clients left took themselves out of the queue: the first one still there goes next.
    const next = queue.shift();
    if (next) {
      running += 1;
      // On the next turn of the event loop, not in this chain of promises: a database that answers without waiting
      // on I/O (PGlite did, on this thread) would otherwise run the whole queue without a socket being read.
      setImmediate(next.admit);
    }
  }

  function enter(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (running < options.concurrent && queue.length === 0) {
      running += 1;
      return Promise.resolve();
    }
    if (queue.length >= options.maxQueued) return Promise.reject(new GateRefused());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    run: async (signal, work) => {
      await enter(signal);
      try {
        return await work();
      } finally {
        release();
      }
    },
    load: () => ({ running, queued: queue.length }),
  };
}
