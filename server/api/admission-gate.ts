// A fair gate for requests that use the embedded database. PGlite runs one statement at a time (on
// a thread of its own, db/pglite-thread.ts); without a gate, the statements of every open request interleave, so
// under load each request finishes only when the whole crowd does (and requests whose clients gave up keep
// running). Through the gate a few requests run their statements at a time, users taking turns (each user's
// requests in arrival order), and a request whose client has gone is dropped before it costs a statement.

export type AdmissionOptions = {
  /** requests running at a time */
  concurrent: number;
  /** requests waiting at most; past it new requests are refused (the caller answers 503 with Retry-After) */
  maxQueued: number;
};

export type AdmissionGate = {
  /**
   * Runs work when a place is free: callers (by key, the user) in turn, each caller's requests in arrival order.
   * Rejects with GateRefused when the queue is full, and with the signal's reason when the signal aborts while
   * waiting (the work never starts).
   */
  run: <T>(signal: AbortSignal | undefined, work: () => Promise<T>, key?: string) => Promise<T>;
  /** running and waiting now (tests and diagnostics) */
  load: () => { running: number; queued: number };
};

export class GateRefused extends Error {
  constructor() {
    super('admission queue is full');
  }
}

type Waiter = { admit: () => void };

/** Callers that pass no key share one queue (tests, tools). */
const anonymous = '';

export function createAdmissionGate(options: AdmissionOptions): AdmissionGate {
  if (!(options.concurrent >= 1)) throw new Error('an admission gate needs at least one place');
  let running = 0;
  let queued = 0;
  // One queue per caller, served in turn: a caller with twenty slow requests waiting delays another caller's one
  // request by at most one turn, not by all twenty (arrival order is kept within each caller's queue).
  const queues = new Map<string, Waiter[]>();

  function takeNext(finished: string): Waiter | undefined {
    // The caller whose request just finished has had its turn: its queue goes behind the others.
    const ownQueue = queues.get(finished);
    if (ownQueue && queues.size > 1) {
      queues.delete(finished);
      queues.set(finished, ownQueue);
    }
    // A Map iterates in insertion order: the first key is the caller whose turn it is.
    for (const [key, waiting] of queues) {
      const next = waiting.shift();
      queues.delete(key);
      // Still waiting: to the back of the line.
      if (waiting.length > 0) queues.set(key, waiting);
      if (next) return next;
    }
    return undefined;
  }

  function release(finished: string) {
    running -= 1;
    // Waiters whose clients left took themselves out of their queue: the next one still there goes next.
    const next = takeNext(finished);
    if (next) {
      queued -= 1;
      running += 1;
      // On the next turn of the event loop, not in this chain of promises: a database that answers without waiting
      // on I/O (PGlite did, on this thread) would otherwise run the whole queue without a socket being read.
      setImmediate(next.admit);
    }
  }

  function enter(signal: AbortSignal | undefined, key: string): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (running < options.concurrent && queued === 0) {
      running += 1;
      return Promise.resolve();
    }
    if (queued >= options.maxQueued) return Promise.reject(new GateRefused());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const waiting = queues.get(key);
        const index = waiting?.indexOf(waiter) ?? -1;
        if (waiting && index >= 0) {
          waiting.splice(index, 1);
          queued -= 1;
          if (waiting.length === 0) queues.delete(key);
        }
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const waiting = queues.get(key);
      if (waiting) waiting.push(waiter);
      else queues.set(key, [waiter]);
      queued += 1;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    run: async (signal, work, key = anonymous) => {
      await enter(signal, key);
      try {
        return await work();
      } finally {
        release(key);
      }
    },
    load: () => ({ running, queued }),
  };
}
