// The mail worker: any node runs one; each claims one message at a time from the outbox (outbound_emails).
//
// claim    one short transaction: the oldest message due (queued and its next attempt reached, or sending whose lease
//          lapsed: its node died or stalled), FOR UPDATE SKIP LOCKED, status sending, attempts + 1, a lease.
// send     outside any transaction, through the transport (SMTP, or delivered locally).
// record   sent / deliveredLocally with the provider's message id, only while the lease is still ours; a failure goes
//          back to queued with a back-off (30 s, 1 min, 2 min … at most 1 h) until maxMailAttempts, then failed.
//          Sent or failed, a message's secret link (queueEmail's action.secret) is removed from both bodies.
// A node that dies after the server accepted a message but before it was recorded leaves it to be sent again when
// the lease lapses (at least once); the Message-ID is the outbox id, so the two copies are recognisably one.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, lte, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { outboundEmails } from '../db/schema.ts';
import { fromNameOf } from './compose.ts';
import type { MailTransport } from './transport.ts';
import { sqlNow } from '../clock.ts';
import { claimNext as claimNextJob } from '../jobs/claim.ts';

export const maxMailAttempts = 8;
const o = outboundEmails;

export type MailWorkerOptions = {
  database: Database;
  transport: MailTransport;
  /** the From header: 'Payments portal <no-reply@host>' */
  from: string;
  nodeId?: string;
  pollMs?: number;
  leaseMs?: number;
  log?: (line: string) => void;
};

export type MailWorker = { nodeId: string; stop: () => Promise<void> /** sends what is due now; tests call it */; drain: () => Promise<number> };

/** Delay before attempt n + 1 after n failures: 30 s doubling, at most an hour. */
export function mailBackoffMs(failedAttempts: number): number {
  return Math.min(3_600_000, 30_000 * 2 ** Math.max(0, failedAttempts - 1));
}

type Claimed = typeof outboundEmails.$inferSelect;

async function claimNext(database: Database, nodeId: string, leaseMs: number): Promise<Claimed | null> {
  const claim = await claimNextJob({
    db: database.db,
    table: o,
    columns: { id: o.id },
    where: or(and(eq(o.status, 'queued'), lte(o.nextAttemptAt, sqlNow())), and(eq(o.status, 'sending'), lt(o.lockedUntil, sqlNow()))),
    order: [asc(o.nextAttemptAt), asc(o.id)],
    status: 'sending',
    lease: { owner: nodeId, until: () => sqlNow(leaseMs) },
  });
  return claim.kind === 'claimed' ? claim.row : null;
}

/**
 * Once a message is sent (or given up), a secret link it carried (a password reset, an invitation, an email change)
 * is no longer kept: the bodies queued without it replace the bodies. Whoever reads /outbox or the
 * database later finds '[link removed after sending]'.
 */
const redactSecretLink = {
  html: sql`coalesce(${o.redactedHtml}, ${o.html})`,
  text: sql`coalesce(${o.redactedText}, ${o.text})`,
  redactedHtml: null,
  redactedText: null,
};

const held = (id: string, nodeId: string, attempt: number) => and(eq(o.id, id), eq(o.lockedBy, nodeId), eq(o.attempts, attempt), eq(o.status, 'sending'));

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { database, transport, from } = options;
  const nodeId = options.nodeId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 60_000;
  const log = options.log ?? (() => {});
  let stopped = false;
  let running: Promise<number> | null = null;

  async function sendOne(): Promise<boolean> {
    const message = await claimNext(database, nodeId, leaseMs);
    if (!message) return false;
    try {
      const delivery = await transport.deliver({
        id: message.id,
        from,
        to: message.recipient,
        subject: message.subject,
        html: message.html,
        text: message.text,
        fromName: message.senderName === null ? null : fromNameOf(message.senderName),
        replyTo: message.replyTo,
      });
      await database.db
        .update(o)
        .set({
          status: delivery.status,
          sentAt: sqlNow(),
          providerMessageId: delivery.providerMessageId,
          lockedBy: null,
          lockedUntil: null,
          lastError: null,
          ...redactSecretLink,
        })
        .where(held(message.id, nodeId, message.attempts));
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const giveUp = message.attempts >= maxMailAttempts;
      await database.db
        .update(o)
        .set({
          status: giveUp ? 'failed' : 'queued',
          lockedBy: null,
          lockedUntil: null,
          lastError: reason,
          ...(giveUp ? redactSecretLink : {}),
          nextAttemptAt: sqlNow(mailBackoffMs(message.attempts)),
        })
        .where(held(message.id, nodeId, message.attempts));
      log(`mail ${message.id} to ${message.recipient}: attempt ${message.attempts} failed (${reason})${giveUp ? '; given up' : ''}`);
    }
    return true;
  }

  /** Sends what is due until nothing is; the poll loop stops between messages once stopped. */
  async function drain(untilStopped: boolean): Promise<number> {
    let sent = 0;
    while (!(untilStopped && stopped) && (await sendOne())) sent += 1;
    return sent;
  }

  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    if (stopped) return;
    running = drain(true).catch((error: unknown) => {
      log(`mail worker: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
    void running.finally(() => {
      running = null;
      if (!stopped) timer = setTimeout(tick, pollMs);
    });
  };
  timer = setTimeout(tick, 0);

  return {
    nodeId,
    drain: () => drain(false),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
