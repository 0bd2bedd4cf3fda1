// No full card number leaves the portal except through the audited reveal. A seeded world (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set) after the start's steps: no table holds a seeded test card's digits in clear (the
// card_number column is empty); then the transaction endpoints (list, count, detail, masked number, search, an
// export written by the report worker) are exercised and no answer body, log line or export file holds them.
// Only the reveal does, and it is recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactionColumns } from '../../../src/contract/transactions.ts';
import { sealLegacyCardNumbers } from '../../../server/cards/seal-legacy.ts';
import type { Database } from '../../../server/db/client.ts';
import { seedDatabase } from '../../../server/seed/seed.ts';
import { seedTestCards } from '../../../server/seed/seed-bulk.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { createTestApp, createTestDatabase, databaseKinds, grantStepUp, testCardKeys } from '../support.ts';
import type { FileStore } from '../../../server/files/file-store.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';

/** Every place a seeded card's full number was found in `text`. */
const fullNumbersIn = (text: string) => seedTestCards.filter((cardNumber) => text.includes(cardNumber));

describe.each(databaseKinds)('full card numbers on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  let admin: string;
  let filesDir: string;
  let files: FileStore;
  const logged: string[] = [];
  const bodies: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    filesDir = mkdtempSync(join(tmpdir(), 'card-leak-'));
    // What server/main.ts does at start: seed an empty database, then seal any clear numbers left from before.
    await seedDatabase(database, { transactions: 3000, cardKeys: testCardKeys, log: (line) => logged.push(line) });
    await sealLegacyCardNumbers(database, testCardKeys, { log: (line) => logged.push(line) });
    files = createFolderStore(filesDir);
    ({ call } = createTestApp(database, { files }));
    const [row] = await database.query<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@demo.test'`);
    admin = row?.id ?? '';
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('stores no card number in clear: the card_number column is empty and no row of any table holds one', async () => {
    expect(await database.query(`SELECT reference FROM transactions WHERE card_number IS NOT NULL`)).toEqual([]);
    const tables = (
      await database.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
    ).map((row) => row.name);
    expect(tables).toContain('card_vault');
    const pattern = seedTestCards.join('|');
    for (const table of tables) {
      const [found] = await database.query<{ n: number | string }>(`SELECT count(*) AS n FROM "${table}" t WHERE t::text ~ $1`, [pattern]);
      expect(Number(found?.n), table).toBe(0);
    }
    // The vault is where they are, sealed: each seeded card at each merchant.
    const [vault] = await database.query<{ n: number | string }>(`SELECT count(*) AS n FROM card_vault`);
    expect(Number(vault?.n)).toBeGreaterThan(0);
  });

  it('sends none in any answer, log line or export file; only the audited reveal', async () => {
    const console_ = [
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
        vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
      ),
      // The server's structured log (server/log.ts) writes through process.stdout.
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        logged.push(String(chunk));
        return true;
      }),
    ];
    const send = async (path: string, method = 'GET', body?: unknown) => {
      const response = await call(admin, method, path, body, { 'time-zone': 'Europe/London' });
      const text = await response.text();
      bodies.push(text);
      expect(response.status, `${method} ${path}: ${text.slice(0, 200)}`).toBeLessThan(300);
      return JSON.parse(text) as unknown;
    };
    try {
      const cardPayments = await database.query<{ reference: string; business_id: string; merchant_id: string }>(
        `SELECT reference, business_id, merchant_id FROM transactions WHERE payment_method = 'card' ORDER BY reference LIMIT 6`,
      );
      const [child] = await database.query<{ reference: string }>(
        `SELECT reference FROM transactions WHERE kind <> 'payment' AND card_token IS NOT NULL LIMIT 1`,
      );
      const sample = [...cardPayments, ...(child ? [{ reference: child.reference, business_id: '', merchant_id: '' }] : [])];
      expect(sample.length).toBe(7);

      await send('/transactions?pagesize=100');
      await send('/transactions?pagesize=100&paymentmethod=[eq]card');
      await send('/transactions/count?paymentmethod=[eq]card');
      for (const { reference, business_id: businessId, merchant_id: merchantId } of sample) {
        const detail = (await send(`/transactions/${reference}`)) as { maskedCardNumber: string | null; cardNumberRevealable: boolean };
        // The detail does carry card data, masked: a leak would have been seen here.
        expect(detail.maskedCardNumber).toMatch(/^\d{6}\*+\d{4}$/);
        expect(detail.cardNumberRevealable).toBe(true);
        await send(`/transactions/${reference}/maskedCardNumber`);
        if (businessId) await send(`/businesses/${businessId}/merchants/${merchantId}/transactions/${reference}`);
        await send(`/search?term=${reference.slice(0, 6)}`);
      }

      // An export of every column, written by the report worker; the queue's answers too.
      const queued = (await send('/transactions/full/reports', 'POST', { fileType: 'csv', columns: [...transactionColumns] })) as { reportId: string };
      expect(await runNextReport({ database, files, nodeId: 'leak-check', log: (line) => logged.push(line) })).toBe('generated');
      await send(`/reports/${queued.reportId}`);
      const [report] = await database.query<{ file_path: string }>(`SELECT file_path FROM queued_reports WHERE id = $1`, [queued.reportId]);
      const stored = await files.get(report?.file_path ?? 'missing');
      const file = stored ? Buffer.concat(await stored.stream.toArray()).toString('utf8') : '';
      expect(file).toMatch(/\d{6}\*+\d{4}/);
      expect(fullNumbersIn(file)).toEqual([]);

      // A failing reveal (unknown reference) and a refused one (no permission) say nothing either.
      const missing = await call(admin, 'GET', '/transactions/TXNOSUCH0001/cardNumber');
      bodies.push(await missing.text());
      expect(missing.status).toBe(404);

      expect(bodies.flatMap(fullNumbersIn)).toEqual([]);
      expect(logged.flatMap(fullNumbersIn)).toEqual([]);

      // The reveal (after the step-up it needs) gives the number of the masked card, and is recorded.
      await grantStepUp(database, admin);
      const reference = sample[0]?.reference ?? '';
      const revealed = await call(admin, 'GET', `/transactions/${reference}/cardNumber`);
      expect(revealed.status).toBe(200);
      const { cardNumber } = (await revealed.json()) as { cardNumber: string };
      expect(seedTestCards).toContain(cardNumber);
      const [masked] = await database.query<{ card_masked: string }>(`SELECT card_masked FROM transactions WHERE reference = $1`, [reference]);
      expect(`${cardNumber.slice(0, 6)}${'*'.repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`).toBe(masked?.card_masked);
      const audited = await database.query(
        `SELECT 1 FROM audit_events WHERE event = 'CardNumberRevealed' AND user_id = $1 AND meta_data ->> 'transactionReference' = $2`,
        [admin, reference],
      );
      expect(audited).toHaveLength(1);
      expect(logged.flatMap(fullNumbersIn)).toEqual([]);
    } finally {
      for (const spy of console_) spy.mockRestore();
    }
  });
});
