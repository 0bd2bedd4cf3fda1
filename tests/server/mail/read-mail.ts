// Reads a message as it arrived at the SMTP server, the way a mail client would: unfolded headers (RFC 5322) with
// encoded words decoded (RFC 2047), and the plain-text part of a multipart body decoded from its transfer encoding
// (quoted-printable, base64, 7bit/8bit). No dependencies: the browser journeys import it too.

function split(raw: string): { headers: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: raw, body: '' };
  const gap = /\r?\n\r?\n/.exec(raw.slice(at))?.[0].length ?? 2;
  return { headers: raw.slice(0, at), body: raw.slice(at + gap) };
}

function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      return decodeQuotedPrintable(text.replace(/_/g, ' '));
    });
}

/** The header's value (first occurrence, case-insensitive name), unfolded and decoded; undefined when absent. */
export function headerOf(rawOrHeaders: string, name: string): string | undefined {
  const unfolded = split(rawOrHeaders).headers.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? undefined : decodeWords(line.slice(name.length + 1).trim());
}

export function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, '');
  for (let index = 0; index < input.length; index += 1) {
    const char = input[index] ?? '';
    const hex = input.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: string, body: string): string {
  const encoding = (headerOf(headers, 'Content-Transfer-Encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The first part of the given type (text/plain by default), searched through nested multiparts; undefined if none. */
export function partOf(raw: string, type = 'text/plain'): string | undefined {
  const { headers, body } = split(raw);
  const contentType = headerOf(headers, 'Content-Type') ?? 'text/plain';
  if (contentType.toLowerCase().startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return undefined;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const found = partOf(part.replace(/^\r?\n/, '').replace(/\r?\n$/, ''), type);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return contentType.toLowerCase().startsWith(type) ? decodeBody(headers, body) : undefined;
}

/** The decoded plain-text body of a message ('' if it has none). */
export const plainTextOf = (raw: string): string => partOf(raw, 'text/plain') ?? '';

/** The first absolute link in `text` whose path is `path`, as a URL; undefined when there is none. */
export function linkTo(text: string, path: string): URL | undefined {
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')]+/g)) {
    const url = new URL(match[0]);
    if (url.pathname === path) return url;
  }
  return undefined;
}
