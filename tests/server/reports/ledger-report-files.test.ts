// The ledger's report files say what the API says, under names that say what they hold: an open batch's net in the
// batch overview and the batch's own file is the API's net so far, labelled as not yet paid out (a closed batch's
// is what it paid out); statements download under their account and period, in the report's zone.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { settlementBatchList } from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, fixture, insertFixtureWorld } from '../support.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { insertLedgerFixture, m1aGbp } from '../ledger/ledger-fixtures.ts';
import { csvRows, openTestFileStore, reportRow, storedBytes, type Caller, type TestFileStore } from './report-support.ts';

const { users } = fixture;
const base = `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}`;
const openBatchId = `B${m1aGbp}-20261020`;

// A sale on the fixture's "today" (20 October): its batch is still open.
const openSale: NewTransactionRow = {
  reference: 'TXOPEN1',
  kind: 'payment',
  parentReference: null,
  partnerId: 'P1',
  businessId: 'B1',
  merchantId: 'M1a',
  configurationId: 'C-M1a',
  paymentJobReference: 'PJTXOPEN1',
  createdAt: new Date('2026-10-20T09:00:00Z'),
  amountMinor: 32_374,
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
};

describe('ledger report files (PGlite, folder store)', () => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  const generate = async (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await call(users.partner, 'POST', path, body, headers);
    expect(response.status, await response.clone().text()).toBe(202);
    const { reportId } = (await response.json()) as { reportId: string };
    expect(await runNextReport({ database, files: store.files, nodeId: 'node-n', log: () => undefined })).toBe('generated');
    const row = await reportRow(database, reportId);
    expect(row.status).toBe('generated');
    return { reportId, key: row.filePath as string };
  };

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await insertFixtureWorld(database);
    await insertLedgerFixture(database);
    await database.db.transaction(async (tx) => {
      await insertTransactions(tx, [openSale]);
      await postTransactionChanges(tx, [{ before: null, after: toStatsTransaction(openSale) }], { now: new Date('2026-10-20T09:00:00Z') });
    });
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
  });
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  const apiBatches = async () => {
    const response = await call(users.partner, 'GET', `${base}/batches?OrderingField=date&OrderingDirection=Ascending&pagesize=50`);
    expect(response.status).toBe(200);
    return settlementBatchList.assert(await response.json()).results;
  };

  it("the batch overview CSV gives every batch the API's net, an open one labelled as not yet paid out", async () => {
    const batches = await apiBatches();
    const open = batches.find((batch) => batch.batchId === openBatchId);
    expect(open?.status).toBe('Open');
    // Net settlement: the fees come off the net so far.
    expect(open?.netAmount).toBeCloseTo((open?.salesAmount ?? 0) - (open?.feesAmount ?? 0), 2);
    expect(open?.netAmount).toBeGreaterThan(0);

    const rows = await csvRows(store.files, (await generate(`${base}/batches/reports`, { fileType: 'csv' })).key);
    const header = rows[0] ?? [];
    const net = header.indexOf('Net');
    const payout = header.indexOf('Payout');
    expect(net).toBeGreaterThan(0);
    expect(payout).toBeGreaterThan(0);
    const byId = new Map(rows.slice(1).map((row) => [row[0], row]));
    for (const batch of batches) {
      const row = byId.get(batch.batchId);
      expect(row?.[net], batch.batchId).toBe(batch.netAmount.toFixed(2));
      expect(row?.[payout], batch.batchId).toBe(batch.status === 'Open' ? 'Net so far (not yet paid out)' : 'Net paid out');
    }
  });

  it('the batch overview XLSX says the same', async () => {
    const batches = await apiBatches();
    const open = batches.find((batch) => batch.batchId === openBatchId);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await storedBytes(store.files, (await generate(`${base}/batches/reports`, { fileType: 'xlsx' })).key)) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Batches');
    const header = (sheet?.getRow(1).values ?? []) as unknown[];
    const row = [...Array(sheet?.rowCount ?? 0).keys()]
      .map((index) => sheet?.getRow(index + 1))
      .find((candidate) => candidate?.getCell(1).value === openBatchId);
    expect(row?.getCell(header.indexOf('Net')).value).toBe(open?.netAmount);
    expect(row?.getCell(header.indexOf('Payout')).value).toBe('Net so far (not yet paid out)');
  });

  it("an open batch's own file ends with its net so far, as the API states it", async () => {
    const open = (await apiBatches()).find((batch) => batch.batchId === openBatchId);
    const rows = await csvRows(store.files, (await generate(`${base}/batches/${openBatchId}/reports`, { fileType: 'csv' })).key);
    expect(rows.at(-1)).toEqual(['', 'Net so far (not yet paid out)', '', openBatchId, (open?.netAmount ?? 0).toFixed(2), '']);
    const closed = (await apiBatches())[0];
    const closedRows = await csvRows(store.files, (await generate(`${base}/batches/${closed?.batchId}/reports`, { fileType: 'csv' })).key);
    expect(closedRows.at(-1)).toEqual(['', 'Net paid out', '', closed?.batchId, (closed?.netAmount ?? 0).toFixed(2), '']);
  });

  it("a statement downloads under its account and period, in the report's zone", async () => {
    const london = { 'Time-Zone': 'Europe/London' };
    const { reportId } = await generate(
      `${base}/statements/trading/reports`,
      { fileType: 'csv', filters: { date: '[gte]2026-10-01[and][lte]2026-10-31' } },
      london,
    );
    const name = `trading-account-${m1aGbp}-2026-10.csv`;
    const view = (await (await call(users.partner, 'GET', `/reports/${reportId}`)).json()) as { fileName: string };
    expect(view.fileName).toBe(name);
    const download = await call(users.partner, 'GET', `/reports/${reportId}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);

    const part = await generate(`${base}/statements/reserve/reports`, { fileType: 'pdf', filters: { date: '[gte]2026-10-02[and][lte]2026-10-15' } });
    expect(((await (await call(users.partner, 'GET', `/reports/${part.reportId}`)).json()) as { fileName: string }).fileName).toBe(
      `reserve-${m1aGbp}-2026-10-02-to-2026-10-15.pdf`,
    );
  });

  it('a camt.053 statement downloads under its account and period too', async () => {
    const response = await call(users.partner, 'GET', `${base}/statements/trading/camt053?date=${encodeURIComponent('[gte]2026-10-01[and][lte]2026-10-31')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="trading-account-${m1aGbp}-2026-10.xml"`);
    await response.text();
  });
});
