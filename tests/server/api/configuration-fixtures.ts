// Users the configuration suites need beyond the shared fixture world: an external developer on B1, an Implementations
// user and a Customer service user (internal), and a merchant-level Finance user on M3a.
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';

export const configurationUsers = {
  developer: 'u-developer',
  implementations: 'u-implementations',
  service: 'u-service',
  merchantFinance: 'u-merchant-finance',
} as const;

export async function insertConfigurationUsers(database: Database): Promise<void> {
  const user = (id: string, internal: boolean) => ({
    id,
    email: `${id.slice(2)}@fixture.test`,
    givenName: id.slice(2),
    familyName: 'Test',
    passwordHash: 'scrypt$1$1$1$x$y',
    internal,
  });
  const u = configurationUsers;
  await database.db
    .insert(schema.users)
    .values([user(u.developer, false), user(u.implementations, true), user(u.service, true), user(u.merchantFinance, false)]);
  await database.db.insert(schema.userRoles).values([
    { userId: u.developer, role: 'ExternalDeveloper', level: 'business', businessId: 'B1' },
    { userId: u.implementations, role: 'Implementations', level: 'root' },
    { userId: u.service, role: 'CustomerService', level: 'root' },
    { userId: u.merchantFinance, role: 'Finance', level: 'merchant', businessId: 'B3', merchantId: 'M3a' },
  ]);
}
