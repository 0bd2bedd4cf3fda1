// Billing demo data: the invoices of the two months before last, issued by the finance admin a few days
// after each month ended, through the same run the API uses (server/billing/billing-run.ts), so they reconcile to
// the seeded ledger. The older month is paid; the newer one is paid but for one invoice, now overdue; one invoice
// has a credit note. Last month is left unbilled for the demo: `billing@demo.test` runs it. An invoice charges what
// the month put on the invoice accounts (gross-settled fees, minimum top-ups; never a net-settled merchant's fees,
// already deducted from its payouts), and paying or crediting it posts to the ledger as the API does.
import { eq, sql } from 'drizzle-orm';
import { previousMonthOf } from '../../src/contract/billing.ts';
import { issueBillingRun, takeNumbers } from '../billing/billing-run.ts';
import { postCreditNote, postInvoicePayment } from '../ledger/invoice-postings.ts';
import * as schema from '../db/schema.ts';
import type { DbWriter } from '../db/client.ts';

const day = 86_400_000;

export async function seedBilling(tx: DbWriter, options: { now: Date }): Promise<void> {
  const [admin] = await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, 'billing@demo.test'));
  if (!admin) return;
  const lastMonth = previousMonthOf(options.now);
  const [year, month] = lastMonth.split('-').map(Number) as [number, number];
  // Deterministic ids, so two seeds of one world are identical (tests/server/seed/seed.test.ts).
  let serial = 0;
  const seedId = (prefix: string) => `${prefix}S${String(++serial).padStart(15, '0')}`;
  const months = [3, 2].map((back) => new Date(Date.UTC(year, month - back, 1)).toISOString().slice(0, 7));
  for (const [index, billed] of months.entries()) {
    const [billedYear, billedMonth] = billed.split('-').map(Number) as [number, number];
    const issuedAt = new Date(Date.UTC(billedYear, billedMonth, 3, 9, 0));
    const issued = await issueBillingRun(tx, billed, admin.id, issuedAt, seedId);
    if (!issued) continue;
    const unpaid = index === months.length - 1 ? issued.issued[0]?.id : undefined;
    for (const [position, invoice] of issued.issued.entries()) {
      if (invoice.id === unpaid) continue;
      const paidUtc = new Date(issuedAt.getTime() + (2 + (position % 11)) * day);
      const [paid] = await tx.update(schema.invoices).set({ status: 'paid', paidUtc, version: 2 }).where(eq(schema.invoices.id, invoice.id)).returning();
      // As the API does: the payment clears what the invoice charged on the invoice accounts.
      if (paid) await postInvoicePayment(tx, paid, paidUtc);
    }
    await tx.insert(schema.auditEvents).values({
      userId: admin.id,
      event: 'BillingRunCreated',
      dateTimeUtc: issuedAt,
      metaData: { runId: issued.run.id, month: billed, invoiceCount: issued.issued.length },
      recordedUtc: issuedAt,
    });
    if (index === 0 && issued.issued[1]) {
      // A correction: part of one invoice credited a week after it was issued.
      const original = issued.issued[1];
      const creditAt = new Date(issuedAt.getTime() + 7 * day);
      const amount = Math.max(1, Math.round(original.totalMinor / 10));
      const [number] = await takeNumbers(tx, 'CN', creditAt.getUTCFullYear(), 1);
      const reason = 'Fees of a duplicated test payment refunded';
      const [note] = await tx
        .insert(schema.invoices)
        .values({
          id: seedId('CN'),
          number: number as string,
          kind: 'creditNote',
          runId: null,
          month: billed,
          businessId: original.businessId,
          currency: original.currency,
          status: 'issued',
          issuedUtc: creditAt,
          dueUtc: creditAt,
          feesMinor: 0,
          minimumTopUpMinor: 0,
          totalMinor: -amount,
          lines: [
            {
              merchantId: '',
              merchantName: '',
              paymentMethod: null,
              description: `Credit for invoice ${original.number}: ${reason}`,
              transactionCount: 0,
              volumeMinor: 0,
              feesMinor: 0,
              minimumTopUpMinor: 0,
              amountMinor: -amount,
            },
          ],
          creditedInvoiceId: original.id,
          reason,
          createdBy: admin.id,
        })
        .returning();
      if (note) await postCreditNote(tx, note, original);
    }
  }
  await tx.execute(sql`ANALYZE invoices`);
}
