// Transactions beyond the fixture world's two, shared by the transactions, reports and worker suites.
import { eq } from 'drizzle-orm';
import type { Database } from '../../../server/db/client.ts';
import { vaultCard } from '../../../server/cards/card-vault.ts';
import * as schema from '../../../server/db/schema.ts';
import { testCardKeys } from '../support.ts';

type Row = [
  reference: string,
  businessId: string,
  merchantId: string,
  partnerId: string | null,
  createdAt: string,
  amountMinor: number,
  currency: string,
  status: string,
  paymentMethod: string,
  channel: string,
  kind: 'payment' | 'refund' | 'capture',
  parent: string | null,
  email: string | null,
];

/** B1 (partner P1): M1a 'Alpha Online', M1b 'Alpha Stores'; B2: M2a; B3: M3a 'Gamma Deli', M3b 'Gamma Bakery' (JPY). */
export const extraTransactions: Row[] = [
  ['TX1A0002', 'B1', 'M1a', 'P1', '2026-11-02T09:00:00Z', 9999, 'GBP', 'declined', 'applePay', 'Gateway', 'payment', null, 'ann@shop.test'],
  ['TX1A0003', 'B1', 'M1a', 'P1', '2026-11-03T23:30:00Z', 50000, 'EUR', 'paid', 'card', 'Acquiring', 'payment', null, 'Bob@Shop.test'],
  ['TX1B0001', 'B1', 'M1b', 'P1', '2026-11-04T10:00:00Z', 1050, 'GBP', 'paid', 'card', 'Chp', 'payment', null, '=HYPERLINK("http://x.test")@evil.test'],
  ['TX1R0001', 'B1', 'M1a', 'P1', '2026-11-05T10:00:00Z', 500, 'GBP', 'paid', 'card', 'Gateway', 'refund', 'TX1A0001', null],
  ['TX1C0001', 'B1', 'M1a', 'P1', '2026-11-01T11:00:00Z', 1250, 'GBP', 'paid', 'card', 'Gateway', 'capture', 'TX1A0001', null],
  ['TX2A0001', 'B2', 'M2a', 'P1', '2026-10-31T23:30:00Z', 2000, 'EUR', 'pending', 'ideal', 'Gateway', 'payment', null, 'c_d%x@web.test'],
  ['TX3B0001', 'B3', 'M3b', null, '2026-11-06T03:00:00Z', 1250, 'JPY', 'paid', 'payPal', 'Gateway', 'payment', null, 'yuki@bakery.test'],
  ['TX3B0002', 'B3', 'M3b', null, '2026-11-07T03:00:00Z', 125, 'JPY', 'failed', 'card', 'Gateway', 'payment', null, null],
];

/** Newest first, as the overview lists B1 by default. */
export const b1ByDateDescending = ['TX1R0001', 'TX1B0001', 'TX1A0003', 'TX1A0002', 'TX1C0001', 'TX1A0001'];

/** The full number of the extra card payments: vaulted per merchant, never stored in clear. */
export const extraCardNumber = '5555555555554444';

export async function insertExtraTransactions(database: Database): Promise<void> {
  const cardTokens = new Map<string, string>();
  for (const [, , merchantId, , , , , , paymentMethod] of extraTransactions) {
    if (paymentMethod === 'card' && !cardTokens.has(merchantId)) {
      cardTokens.set(merchantId, await vaultCard(database.db, testCardKeys, { merchantId, cardNumber: extraCardNumber }));
    }
  }
  await database.db.insert(schema.transactions).values(
    extraTransactions.map(
      ([reference, businessId, merchantId, partnerId, createdAt, amountMinor, currency, status, paymentMethod, channel, kind, parent, email]) => ({
        reference,
        businessId,
        merchantId,
        partnerId,
        createdAt: new Date(createdAt),
        amountMinor,
        currency,
        status,
        paymentMethod,
        channel,
        kind,
        parentReference: parent,
        customerEmail: email,
        configurationId: `C-${merchantId}`,
        paymentJobReference: parent === 'TX1A0001' ? 'PJ1A0001' : `PJ-${reference}`,
        cardMasked: paymentMethod === 'card' ? '555555******4444' : null,
        cardToken: paymentMethod === 'card' ? (cardTokens.get(merchantId) ?? null) : null,
        ewalletType: paymentMethod === 'applePay' ? 'applePay' : null,
        declineReason: status === 'declined' ? 'Insufficient funds' : null,
      }),
    ),
  );
  await database.db.update(schema.transactions).set({ customerEmail: 'first@alpha.test' }).where(eq(schema.transactions.reference, 'TX1A0001'));
}
