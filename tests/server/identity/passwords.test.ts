import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/identity/passwords.ts';

describe('passwords', () => {
  it('verifies the password it hashed', async () => {
    const hash = await hashPassword('portal-demo');
    expect(hash.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('portal-demo', hash)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    const hash = await hashPassword('portal-demo');
    expect(await verifyPassword('portal-demo!', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash, so two hashes of the same password differ', async () => {
    const [first, second] = await Promise.all([hashPassword('portal-demo'), hashPassword('portal-demo')]);
    expect(first).not.toBe(second);
    expect(await verifyPassword('portal-demo', second)).toBe(true);
  });

  it('refuses a stored value that is not an scrypt hash', async () => {
    expect(await verifyPassword('portal-demo', 'plain$portal-demo')).toBe(false);
  });
});
