// Demo mail in the outbox: the welcome message each demo account got when its access was set up, delivered locally
// (the embedded default has no SMTP server), so a Technical admin finds real messages at /outbox on first start.
import { composeEmail, portalLink } from '../mail/compose.ts';
import type { Db } from '../db/client.ts';
import { outboundEmails } from '../db/schema.ts';
import { demoAccounts } from './seed-world.ts';

export async function seedOutbox(tx: Db, options: { now: Date; publicUrl: string }): Promise<number> {
  const rows = demoAccounts.map((account, index) => {
    const mail = composeEmail({
      template: 'welcome',
      subject: 'Welcome to the Payments portal',
      heading: 'Your access is ready',
      paragraphs: ['Hello,', `An account has been set up for ${account.email}. Sign in to see the businesses and merchants you work on.`],
      action: { label: 'Sign in', url: portalLink(options.publicUrl, '/dashboard') },
      footer: 'You received this email because an administrator gave this address access to the portal.',
    });
    const at = new Date(options.now.getTime() - (demoAccounts.length - index) * 3_600_000);
    return {
      id: `EMDEMO${String(index + 1).padStart(4, '0')}`,
      recipient: account.email,
      subject: mail.subject,
      template: mail.template,
      html: mail.html,
      text: mail.text,
      status: 'deliveredLocally' as const,
      attempts: 1,
      nextAttemptAt: at,
      sentAt: at,
      createdAt: at,
      providerMessageId: `<EMDEMO${String(index + 1).padStart(4, '0')}@portal.invalid>`,
    };
  });
  await tx.insert(outboundEmails).values(rows);
  return rows.length;
}
