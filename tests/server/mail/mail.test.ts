// The mail service end to end: messages queued in the sender's transaction, sent by the worker through a real SMTP
// server (smtp-server, started here), retried with back-off, taken over when a node died mid-send, delivered locally
// without SMTP_URL; on PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { outboundEmails } from '../../../server/db/schema.ts';
import { composeEmail, portalLink } from '../../../server/mail/compose.ts';
import { queueEmail } from '../../../server/mail/outbox.ts';
import { firstLink, openMailTransport } from '../../../server/mail/transport.ts';
import { mailBackoffMs, maxMailAttempts, startMailWorker } from '../../../server/mail/worker.ts';
import { createTestDatabase, databaseKinds } from '../support.ts';
import { headerOf, plainTextOf } from './read-mail.ts';
import { startSmtpTestServer, type SmtpTestServer } from './smtp-test-server.ts';

const from = 'Payments portal <no-reply@portal.test>';
const content = (name: string) => ({
  template: 'test',
  subject: `Your payment link ${name}`,
  heading: 'Pay for order 1042',
  paragraphs: ['Hello <b>Jo</b> & co,', 'Line one\nline two'],
  action: { label: 'Pay now', url: portalLink('https://portal.test', `/pay/PJ${name}`) },
});

describe('composeEmail', () => {
  it('escapes every supplied text in the HTML and keeps it verbatim in the plain text', () => {
    const mail = composeEmail(content('X1'));
    expect(mail.html).toContain('Hello &lt;b&gt;Jo&lt;/b&gt; &amp; co,');
    expect(mail.html).not.toContain('<b>Jo</b>');
    expect(mail.html).toContain('Line one<br>line two');
    expect(mail.html).toContain('href="https://portal.test/pay/PJX1"');
    expect(mail.text).toContain('Hello <b>Jo</b> & co,');
    expect(mail.text).toContain('Pay now: https://portal.test/pay/PJX1');
    expect(firstLink(mail.text)).toBe('https://portal.test/pay/PJX1');
  });

  it('refuses a relative or script link', () => {
    expect(() => composeEmail({ ...content('X2'), action: { label: 'x', url: 'javascript:alert(1)' } })).toThrow(/absolute/);
    expect(() => composeEmail({ ...content('X2'), action: { label: 'x', url: '/pay/1' } })).toThrow(/absolute/);
  });

  it('builds links from PUBLIC_URL with or without a path and escapes the query', () => {
    expect(portalLink('http://localhost:3000', '/user-invite', { InviteId: 'a b&c' })).toBe('http://localhost:3000/user-invite?InviteId=a+b%26c');
    expect(portalLink('https://example.com/portal', 'pay/1')).toBe('https://example.com/portal/pay/1');
  });

  it('backs off 30 s, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 20].map(mailBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000]);
  });
});

