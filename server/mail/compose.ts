// One look for every email the portal sends: a heading, paragraphs, an optional call to action and a footer, as
// HTML (escaped, inline styles only: mail clients drop <style>) and as plain text. Areas build their messages from
// these parts; nothing user-supplied is ever inserted as HTML.
export const portalName = 'Payments portal';

export type EmailContent = {
  /** what the template is, for the outbox and the logs: 'paymentLink', 'userInvitation', 'passwordReset'… */
  template: string;
  subject: string;
  heading: string;
  /** plain text; line breaks inside a paragraph are kept */
  paragraphs: readonly string[];
  /**
   * the one link the message is about, absolute (built with portalLink); `secret` when the link itself grants
   * something (a reset, an invitation, an email change): the outbox keeps it only until the message is sent
   */
  action?: { label: string; url: string; secret?: boolean };
  /** small print under the message (why the recipient got it) */
  footer?: string;
  /**
   * the merchant a shopper's message is from: its trade name heads the message and is the From name, its support
   * address is the Reply-To. Without it the message is the portal's own (users, staff).
   */
  sender?: MerchantSender;
};

export type MerchantSender = { name: string; replyTo: string | null };

export type ComposedEmail = {
  template: string;
  subject: string;
  html: string;
  text: string;
  firstLink: string | null;
  /** the From name and Reply-To of a merchant's message; null for the portal's own */
  senderName: string | null;
  replyTo: string | null;
};

/** The From name of a merchant's message: who it is from, and who sent it for them. */
export const fromNameOf = (senderName: string) => `${senderName} via ${portalName}`;

export const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** An absolute link into the portal (or its public pages) from PUBLIC_URL and a path. */
export function portalLink(publicUrl: string, path: string, query?: Readonly<Record<string, string>>): string {
  const url = new URL(path, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

export function composeEmail(content: EmailContent): ComposedEmail {
  if (content.action && !/^https?:\/\//.test(content.action.url)) throw new Error(`email links must be absolute http(s) URLs: ${content.action.url}`);
  const paragraphsHtml = content.paragraphs
    .map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const actionHtml = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1f4fd1;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br>${escapeHtml(content.action.url)}</p>`
    : '';
  const footer = [content.footer, content.sender ? senderFooter(content.sender) : undefined].filter((part) => part !== undefined).join(' ');
  const footerHtml = footer ? `<p style="margin:24px 0 0;font-size:12px;color:#666">${escapeHtml(footer)}</p>` : '';
  const html = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1b1f24">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(content.sender?.name ?? portalName)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(content.heading)}</h1>
${paragraphsHtml}
${actionHtml}
${footerHtml}
</div>
</body></html>`;
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(footer ? [footer, ''] : []),
    `— ${content.sender?.name ?? portalName}`,
  ].join('\n');
  return {
    template: content.template,
    subject: content.subject,
    html,
    text,
    firstLink: content.action?.url ?? null,
    senderName: content.sender?.name ?? null,
    replyTo: content.sender?.replyTo ?? null,
  };
}

function senderFooter(sender: MerchantSender): string {
  const contact = sender.replyTo
    ? `Reply to this email to reach ${sender.name} (${sender.replyTo}).`
    : `Replies to this address are not read; contact ${sender.name} directly.`;
  return `Sent for ${sender.name} by ${portalName}. ${contact}`;
}
