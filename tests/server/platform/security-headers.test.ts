// Headers every answer carries: nosniff on Portal API answers (successes and refusals alike), and
// Strict-Transport-Security whenever PUBLIC_URL is https (TLS ends at the load balancer).
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { strictTransportSecurity } from '../../../server/http/security-headers.ts';
import { createTestDatabase, insertFixtureWorld, testCardKeys, tokenFor } from '../support.ts';

const verifyAccessToken = async (token: string) => {
  if (!token.startsWith('user.')) throw new Error('bad token');
  return { userId: token.slice(5), scopes: ['portal'] };
};

describe('security headers', () => {
  it('sends nosniff on every API answer and HSTS only under an https PUBLIC_URL', async () => {
    const database = await createTestDatabase('pglite');
    try {
      await insertFixtureWorld(database);
      const secure = createApp({ database, cardKeys: testCardKeys, verifyAccessToken, publicUrl: 'https://portal.example.com' });
      const plain = createApp({ database, cardKeys: testCardKeys, verifyAccessToken, publicUrl: 'http://localhost:3000' });
      const asAdmin = { headers: { authorization: `Bearer ${tokenFor('u-admin')}` } };
      for (const [path, init, status] of [
        ['/api/portal/user/permissions', asAdmin, 200],
        ['/api/portal/user/permissions', {}, 401],
        ['/api/portal/nothing-here', asAdmin, 404],
      ] as const) {
        const response = await secure.request(path, init);
        expect(response.status, path).toBe(status);
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(response.headers.get('strict-transport-security'), path).toBe(strictTransportSecurity);
        const overHttp = await plain.request(path, init);
        expect(overHttp.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(overHttp.headers.get('strict-transport-security'), path).toBeNull();
      }
      expect((await secure.request('/healthz')).headers.get('strict-transport-security')).toBe(strictTransportSecurity);
    } finally {
      await database.close();
    }
  });
});
