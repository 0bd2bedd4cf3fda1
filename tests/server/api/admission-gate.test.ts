// The FIFO gate in front of the embedded database: arrival order, a bounded number running, waiters whose client
// left never run, a full queue refuses.
import { describe, expect, it } from 'vitest';
import { createAdmissionGate, GateRefused } from '../../../server/api/admission-gate.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Admission happens on a later turn of the event loop. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('admission gate', () => {
  it('runs at most `concurrent` at a time and admits waiters in arrival order', async () => {
    const gate = createAdmissionGate({ concurrent: 2, maxQueued: 100 });
    const started: number[] = [];
    const finish = Array.from({ length: 6 }, deferred);
    const runs = finish.map((done, index) =>
      gate.run(undefined, async () => {
        started.push(index);
        await done.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.load()).toEqual({ running: 2, queued: 4 });
    finish[1]?.resolve();
    await runs[1];
    await nextTurn();
    expect(started).toEqual([0, 1, 2]);
    finish[0]?.resolve();
    finish[2]?.resolve();
    await Promise.all([runs[0], runs[2]]);
    await nextTurn();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const done of finish) done.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.load()).toEqual({ running: 0, queued: 0 });
  });

  it('a late arrival waits behind the queue even when a place is free for a moment', async () => {
    const gate = createAdmissionGate({ concurrent: 1, maxQueued: 100 });
    const order: string[] = [];
    const first = deferred();
    const a = gate.run(undefined, async () => {
      order.push('a');
      await first.promise;
    });
    const b = gate.run(undefined, async () => {
      order.push('b');
    });
    first.resolve();
    const c = gate.run(undefined, async () => {
      order.push('c');
    });
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('lets the event loop turn between two admissions (I/O is read while a queue drains)', async () => {
    const gate = createAdmissionGate({ concurrent: 1, maxQueued: 100 });
    const order: string[] = [];
    const first = gate.run(undefined, async () => {
      order.push('first');
    });
    const second = gate.run(undefined, async () => {
      order.push('second');
    });
    setImmediate(() => order.push('event loop'));
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'event loop', 'second']);
  });

  it('drops a waiter whose client has gone without running it, and frees its place in the queue', async () => {
    const gate = createAdmissionGate({ concurrent: 1, maxQueued: 100 });
    const hold = deferred();
    const ran: string[] = [];
    const first = gate.run(undefined, async () => {
      ran.push('first');
      await hold.promise;
    });
    const gone = new AbortController();
    const abandoned = gate.run(gone.signal, async () => {
      ran.push('abandoned');
    });
    const next = gate.run(undefined, async () => {
      ran.push('next');
    });
    expect(gate.load().queued).toBe(2);
    gone.abort(new Error('client closed'));
    await expect(abandoned).rejects.toThrow('client closed');
    expect(gate.load().queued).toBe(1);
    hold.resolve();
    await Promise.all([first, next]);
    expect(ran).toEqual(['first', 'next']);
  });

  it('never starts work for an already aborted signal', async () => {
    const gate = createAdmissionGate({ concurrent: 4, maxQueued: 100 });
    let ran = false;
    await expect(
      gate.run(AbortSignal.abort(new Error('gone')), async () => {
        ran = true;
      }),
    ).rejects.toThrow('gone');
    expect(ran).toBe(false);
    expect(gate.load()).toEqual({ running: 0, queued: 0 });
  });

  it('refuses when the queue is full and releases the place when work fails', async () => {
    const gate = createAdmissionGate({ concurrent: 1, maxQueued: 1 });
    const hold = deferred();
    const first = gate.run(undefined, async () => {
      await hold.promise;
      throw new Error('boom');
    });
    const second = gate.run(undefined, async () => 'second');
    await expect(gate.run(undefined, async () => 'third')).rejects.toBeInstanceOf(GateRefused);
    hold.resolve();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe('second');
    expect(gate.load()).toEqual({ running: 0, queued: 0 });
  });
});
