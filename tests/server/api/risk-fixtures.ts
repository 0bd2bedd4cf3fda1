// Fixtures of the risk area's suites, shared with the isolation and hostile suites: customers with a
// saved card, a risk analyst and a second owner of B3, the screening list, and a merchant with a card-testing burst.
import { vaultCard } from '../../../server/cards/card-vault.ts';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { screeningList } from '../../../server/risk/screening-list.ts';
import { testCardKeys } from '../support.ts';

const day = 86_400_000;
export const savedCardNumber = '5555555555554444';

export async function insertFixtureCustomers(database: Database): Promise<void> {
  const { db } = database;
  const token = await vaultCard(db, testCardKeys, { merchantId: 'M3a', cardNumber: savedCardNumber });
  await db.insert(schema.customers).values([
    {
      id: 'CUS3A1',
      businessId: 'B3',
      merchantId: 'M3a',
      reference: 'C-001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: 'ada@example.test',
      billingAddress: { city: 'London', countryIso3166Alpha2: 'GB', phoneNumber1: '+44 7700 900123', phoneNumber1Type: 'Mobile' },
      createdUtc: new Date('2026-01-01T10:00:00Z'),
    },
    {
      id: 'CUS3A2',
      businessId: 'B3',
      merchantId: 'M3a',
      reference: 'C-002',
      firstName: 'Brian',
      lastName: 'Babbage',
      emailAddress: 'brian@example.test',
      createdUtc: new Date('2026-02-01T10:00:00Z'),
    },
    {
      id: 'CUS1A1',
      businessId: 'B1',
      merchantId: 'M1a',
      reference: 'C-001',
      firstName: 'Carol',
      lastName: 'Clark',
      createdUtc: new Date('2026-03-01T10:00:00Z'),
    },
  ]);
  await db.insert(schema.customerData).values([
    {
      id: 'CD3A1CARD',
      customerId: 'CUS3A1',
      merchantId: 'M3a',
      kind: 'savedCard',
      value: { cardToken: token, maskedCardNumber: '555555******4444', expiryMonth: 4, expiryYear: 2029, cardholderName: 'Ada Lovelace' },
    },
    { id: 'CD3A1CONSENT', customerId: 'CUS3A1', merchantId: 'M3a', kind: 'consent', value: { purpose: 'Order updates by email', granted: true } },
  ]);
}

export const riskUsers = { risk: 'u-risk', secondOwner: 'u-owner2' } as const;

export async function insertScreeningFixture(database: Database): Promise<void> {
  const { db } = database;
  const user = (id: string, email: string, internal: boolean) => ({ id, email, givenName: id, familyName: 'Test', passwordHash: 'scrypt$1$1$1$x$y', internal });
  await db.insert(schema.users).values([user(riskUsers.risk, 'risk@fixture.test', true), user(riskUsers.secondOwner, 'owner2@fixture.test', false)]);
  await db.insert(schema.userRoles).values([
    { userId: riskUsers.risk, role: 'RiskAnalyst', level: 'root' },
    { userId: riskUsers.secondOwner, role: 'Owner', level: 'business', businessId: 'B3' },
  ]);
  await db.insert(schema.screeningListEntries).values(
    screeningList.map(({ id, list, kind, name, aliases, dateOfBirth, country, reason }) => ({
      id,
      list,
      kind,
      name,
      aliases: [...aliases],
      dateOfBirth,
      country,
      reason,
    })),
  );
}

/** M1a: six weeks of steady card payments (4 a day, one declined every other day), then today a burst of 20 declines of £1. */
export async function insertWatchTransactions(database: Database, now: Date): Promise<void> {
  const rows: (typeof schema.transactions.$inferInsert)[] = [];
  const today = Math.floor(now.getTime() / day) * day;
  let n = 0;
  const add = (at: number, amountMinor: number, status: string) => {
    n += 1;
    rows.push({
      reference: `TXW${String(n).padStart(5, '0')}`,
      kind: 'payment',
      businessId: 'B1',
      merchantId: 'M1a',
      partnerId: 'P1',
      configurationId: 'C-M1a',
      paymentJobReference: `PJW${String(n).padStart(5, '0')}`,
      createdAt: new Date(at),
      amountMinor,
      currency: 'GBP',
      status,
      paymentMethod: 'card',
      channel: 'Gateway',
    });
  };
  for (let back = 42; back >= 1; back -= 1) {
    for (let k = 0; k < 4; k += 1) add(today - back * day + (k + 1) * 3_600_000, 2500 + k * 100, k === 0 && back % 2 === 0 ? 'declined' : 'paid');
  }
  for (let k = 0; k < 20; k += 1) add(Math.min(now.getTime() - 1000, today + 60_000 * (k + 1)), 100, 'declined');
  await database.db.insert(schema.transactions).values(rows);
}

/** A beneficiary of B3 with an open alert, and a watch list entry for M3a refreshed just now (no refresh on read). */
export async function insertRiskRecords(database: Database): Promise<void> {
  const { db } = database;
  await db.insert(schema.beneficiaries).values({
    id: 'BENFIX1',
    businessId: 'B3',
    kind: 'person',
    firstName: 'Vadim',
    lastName: 'Zolotarev',
    dateOfBirth: '1968-03-14',
    nameOnBankAccount: 'V Zolotarev',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    status: 'Referred',
    createdBy: 'u-owner',
    lastChangedBy: 'u-owner',
  });
  await db.insert(schema.screeningAlerts).values({
    id: 'SAFIX1',
    beneficiaryId: 'BENFIX1',
    businessId: 'B3',
    entryId: 'SL0001',
    score: 1000,
    matchedName: 'Vadim Zolotarev',
    screenedName: 'Vadim Zolotarev',
    status: 'open',
  });
  const now = new Date();
  await db.insert(schema.watchListEntries).values({
    merchantId: 'M3a',
    businessId: 'B3',
    score: 40,
    signals: [{ signal: 'cardTesting', value: 20, threshold: 15 }],
    trend: Array.from({ length: 30 }, () => 0),
    status: 'open',
    firstFlaggedUtc: now,
    lastComputedUtc: now,
  });
  await db.insert(schema.riskSettings).values({ key: 'watch.signalsRefreshedUtc', value: now.toISOString() });
}
