// The test mail reader decodes what nodemailer actually produces: a message built by nodemailer's own composer
// (quoted-printable with soft line breaks inside a long link, an encoded-word subject, multipart/alternative) reads
// back as the text and subject that went in.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, headerOf, linkTo, partOf, plainTextOf } from './read-mail.ts';

async function compose(options: { subject: string; text: string; html: string }): Promise<string> {
  const message = new MailComposer({ from: 'Portal <no-reply@portal.test>', to: 'jo@example.com', ...options }).compile();
  return (await message.build()).toString('utf8');
}

describe('reading a message as a mail client does', () => {
  it('decodes a long link split by quoted-printable soft breaks, an “=” in it, and a non-ASCII subject', async () => {
    const link = `https://portal.test/user-invite?InviteId=${'a1-_'.repeat(30)}&x=y`;
    const raw = await compose({
      subject: 'Réinitialiser — your password',
      text: `Hello Zoë,\n\nCreate your account: ${link}\n\n— Payments portal`,
      html: `<p>Hello <a href="${link}">there</a></p>`,
    });
    // The raw message really is encoded: otherwise this test would prove nothing.
    expect(raw).toMatch(/Content-Transfer-Encoding: quoted-printable/);
    expect(raw).toContain('=3D');
    expect(raw).not.toContain(link);
    expect(headerOf(raw, 'Subject')).toBe('Réinitialiser — your password');
    const text = plainTextOf(raw);
    expect(text).toContain('Hello Zoë,');
    expect(text).toContain('— Payments portal');
    expect(linkTo(text, '/user-invite')?.href).toBe(link);
    expect(linkTo(text, '/elsewhere')).toBeUndefined();
    expect(partOf(raw, 'text/html')).toContain(`href="${link}"`);
  });

  it('decodes quoted-printable bytes and soft line breaks', () => {
    expect(decodeQuotedPrintable('caf=C3=A9 =\r\nau lait=3D')).toBe('café au lait=');
  });
});
