// The lint's money rule (scripts/money-writes.ts, run by scripts/lint-imports.ts): a write to a money table is
// refused outside server/payments/, server/ledger/, server/stats/ and the seed, whether drizzle's or raw SQL's, also
// through an alias; reads are not writes. And the tree as it is has none.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayWriteMoney, moneyTableExports, moneyWriteProblems } from '../../scripts/money-writes.ts';

const root = resolve(import.meta.dirname, '../..');
const exports = moneyTableExports(readFileSync(join(root, 'server/db/schema.ts'), 'utf8'));

describe('the money-write lint rule', () => {
  it('knows the money tables by their schema exports', () => {
    expect(Object.fromEntries(exports)).toMatchObject({
      transactions: 'transactions',
      paymentJobs: 'payment_jobs',
      paymentSteps: 'payment_steps',
      paymentRefunds: 'payment_refunds',
      ledgerPostings: 'ledger_postings',
      ledgerEntries: 'ledger_entries',
    });
    expect(exports.has('auditEvents')).toBe(false);
  });

  it('refuses drizzle writes and raw SQL writes in an endpoint, naming the file, line and table', () => {
    const fixture = [
      "import { auditEvents, paymentJobs, transactions as t } from '../db/schema.ts';",
      'await tx.insert(paymentJobs).values({ reference });',
      'await tx.update(schema.transactions).set({ status });',
      'await tx.delete(t).where(eq(t.reference, reference));',
      "await database.query('INSERT INTO payment_steps (payment_id) VALUES ($1)', [id]);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text for the lint to read, not a template
      'await tx.execute(sql`UPDATE ${t} SET status = ${status}`);',
      'await db.execute(sql`DELETE FROM "ledger_entries" WHERE id = 1`);',
    ].join('\n');
    const problems = moneyWriteProblems('server/api/gateway.ts', fixture, exports);
    expect(problems).toHaveLength(6);
    expect(problems[0]).toMatch(/^server\/api\/gateway\.ts:2: writes the money table payment_jobs/);
    expect(problems.map((problem) => /money table (\w+)/.exec(problem)?.[1])).toEqual([
      'payment_jobs',
      'transactions',
      'transactions',
      'payment_steps',
      'transactions',
      'ledger_entries',
    ]);
  });

  it('lets reads, other tables and the allowed places be', () => {
    const reads = [
      "await tx.select().from(transactions).where(eq(transactions.reference, reference)).for('update');",
      'await tx.insert(auditEvents).values({ event });',
      "await database.query('SELECT * FROM transactions FOR UPDATE SKIP LOCKED');",
      "await database.query('VACUUM (ANALYZE) transactions');",
      'await tx.insert(x).values(v).onConflictDoUpdate({ target, set }); // ON CONFLICT DO UPDATE SET',
    ].join('\n');
    expect(moneyWriteProblems('server/api/transactions.ts', reads, exports)).toEqual([]);
    const write = 'await tx.insert(transactions).values(rows);';
    for (const file of ['server/payments/x.ts', 'server/ledger/x.ts', 'server/stats/x.ts', 'server/seed/seed.ts', 'server/seed/seed-bulk.ts']) {
      expect(mayWriteMoney(file), file).toBe(true);
      expect(moneyWriteProblems(file, write, exports)).toEqual([]);
    }
    for (const file of ['server/api/x.ts', 'server/db/schema.ts', 'server/seed/seeds/x.ts', 'server/paymentsx/x.ts'])
      expect(mayWriteMoney(file), file).toBe(false);
  });

  it('finds no money write outside the allowed places in the server as it is', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === 'migrations' ? [] : files(path);
        return /\.tsx?$/.test(name) ? [path] : [];
      });
    const problems = files(join(root, 'server')).flatMap((path) => moneyWriteProblems(relative(root, path), readFileSync(path, 'utf8'), exports));
    expect(problems).toEqual([]);
  });
});