for (const kind of databaseKinds) {
  describe(`the outbox and its worker on ${kind}`, () => {
    let database: Database;
    let smtp: SmtpTestServer;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      smtp = await startSmtpTestServer();
    });
    afterAll(async () => {
      await smtp?.close();
      await database?.close();
    });

    const rowOf = async (id: string) => (await database.db.select().from(outboundEmails).where(eq(outboundEmails.id, id)))[0];

    it('queues nothing when the sender’s transaction rolls back, and one row when it commits', async () => {
      await expect(
        database.db.transaction(async (tx) => {
          await queueEmail(tx, 'jo@example.com', content('R1'));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await database.db.select().from(outboundEmails).where(eq(outboundEmails.subject, 'Your payment link R1'))).toHaveLength(0);
      const { id } = await database.db.transaction((tx) => queueEmail(tx, 'jo@example.com', content('C1')));
      expect((await rowOf(id))?.status).toBe('queued');
      await expect(queueEmail(database.db, 'not an address', content('C2'))).rejects.toThrow(/not an email address/);
    });

    it('sends through SMTP: the server receives the message with both bodies and the link; the row says sent', async () => {
      const transport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      const worker = startMailWorker({ database, transport, from, pollMs: 60_000 });
      await worker.stop();
      const { id } = await queueEmail(database.db, 'shopper@example.com', content('S1'));
      const before = smtp.received.length;
      await worker.drain();
      const arrived = smtp.received.slice(before).filter((mail) => mail.raw.includes('Your payment link S1'));
      expect(arrived).toHaveLength(1);
      expect(arrived[0]?.to).toEqual(['shopper@example.com']);
      expect(arrived[0]?.from).toBe('no-reply@portal.test');
      expect(arrived[0]?.raw).toMatch(/Content-Type: text\/plain/);
      expect(arrived[0]?.raw).toMatch(/Content-Type: text\/html/);
      expect(arrived[0]?.raw).toContain('https://portal.test/pay/PJS1');
      expect(arrived[0]?.raw).toContain(`Message-ID: <${id}@portal.test>`);
      const row = await rowOf(id);
      expect(row).toMatchObject({ status: 'sent', attempts: 1, lockedBy: null, providerMessageId: `<${id}@portal.test>` });
      expect(row?.sentAt).toBeInstanceOf(Date);
      transport.close();
    });

    it("sends a merchant's message under the merchant's name, from the portal's address, with its support address to reply to", async () => {
      const transport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      const worker = startMailWorker({ database, transport, from, pollMs: 60_000 });
      await worker.stop();
      await queueEmail(database.db, 'shopper@example.com', { ...content('MERCHANT-A'), sender: { name: 'Harbour & Finch', replyTo: 'help@harbour.example' } });
      await queueEmail(database.db, 'shopper@example.com', { ...content('MERCHANT-B'), sender: { name: 'Little Wren', replyTo: null } });
      const before = smtp.received.length;
      await worker.drain();
      const arrived = smtp.received.slice(before);
      const first = arrived.find((mail) => mail.raw.includes('Your payment link MERCHANT-A'));
      expect(first?.from).toBe('no-reply@portal.test');
      expect(headerOf(first?.raw ?? '', 'From')).toMatch(/^"?Harbour & Finch via Payments portal"? <no-reply@portal\.test>$/);
      expect(headerOf(first?.raw ?? '', 'Reply-To')).toBe('help@harbour.example');
      expect(plainTextOf(first?.raw ?? '')).toContain('Reply to this email to reach Harbour & Finch (help@harbour.example).');
      const second = arrived.find((mail) => mail.raw.includes('Your payment link MERCHANT-B'));
      expect(headerOf(second?.raw ?? '', 'Reply-To')).toBeUndefined();
      expect(plainTextOf(second?.raw ?? '')).toContain('Replies to this address are not read; contact Little Wren directly.');
      transport.close();
    });

    it('retries a refused message after its back-off and sends it once the server accepts', async () => {
      const transport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      const worker = startMailWorker({ database, transport, from, pollMs: 60_000 });
      await worker.stop();
      const { id } = await queueEmail(database.db, 'later@example.com', content('F1'));
      smtp.refuseNext(1);
      await worker.drain();
      const row = await rowOf(id);
      expect(row).toMatchObject({ status: 'queued', attempts: 1 });
      expect(row?.lastError).toMatch(/451|temporarily/);
      expect((row?.nextAttemptAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(20_000);
      // Not due yet: nothing is sent.
      expect(smtp.received.some((mail) => mail.raw.includes('Your payment link F1'))).toBe(false);
      await database.db
        .update(outboundEmails)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(outboundEmails.id, id));
      await worker.drain();
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
      expect(smtp.received.filter((mail) => mail.raw.includes('Your payment link F1'))).toHaveLength(1);
      transport.close();
    });

    it(`gives up after ${maxMailAttempts} attempts and says why`, async () => {
      const failing = {
        kind: 'smtp' as const,
        describe: 'refuses',
        close: () => {},
        deliver: async () => {
          throw new Error('connection refused');
        },
      };
      const worker = startMailWorker({ database, transport: failing, from, pollMs: 60_000 });
      await worker.stop();
      const { id } = await queueEmail(database.db, 'never@example.com', content('G1'));
      for (let attempt = 1; attempt <= maxMailAttempts; attempt += 1) {
        await database.db
          .update(outboundEmails)
          .set({ nextAttemptAt: new Date(Date.now() - 1000) })
          .where(eq(outboundEmails.id, id));
        await worker.drain();
      }
      expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: maxMailAttempts, lastError: 'connection refused' });
    });

    it('sends a message whose node died mid-send (lease lapsed) from another node, and not one still leased', async () => {
      const transport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      const { id } = await queueEmail(database.db, 'crash@example.com', content('K1'));
      // The dead node had claimed it: sending, leased to it for another minute.
      await database.db
        .update(outboundEmails)
        .set({ status: 'sending', attempts: 1, lockedBy: 'dead-node', lockedUntil: new Date(Date.now() + 60_000) })
        .where(eq(outboundEmails.id, id));
      const other = startMailWorker({ database, transport, from, pollMs: 60_000, nodeId: 'other-node' });
      await other.stop();
      await other.drain();
      expect((await rowOf(id))?.status).toBe('sending');
      await database.db
        .update(outboundEmails)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(eq(outboundEmails.id, id));
      await other.drain();
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
      expect(smtp.received.filter((mail) => mail.raw.includes('Your payment link K1'))).toHaveLength(1);
      transport.close();
    });

    it('two workers at once send each message exactly once', async () => {
      const transport = openMailTransport({ smtpUrl: smtp.url, log: () => {} });
      const ids = await Promise.all(Array.from({ length: 12 }, (_, index) => queueEmail(database.db, `many${index}@example.com`, content(`M${index}`))));
      const a = startMailWorker({ database, transport, from, pollMs: 60_000, nodeId: 'a' });
      const b = startMailWorker({ database, transport, from, pollMs: 60_000, nodeId: 'b' });
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([a.drain(), b.drain()]);
      for (const { id } of ids) expect((await rowOf(id))?.status).toBe('sent');
      for (let index = 0; index < 12; index += 1) {
        expect(
          smtp.received.filter((mail) => mail.raw.includes(`Your payment link M${index}\r`) || mail.raw.includes(`Your payment link M${index}\n`)),
        ).toHaveLength(1);
      }
      transport.close();
    });

    it('without SMTP_URL delivers locally: the row says so and the log names the recipient, subject and first link', async () => {
      const lines: string[] = [];
      const transport = openMailTransport({ smtpUrl: undefined, log: (line) => lines.push(line) });
      const worker = startMailWorker({ database, transport, from, pollMs: 60_000 });
      await worker.stop();
      const { id } = await queueEmail(database.db, 'local@example.com', content('L1'));
      await worker.drain();
      expect(await rowOf(id)).toMatchObject({ status: 'deliveredLocally', attempts: 1 });
      expect(lines).toContain('mail delivered locally to local@example.com: “Your payment link L1” https://portal.test/pay/PJL1');
    });
  });
}
