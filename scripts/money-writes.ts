// The lint's rule for money (docs/architecture.md, "Money moves through one door"): only server/payments/, server/ledger/,
// server/stats/ and the seed (server/seed/) write a money table. A textual rule, run by scripts/lint-imports.ts
// over every other server file:
// - a drizzle write on a money table's schema export (`.insert(transactions)`, `.update(schema.paymentJobs)`,
//   `.delete(ledgerEntries)`), also through a local alias (`const t = transactions`, `import { transactions as t }`);
// - raw SQL writing one (`INSERT INTO transactions`, `UPDATE payment_jobs`, `DELETE FROM "ledger_entries"`, or
//   `UPDATE ${t}` with such an export or alias). SQL keywords are matched in capitals, as this code base writes them.
// Reads (`.from(transactions)`, SELECT, FOR UPDATE, VACUUM) are not writes.

/** The money tables, by their SQL names (server/db/schema.ts). */
export const moneyTables = [
  'transactions',
  'payment_jobs',
  'payment_refunds',
  'payment_steps',
  'ledger_postings',
  'ledger_entries',
  'ledger_daily_balances',
  'ledger_transfers',
  'settlement_batches',
] as const;

/** Whether a file (a path relative to the repository) may write money tables. */
export function mayWriteMoney(file: string): boolean {
  return /^server\/(payments|ledger|stats)\//.test(file) || /^server\/seed\/[^/]*\.ts$/.test(file);
}

/** The schema's exports of money tables (export name → SQL name), read from the text of server/db/schema.ts. */
export function moneyTableExports(schemaText: string): Map<string, string> {
  const exports = new Map<string, string>();
  for (const match of schemaText.matchAll(/export const (\w+) = pgTable\(\s*'([a-z_0-9]+)'/g)) {
    const [, name, table] = match;
    if (name && table && (moneyTables as readonly string[]).includes(table)) exports.set(name, table);
  }
  return exports;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every write to a money table in `text` (the file `file`), as lint problems; none for a file that may write them. */
export function moneyWriteProblems(file: string, text: string, exports: ReadonlyMap<string, string>): string[] {
  if (mayWriteMoney(file) || exports.size === 0) return [];
  // Names that stand for a money table in this file: the exports, and aliases made of them.
  const names = new Map(exports);
  const exportAlternatives = [...exports.keys()].map(escapeRegExp).join('|');
  for (const match of text.matchAll(new RegExp(`\\b(${exportAlternatives})\\s+as\\s+(\\w+)`, 'g'))) {
    if (match[1] && match[2]) names.set(match[2], exports.get(match[1]) ?? match[1]);
  }
  for (const match of text.matchAll(new RegExp(`\\b(?:const|let|var)\\s+(\\w+)\\s*=\\s*(?:\\w+\\.)?(${exportAlternatives})\\s*;`, 'g'))) {
    if (match[1] && match[2]) names.set(match[1], exports.get(match[2]) ?? match[2]);
  }
  const nameAlternatives = [...names.keys()].map(escapeRegExp).join('|');
  const tableAlternatives = moneyTables.map(escapeRegExp).join('|');
  const drizzleWrite = new RegExp(`\\.(insert|update|delete)\\(\\s*(?:\\w+\\.)?(${nameAlternatives})\\s*[),]`, 'g');
  const sqlWrite = new RegExp(
    `\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(?:"?(${tableAlternatives})"?(?![\\w$])|\\$\\{\\s*(?:\\w+\\.)?(${nameAlternatives})\\s*\\})`,
    'g',
  );
  const problems: string[] = [];
  const report = (index: number, table: string | undefined, found: string) =>
    problems.push(
      `${file}:${lineOf(text, index)}: writes the money table ${table ?? '?'} (${found.replace(/\s+/g, ' ').trim()}); only server/payments/, server/ledger/, server/stats/ and the seed may`,
    );
  for (const match of text.matchAll(drizzleWrite)) report(match.index, names.get(match[2] ?? ''), match[0]);
  for (const match of text.matchAll(sqlWrite)) report(match.index, match[2] ?? names.get(match[3] ?? ''), match[0]);
  return problems;
}
