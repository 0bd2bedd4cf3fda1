// An RFC 4180 reader for the tests: what the CSV writer writes must read back as it was, and a download cut off
// inside a record must fail loudly rather than read as fewer rows.

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks); throws on a torn last record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else field += char;
  }
  if (quoted || field !== '' || record.length > 0) throw new Error('the CSV ends inside a record: the file is torn');
  return records;
}
