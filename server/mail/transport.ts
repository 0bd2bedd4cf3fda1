// Where mail goes. With SMTP_URL, through that server (nodemailer); without it (the embedded default), nowhere: the
// message stays in the outbox as delivered locally, the log says who it was for and its first link, and Technical
// admins read it at /outbox.
import nodemailer from 'nodemailer';

export type OutgoingMessage = {
  id: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** a merchant's message: the From keeps the portal's address under this name ('Harbour & Finch via Payments portal') */
  fromName?: string | null;
  replyTo?: string | null;
};

/** The address inside a From header ('Payments portal <no-reply@host>' → 'no-reply@host'). */
export const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
export type Delivery = { status: 'sent' | 'deliveredLocally'; providerMessageId: string };

export type MailTransport = {
  kind: 'smtp' | 'local';
  describe: string;
  deliver: (message: OutgoingMessage) => Promise<Delivery>;
  close: () => void;
};

/** The first absolute link of a plain-text body: what the log line shows for a message delivered locally. */
export function firstLink(text: string): string | null {
  return /https?:\/\/[^\s<>"')]+/.exec(text)?.[0] ?? null;
}

/** A Message-ID from the outbox row: a message sent twice (a node died between send and record) is recognisably one. */
export const messageIdOf = (id: string, from: string) => `<${id}@${/@([^>\s]+)>?$/.exec(from)?.[1] ?? 'portal.invalid'}>`;

export function openMailTransport(options: { smtpUrl: string | undefined; log: (line: string) => void }): MailTransport {
  const { smtpUrl, log } = options;
  if (!smtpUrl) {
    return {
      kind: 'local',
      describe: 'the outbox only (no SMTP_URL: messages are delivered locally and shown at /outbox)',
      deliver: async (message) => {
        const link = firstLink(message.text);
        log(`mail delivered locally to ${message.to}: “${message.subject}”${link ? ` ${link}` : ''}`);
        return { status: 'deliveredLocally', providerMessageId: messageIdOf(message.id, message.from) };
      },
      close: () => {},
    };
  }
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    // never the password
    describe: `SMTP ${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}`,
    deliver: async (message) => {
      const info = await transporter.sendMail({
        from: message.fromName ? { name: message.fromName, address: addressOf(message.from) } : message.from,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        messageId: messageIdOf(message.id, message.from),
      });
      return { status: 'sent', providerMessageId: String(info.messageId ?? messageIdOf(message.id, message.from)) };
    },
    close: () => transporter.close(),
  };
}
