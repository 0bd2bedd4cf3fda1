// Response validation: strict by default; during the first load answers are handed on at once and checked when
// the first screen has settled, a mismatch then reported through the drift handler; nothing goes unchecked.
import { beforeEach, describe, expect, it, vi } from 'vitest';

type ValidateModule = typeof import('../../src/api/validate.ts');

const schema = {
  assert: (data: unknown) => {
    if (typeof (data as { amount?: unknown } | null)?.amount !== 'number') throw new Error('amount must be a number');
    return data as { amount: number };
  },
};

let module: ValidateModule;
beforeEach(async () => {
  vi.resetModules();
  module = await import('../../src/api/validate.ts');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('validate', () => {
  it('checks before use by default: a good answer passes, a bad one rejects as drift', async () => {
    const loader = vi.fn(async () => schema);
    await expect(module.validate(loader, { amount: 5 })).resolves.toEqual({ amount: 5 });
    const rejection = module.validate(loader, { amount: '5' });
    await expect(rejection).rejects.toMatchObject({ name: 'ApiError', kind: 'drift', status: 0 });
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('during the first load hands answers on without fetching the schema, then checks every one of them', async () => {
    const loader = vi.fn(async () => schema);
    const drift = vi.fn();
    module.setLateDriftHandler(drift);
    module.deferValidationDuringFirstLoad();

    await expect(module.validate(loader, { amount: 1 })).resolves.toEqual({ amount: 1 });
    await expect(module.validate(loader, { amount: 'bad' })).resolves.toEqual({ amount: 'bad' });
    expect(loader).not.toHaveBeenCalled();
    expect(drift).not.toHaveBeenCalled();

    await module.finishFirstLoad([]);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(drift).toHaveBeenCalledTimes(1);
    expect(drift.mock.calls[0]?.[0]).toMatchObject({ kind: 'drift', messages: ['amount must be a number'] });

    // From now on, answers are checked before use again.
    await expect(module.validate(loader, { amount: 'bad' })).rejects.toMatchObject({ kind: 'drift' });
    expect(drift).toHaveBeenCalledTimes(1);
  });

  it('reports nothing when the answers handed on were good, and preloads the schemas it is given', async () => {
    const used = vi.fn(async () => schema);
    const other = vi.fn(async () => schema);
    const drift = vi.fn();
    module.setLateDriftHandler(drift);
    module.deferValidationDuringFirstLoad();
    await module.validate(used, { amount: 2 });
    await module.finishFirstLoad([other]);
    expect(drift).not.toHaveBeenCalled();
    expect(other).toHaveBeenCalledTimes(1);
    expect(used).toHaveBeenCalledTimes(1);
  });

  it('tries a schema again after it failed to load', async () => {
    const loader = vi.fn().mockRejectedValueOnce(new Error('chunk failed')).mockResolvedValue(schema);
    await expect(module.validate(loader, { amount: 1 })).rejects.toThrow('chunk failed');
    await expect(module.validate(loader, { amount: 1 })).resolves.toEqual({ amount: 1 });
    expect(loader).toHaveBeenCalledTimes(2);
  });
});
