// A payment job opened with nothing paid yet (the gateway's POST /api/gateway/payment-jobs): the job row, then the
// one door for money (commitPaymentChange) in the same database transaction, so it is written as every other change
// of a job is: its version moves on, its audit event commits with it, and open panes and lists (the live 'record'
// event of the job) learn of it. No payment exists yet, so no transactions row, statistics, ledger or step moves:
// the shopper's payment on the hosted page is what writes those (server/payments/shopper-payment.ts).
import { paymentJobs } from '../db/schema.ts';
import { commitPaymentChange, type Actor, type DoorAuditEvent } from './payment-operations.ts';
import type { DbWriter } from '../db/client.ts';

export type NewPaymentJob = Omit<typeof paymentJobs.$inferInsert, 'version' | 'paidDateTimeUtc'>;

export type OpenedPaymentJob = { reference: string; version: number };

export async function openPaymentJob(
  tx: DbWriter,
  input: { job: NewPaymentJob; actor: Actor; audit: { event: DoorAuditEvent; metaData: Record<string, unknown> }; at: Date },
): Promise<OpenedPaymentJob> {
  const [job] = await tx
    .insert(paymentJobs)
    .values({ ...input.job, paidDateTimeUtc: null })
    .returning();
  if (!job) throw new Error('openPaymentJob: the job was not written');
  const version = await commitPaymentChange(tx, { job, actor: input.actor, at: input.at, audit: input.audit });
  return { reference: job.reference, version };
}
