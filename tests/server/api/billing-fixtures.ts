// Fixtures of the billing suites, shared with the isolation and hostile suites: a finance admin, and a
// month of sales and fees in the ledger (October 2026) posted the way the payments module posts them.
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { ensureMerchantAccountGroups, groupAccountId, postDrafts, providerAccountId, type PostingDraft } from '../../../server/ledger/post-transactions.ts';
import type { DbWriter } from '../../../server/db/client.ts';

export const billingUsers = { financeAdmin: 'u-billing' } as const;
export const billedMonth = '2026-10';

export type LedgerSale = {
  reference: string;
  businessId: string;
  merchantId: string;
  currency: string;
  paymentMethod: string;
  amountMinor: number;
  feeMinor: number;
  at: Date;
  grossSettlement?: boolean;
};

/** A paid payment's transactions row, sale posting and fee posting (as server/ledger/post-transactions.ts writes them). */
export async function insertLedgerSales(writer: DbWriter, sales: readonly LedgerSale[]): Promise<void> {
  if (sales.length === 0) return;
  await writer.insert(schema.transactions).values(
    sales.map((sale) => ({
      reference: sale.reference,
      kind: 'payment' as const,
      businessId: sale.businessId,
      merchantId: sale.merchantId,
      configurationId: `C-${sale.merchantId}`,
      paymentJobReference: `PJ-${sale.reference}`,
      createdAt: sale.at,
      amountMinor: sale.amountMinor,
      currency: sale.currency,
      status: 'paid',
      paymentMethod: sale.paymentMethod,
      channel: 'Gateway',
    })),
  );
  const drafts: PostingDraft[] = sales.flatMap((sale) => {
    const accountNumber = merchantAccountNumber(sale.merchantId, sale.currency);
    const base = {
      transactionReference: sale.reference,
      businessId: sale.businessId,
      merchantId: sale.merchantId,
      currency: sale.currency,
      accountNumber,
      valueAt: sale.at,
    };
    const zero = { salesCount: 0, salesMinor: 0, refundsMinor: 0, reversalsMinor: 0, feesMinor: 0 };
    const trading = groupAccountId(accountNumber, 'trading');
    const postings: PostingDraft[] = [
      {
        ...base,
        id: `sale:${sale.reference}`,
        category: 'sale',
        entries: [
          { accountId: providerAccountId('clearing', sale.currency), amountMinor: -sale.amountMinor, category: 'sale' },
          { accountId: trading, amountMinor: sale.amountMinor, category: 'sale' },
        ],
        batchDelta: { ...zero, salesCount: 1, salesMinor: sale.amountMinor },
      },
    ];
    if (sale.feeMinor !== 0) {
      postings.push({
        ...base,
        id: `fee:${sale.reference}`,
        category: 'fee',
        entries: [
          { accountId: sale.grossSettlement ? groupAccountId(accountNumber, 'invoice') : trading, amountMinor: -sale.feeMinor, category: 'fee' },
          { accountId: groupAccountId(accountNumber, 'costs'), amountMinor: sale.feeMinor, category: 'fee' },
        ],
        batchDelta: { ...zero, feesMinor: sale.feeMinor },
      });
    }
    return postings;
  });
  await ensureMerchantAccountGroups(writer, drafts);
  await postDrafts(writer, drafts, new Date(Math.max(...sales.map((sale) => sale.at.getTime()))));
}

const oct = (day: number, hour = 12) => new Date(Date.UTC(2026, 9, day, hour));

/**
 * October 2026: Alpha (B1) sells by card and Apple Pay on M1a and by card on M1b (gross settlement), Gamma (B3) a
 * little on M3a below its £25 monthly minimum, Beta (B2) in EUR. One sale on 31 October 23:59 and one on 1 November
 * 00:00 mark the month's edge.
 */
export async function insertBillingFixture(database: Database): Promise<void> {
  const { db } = database;
  await db.insert(schema.users).values({
    id: billingUsers.financeAdmin,
    email: 'billing@fixture.test',
    givenName: 'Bill',
    familyName: 'Test',
    passwordHash: 'scrypt$1$1$1$x$y',
    internal: true,
  });
  await db.insert(schema.userRoles).values({ userId: billingUsers.financeAdmin, role: 'FinanceAdmin', level: 'root' });
  const sale = (
    reference: string,
    businessId: string,
    merchantId: string,
    currency: string,
    paymentMethod: string,
    amountMinor: number,
    feeMinor: number,
    at: Date,
    grossSettlement = false,
  ): LedgerSale => ({ reference, businessId, merchantId, currency, paymentMethod, amountMinor, feeMinor, at, grossSettlement });
  await insertLedgerSales(db, [
    sale('BT1A01', 'B1', 'M1a', 'GBP', 'card', 10_000, 215, oct(2)),
    sale('BT1A02', 'B1', 'M1a', 'GBP', 'card', 10_000, 215, oct(9)),
    sale('BT1A03', 'B1', 'M1a', 'GBP', 'card', 10_000, 215, new Date(Date.UTC(2026, 9, 31, 23, 59))),
    sale('BT1A04', 'B1', 'M1a', 'GBP', 'applePay', 5_000, 120, oct(15)),
    sale('BT1A05', 'B1', 'M1a', 'GBP', 'card', 10_000, 215, new Date(Date.UTC(2026, 10, 1, 0, 0))),
    sale('BT1B01', 'B1', 'M1b', 'GBP', 'card', 2_000, 63, oct(20), true),
    sale('BT3A01', 'B3', 'M3a', 'GBP', 'card', 1_000, 44, oct(3)),
    sale('BT3A02', 'B3', 'M3a', 'GBP', 'card', 1_000, 44, oct(4)),
    sale('BT2A01', 'B2', 'M2a', 'EUR', 'card', 4_000, 101, oct(5)),
  ]);
  await db.insert(schema.pricingPlans).values({
    merchantId: 'M3a',
    businessId: 'B3',
    currency: 'GBP',
    name: 'Small business',
    monthlyMinimumMinor: 2_500,
    validFrom: new Date('2026-01-01T00:00:00Z'),
  });
}
