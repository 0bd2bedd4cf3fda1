// The Content-Disposition header of every download (RFC 6266, with RFC 8187's filename* for names beyond ASCII).
//
// 'report.csv'          → attachment; filename="report.csv"
// 'Relevé d’août.csv'   → attachment; filename="Releve d'aout.csv"; filename*=UTF-8''Relev%C3%A9%20d%E2%80%99ao%C3%BBt.csv
// 'say "hi".csv'        → attachment; filename="say 'hi'.csv"; filename*=UTF-8''say%20%22hi%22.csv
//
// The quoted filename is a plain-ASCII stand-in for clients that ignore filename* (accents dropped, typographic
// quotes made straight, anything else '_'); it never holds a quote or backslash, whose escaping clients disagree on.
// filename* carries the exact name whenever the stand-in differs. Control characters are dropped and path
// separators become '_' in both: a file name is never a path.
export type DispositionType = 'attachment' | 'inline';

const asciiLookalikes: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': "'",
  '\u201D': "'",
  '\u201E': "'",
  '\u201F': "'",
  '\u2033': "'",
  '"': "'",
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u2026': '...',
};

/** The name as it will be offered: no control characters, no path separators, never empty. */
export function cleanFileName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not reach a header's file name
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[/\\]/g, '_')
    .trim();
  return cleaned === '' ? 'download' : cleaned;
}

/** The ASCII stand-in: 'é' → 'e', '’' → "'", other characters outside printable ASCII → '_'. */
export function asciiFileName(name: string): string {
  return [...cleanFileName(name).normalize('NFKD')]
    .filter((character) => !/\p{M}/u.test(character))
    .map((character) => asciiLookalikes[character] ?? (/^[\x20-\x7e]$/.test(character) ? character : '_'))
    .join('');
}

/** RFC 8187 value characters: percent-encode everything but attr-char. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/[*'()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(fileName: string, type: DispositionType = 'attachment'): string {
  const exact = cleanFileName(fileName);
  const fallback = asciiFileName(exact);
  const header = `${type}; filename="${fallback}"`;
  return fallback === exact ? header : `${header}; filename*=UTF-8''${encodeExtValue(exact)}`;
}
