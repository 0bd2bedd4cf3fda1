// A real SMTP server for the mail tests (smtp-server, the SMTP side of nodemailer's project): it accepts plain SMTP
// on 127.0.0.1 and keeps every message it receives, raw, so a test reads what arrived exactly as a client would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

export type SmtpTestServer = {
  url: string;
  received: ReceivedMail[];
  /** refuse the next n recipients with a temporary failure (451) */
  refuseNext: (count: number) => void;
  close: () => Promise<void>;
};

/** `onMessage` sees each message as it is accepted (the browser journeys' runner writes them where specs read them). */
export async function startSmtpTestServer(options: { onMessage?: (mail: ReceivedMail) => void } = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        const error = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        options.onMessage?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
