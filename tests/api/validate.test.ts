// Response validation: strict by default; during the first load answers are handed on at once and checked when
// the first screen has settled, a mismatch then reported through the drift handler; nothing goes unchecked. The
// checking runs in a worker where there is one, else here; a worker that fails hands its checks back.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchemaName } from '../../src/api/contract-schemas.ts';
import { answer } from '../../src/api/validation-worker.ts';

type ValidateModule = typeof import('../../src/api/validate.ts');

/** A stand-in checker: amounts must be numbers. */
const amountChecker = vi.fn(async (_name: SchemaName, data: unknown) => {
  if (typeof (data as { amount?: unknown } | null)?.amount !== 'number') throw new Error('amount must be a number');
  return data;
});

let module: ValidateModule;
beforeEach(async () => {
  vi.resetModules();
  vi.unstubAllGlobals();
  amountChecker.mockClear();
  module = await import('../../src/api/validate.ts');
  module.setSchemaChecker(amountChecker);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
// The module last imported keeps the stand-in checker: the next file of this worker (the web project shares modules
// between files) imports its own.
afterAll(() => {
  vi.resetModules();
});

describe('validate', () => {
  it('checks before use by default: a good answer passes, a bad one rejects as drift', async () => {
    await expect(module.validate('userSetting', { amount: 5 })).resolves.toEqual({ amount: 5 });
    await expect(module.validate('userSetting', { amount: '5' })).rejects.toMatchObject({
      name: 'ApiError',
      kind: 'drift',
      status: 0,
      messages: ['amount must be a number'],
    });
    expect(amountChecker).toHaveBeenCalledTimes(2);
  });

  it('during the first load hands answers on without checking them, then checks every one of them', async () => {
    const drift = vi.fn();
    module.setLateDriftHandler(drift);
    module.deferValidationDuringFirstLoad();

    await expect(module.validate('userSetting', { amount: 1 })).resolves.toEqual({ amount: 1 });
    await expect(module.validate('userSetting', { amount: 'bad' })).resolves.toEqual({ amount: 'bad' });
    expect(amountChecker).not.toHaveBeenCalled();
    expect(drift).not.toHaveBeenCalled();

    await module.finishFirstLoad();
    expect(amountChecker).toHaveBeenCalledTimes(2);
    expect(drift).toHaveBeenCalledTimes(1);
    expect(drift.mock.calls[0]?.[0]).toMatchObject({ kind: 'drift', messages: ['amount must be a number'] });

    // From now on, answers are checked before use again.
    await expect(module.validate('userSetting', { amount: 'bad' })).rejects.toMatchObject({ kind: 'drift' });
    expect(drift).toHaveBeenCalledTimes(1);
  });

  it('reports nothing when the answers handed on were good, and loads the schemas when nothing was handed on', async () => {
    const drift = vi.fn();
    module.setLateDriftHandler(drift);
    module.deferValidationDuringFirstLoad();
    await module.validate('userSetting', { amount: 2 });
    await module.finishFirstLoad();
    expect(drift).not.toHaveBeenCalled();
    expect(amountChecker).toHaveBeenCalledTimes(1);
    // Nothing handed on: the checker is still asked once, so the schemas are loaded before the next answer.
    module.deferValidationDuringFirstLoad();
    await module.finishFirstLoad();
    expect(amountChecker).toHaveBeenCalledTimes(2);
  });

  it('checks against the real contract schemas on the main thread where there is no worker', async () => {
    module.setSchemaChecker(null);
    await expect(module.validate('userSetting', { key: 'ContextFavorites', value: '[]' })).resolves.toEqual({ key: 'ContextFavorites', value: '[]' });
    await expect(module.validate('userSetting', { key: 'ContextFavorites' })).rejects.toMatchObject({
      kind: 'drift',
      messages: [expect.stringContaining('value')],
    });
  });
});

describe('the validation worker', () => {
  it('answers with the schema output or what is wrong, for each named schema', () => {
    expect(answer({ id: 1, name: 'permissionList', data: { permissions: ['Mapi.Transactions.Read'] } })).toEqual({
      id: 1,
      ok: true,
      output: { permissions: ['Mapi.Transactions.Read'] },
    });
    const wrong = answer({ id: 2, name: 'permissionList', data: { permissions: 'all' } });
    expect(wrong).toMatchObject({ id: 2, ok: false, message: expect.stringContaining('permissions') });
    const declines = {
      startDate: '2026-11-01',
      endDate: '2026-11-02',
      currency: 'GBP',
      totalCount: 1,
      totalAmount: 5,
      reasons: [{ reason: 'Insufficient funds', count: 1, amount: 5 }],
    };
    expect(answer({ id: 3, name: 'declinesResponse', data: declines })).toEqual({ id: 3, ok: true, output: declines });
    expect(answer({ id: 6, name: 'declinesResponse', data: { ...declines, reasons: [{ reason: 'x' }] } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('count'),
    });
    expect(answer({ id: 4, name: 'noSuchSchema' as SchemaName, data: {} })).toMatchObject({
      ok: false,
      message: 'there is no contract schema named noSuchSchema',
    });
  });
});

describe('validate with a worker', () => {
  /** A stand-in for the browser's Worker that answers with the real worker's answer(), or fails on demand. */
  class FakeWorker {
    static instances: FakeWorker[] = [];
    static failing = false;
    onmessage: ((event: MessageEvent) => void) | null = null;
    onerror: ((event: ErrorEvent) => void) | null = null;
    onmessageerror: ((event: MessageEvent) => void) | null = null;
    posted = 0;
    terminated = false;
    constructor() {
      FakeWorker.instances.push(this);
    }
    postMessage(request: Parameters<typeof answer>[0]) {
      this.posted += 1;
      queueMicrotask(() => {
        if (FakeWorker.failing) this.onerror?.({ message: 'worker script failed' } as ErrorEvent);
        else this.onmessage?.({ data: answer(request) } as MessageEvent);
      });
    }
    terminate() {
      this.terminated = true;
    }
  }

  beforeEach(() => {
    FakeWorker.instances = [];
    FakeWorker.failing = false;
    vi.stubGlobal('Worker', FakeWorker);
    module.setSchemaChecker(null);
  });

  it('sends each answer to one worker and hands on what it replies', async () => {
    await expect(module.validate('permissionList', { permissions: ['A'] })).resolves.toEqual({ permissions: ['A'] });
    await expect(module.validate('permissionList', { permissions: 7 })).rejects.toMatchObject({ kind: 'drift' });
    expect(FakeWorker.instances).toHaveLength(1);
    expect(FakeWorker.instances[0]?.posted).toBe(2);
  });

  it('checks on the main thread once the worker fails, the pending answer included', async () => {
    FakeWorker.failing = true;
    await expect(module.validate('permissionList', { permissions: ['A'] })).resolves.toEqual({ permissions: ['A'] });
    expect(FakeWorker.instances[0]?.terminated).toBe(true);
    await expect(module.validate('permissionList', { permissions: 7 })).rejects.toMatchObject({ kind: 'drift' });
    expect(FakeWorker.instances).toHaveLength(1);
    expect(FakeWorker.instances[0]?.posted).toBe(1);
  });
});

describe('answers handed on during the first load', () => {
  it('are kept as they arrived, so a store that takes them over (a proxy) neither changes nor blocks their check', async () => {
    const drift = vi.fn();
    module.setLateDriftHandler(drift);
    module.deferValidationDuringFirstLoad();
    const answer = { amount: 3 };
    await module.validate('userSetting', answer);
    answer.amount = 'changed later' as unknown as number;
    await module.finishFirstLoad();
    expect(drift).not.toHaveBeenCalled();
    expect(amountChecker).toHaveBeenCalledWith('userSetting', { amount: 3 });
  });
});
