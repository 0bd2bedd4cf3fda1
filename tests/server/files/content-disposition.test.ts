import { describe, expect, it } from 'vitest';
import { asciiFileName, contentDisposition } from '../../../server/files/content-disposition.ts';

describe('Content-Disposition (RFC 6266, RFC 8187)', () => {
  it.each([
    ['transactions-2026-11-20-RPT1A.csv', 'attachment; filename="transactions-2026-11-20-RPT1A.csv"'],
    ['a;b, c.csv', 'attachment; filename="a;b, c.csv"'],
    ['Relevé d’août.csv', `attachment; filename="Releve d'aout.csv"; filename*=UTF-8''Relev%C3%A9%20d%E2%80%99ao%C3%BBt.csv`],
    ['say "hi".csv', `attachment; filename="say 'hi'.csv"; filename*=UTF-8''say%20%22hi%22.csv`],
    ['back\\slash.csv', 'attachment; filename="back_slash.csv"'],
    ['../../etc/passwd', 'attachment; filename=".._.._etc_passwd"'],
    ['line\r\nbreak\u0000.csv', 'attachment; filename="linebreak.csv"'],
    ['東京 (1)*.pdf', `attachment; filename="__ (1)*.pdf"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC%20%281%29%2A.pdf`],
    ['\u0007', 'attachment; filename="download"'],
  ])('%j → %s', (name, header) => {
    expect(contentDisposition(name)).toBe(header);
  });

  it('says inline when asked', () => {
    expect(contentDisposition('logo.png', 'inline')).toBe('inline; filename="logo.png"');
  });

  it('never puts a quote, backslash, control or non-ASCII character in the quoted name', () => {
    for (const name of ['“curly”', 'tab\there', 'ÆØÅ', 'emoji 📄.csv', 'a"b\\c']) {
      expect(asciiFileName(name)).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
    }
  });

  it('keeps the exact name readable from filename*', () => {
    for (const name of ['Relevé d’août.csv', 'say "hi"; now.csv', '東京 (1)*.pdf', "naïve it's 100%.csv"]) {
      const encoded = /filename\*=UTF-8''(.+)$/.exec(contentDisposition(name))?.[1] ?? '';
      expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
      expect(decodeURIComponent(encoded)).toBe(name);
    }
  });
});
