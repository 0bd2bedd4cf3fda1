// Settlement details and payout reconciliation, as finance teams read them: the settlement details report of a batch
// (and of a month) lists every transaction settled in it, one row each, with gross, fee and net that add up to the
// batch's own figures, a refund's original payment, a chargeback's dispute, reason and fee, masked cards only, and the
// payout that carried the batch; a business transfer lists the payouts it pays (they sum to it) and the remittance
// text the bank statement shows, which its camt.053 entry carries too. Out of reach: 404; read-only: reads, no writes.
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { camt053Errors } from '../../../server/ledger/camt053-validate.ts';
import { closeDueBatches, payBusinessRemittances } from '../../../server/ledger/close-batches.ts';
import { ensureMerchantAccountGroups, postTransactionChanges } from '../../../server/ledger/post-transactions.ts';
import { remittanceText } from '../../../server/ledger/remittance-text.ts';
import { maskCardText, settlementDetailCells } from '../../../server/reports/settlement-details.ts';
import { runNextReport } from '../../../server/reports/worker.ts';
import { permissionsOfRoles } from '../../../server/policy/role-permissions.ts';
import { toStatsTransaction, type NewTransactionRow } from '../../../server/stats/record-transaction.ts';
import { encodeDateRange } from '../../../src/contract/date-range-filter.ts';
import { businessAccountNumber, merchantAccountNumber } from '../../../src/contract/ledger.ts';
import { ledgerTransferList, settlementBatchDetail, settlementBatchList, transferDetail } from '../../../src/contract/ledger-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertTransactions } from '../transaction-writers.ts';
import { csvRows, openTestFileStore, reportRow, storedBytes, type Caller, type TestFileStore } from '../reports/report-support.ts';

const { users } = fixture;
const m1aGbp = merchantAccountNumber('M1a', 'GBP');
const m2aEur = merchantAccountNumber('M2a', 'EUR');
const b2Eur = businessAccountNumber('B2', 'EUR');
const base = `/businesses/B1/merchants/M1a/merchant-accountgroups/${m1aGbp}`;
const businessBase = `/businesses/B2/business-accountgroups/${b2Eur}`;
const cutOff = new Date('2026-10-20T12:00:00Z');

const tx = (
  reference: string,
  merchantId: string,
  businessId: string,
  at: string,
  amountMinor: number,
  extra: Partial<NewTransactionRow> = {},
): NewTransactionRow => ({
  reference,
  kind: 'payment',
  parentReference: null,
  partnerId: 'P1',
  businessId,
  merchantId,
  configurationId: `C-${merchantId}`,
  paymentJobReference: `PJ${reference}`,
  createdAt: new Date(at),
  amountMinor,
  currency: 'GBP',
  status: 'paid',
  paymentMethod: 'card',
  channel: 'Gateway',
  ...extra,
});

// M1a (GBP, net settlement, 10% reserve): a day with two sales, a refund of one, and a chargeback of the other.
const settled: NewTransactionRow[] = [
  tx('TXS1', 'M1a', 'B1', '2026-10-14T09:00:00Z', 20_000, { cardMasked: '411111******1111' }),
  tx('TXS2', 'M1a', 'B1', '2026-10-14T10:00:00Z', 12_345, { cardMasked: '550000******0004' }),
  tx('TXS3', 'M1a', 'B1', '2026-10-14T11:00:00Z', 5_000, {
    kind: 'refund',
    parentReference: 'TXS1',
    paymentJobReference: 'PJTXS1',
    cardMasked: '411111******1111',
  }),
  tx('TXS4', 'M1a', 'B1', '2026-10-14T12:00:00Z', 7_000, {
    kind: 'chargeback',
    parentReference: 'TXS2',
    paymentJobReference: 'PJTXS2',
    cardMasked: '550000******0004',
  }),
  tx('TXS5', 'M1a', 'B1', '2026-10-07T12:00:00Z', 3_000, { paymentMethod: 'ideal' }),
  // M2a (B2: automatic remittance off) pays into the business account on two days before its weekly transfer.
  tx('TXE1', 'M2a', 'B2', '2026-10-05T10:00:00Z', 40_000, { currency: 'EUR' }),
  tx('TXE2', 'M2a', 'B2', '2026-10-06T10:00:00Z', 15_000, { currency: 'EUR' }),
];
const disputeReason = 'Goods or services not provided';

async function insertScenario(database: Database): Promise<void> {
  await database.db.transaction(async (writer) => {
    await ensureMerchantAccountGroups(writer, [
      { businessId: 'B1', merchantId: 'M1a', currency: 'GBP' },
      { businessId: 'B2', merchantId: 'M2a', currency: 'EUR' },
    ]);
    await writer
      .update(schema.merchantAccountGroups)
      .set({ reserveBasisPoints: 1000, reserveDays: 90 })
      .where(eq(schema.merchantAccountGroups.accountNumber, m1aGbp));
    await writer
      .insert(schema.pricingPlanRates)
      .values({ merchantId: 'M1a', currency: 'GBP', paymentMethod: 'card', percentageBasisPoints: 140, fixedMinor: 20 });
    await writer.insert(schema.paymentJobs).values(
      ['TXS1', 'TXS2'].map((reference) => ({
        reference: `PJ${reference}`,
        partnerId: 'P1',
        businessId: 'B1',
        merchantId: 'M1a',
        configurationId: 'C-M1a',
        createDateTimeUtc: new Date('2026-10-14T09:00:00Z'),
        orderNumber: `ORD-${reference}`,
        amountMinor: 1,
        currency: 'GBP',
        status: 'paid',
        order: {},
      })),
    );
    await writer.insert(schema.paymentSteps).values({
      paymentId: 'TXS2',
      paymentJobReference: 'PJTXS2',
      step: 'chargedBack',
      amountMinor: 7_000,
      detail: disputeReason,
      dateTimeUtc: new Date('2026-10-14T12:00:00Z'),
    });
    await insertTransactions(writer, settled);
    await postTransactionChanges(
      writer,
      settled.map((row) => ({ before: null, after: toStatsTransaction(row) })),
      { now: new Date('2026-10-14T12:00:00Z') },
    );
  });
  await database.db.transaction(async (writer) => {
    await closeDueBatches(writer, cutOff);
    await writer.insert(schema.remittanceSettings).values({
      accountNumber: b2Eur,
      businessId: 'B2',
      frequency: 'weekly',
      dayOfPeriod: 5,
      startDate: '2026-10-01',
      nextPaymentDate: '2026-10-01',
      nextScheduleDate: '2026-10-01',
      beneficiary: { companyName: 'Beta Retail Ltd' },
      ibanMasked: 'GB** **** **** **** 4321',
    });
    await payBusinessRemittances(writer, cutOff);
  });
}

const sum = (values: readonly string[]) => values.reduce((total, value) => total + Math.round(Number(value) * 100), 0);

describe.each(databaseKinds)('settlement details and payout reconciliation on %s', (kind) => {
  let database: Database;
  let call: Caller;
  let store: TestFileStore;
  let batchId: string;

  const queue = async (path: string, body: Record<string, unknown>, userId = users.partner) => {
    const response = await call(userId, 'POST', path, body);
    expect(response.status, await response.clone().text()).toBe(202);
    const { reportId, totalRows } = (await response.json()) as { reportId: string; totalRows: number };
    expect(await runNextReport({ database, files: store.files, nodeId: `node-${kind}`, log: () => undefined })).toBe('generated');
    const row = await reportRow(database, reportId);
    expect(row.status, row.error ?? '').toBe('generated');
    return { key: row.filePath as string, totalRows, processedRows: row.processedRows, row };
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScenario(database);
    store = await openTestFileStore('folder');
    ({ call } = createTestApp(database, { files: store.files }));
    const [sale] = await database.db
      .select({ batchId: schema.ledgerPostings.batchId })
      .from(schema.ledgerPostings)
      .where(eq(schema.ledgerPostings.id, 'sale:TXS1'));
    batchId = sale?.batchId ?? '';
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await store?.close();
  });

  it("a batch's settlement details: one row per transaction, summing to the batch's gross, fee and net", async () => {
    const batchResponse = await call(users.partner, 'GET', `${base}/batches/${batchId}`);
    expect(batchResponse.status).toBe(200);
    const batch = settlementBatchDetail.assert(await batchResponse.json());
    expect(batch.status).toBe('Closed');

    const { key, totalRows, processedRows, row } = await queue(`${base}/batches/${batchId}/settlement-details/reports`, { fileType: 'csv' });
    expect(row.reportType).toBe('settlementDetails');
    const [header = [], ...rows] = await csvRows(store.files, key);
    // Booked in the requester's zone, as every ledger report.
    expect(header[1]).toMatch(/^Booked \(.+\)$/);
    expect(header.filter((_, index) => index !== 1)).toEqual([
      'Batch',
      'Type',
      'Transaction',
      'Payment job',
      'Merchant reference',
      'Payment method',
      'Card brand',
      'Card number (masked)',
      'Original payment',
      'Dispute',
      'Dispute reason',
      'Currency',
      'Gross (GBP)',
      'Fee (GBP)',
      'Net (GBP)',
      'Payout',
    ]);
    const column = (name: string) => header.indexOf(name);
    // Four transactions and the batch's reserve hold.
    expect(rows.map((cells) => cells[column('Transaction')])).toEqual(['TXS1', 'TXS2', 'TXS3', 'TXS4', '']);
    expect(totalRows).toBe(5);
    expect(processedRows).toBe(5);
    expect(rows.every((cells) => cells[column('Batch')] === batchId)).toBe(true);
    const gross = sum(rows.map((cells) => cells[column('Gross (GBP)')] ?? '0'));
    const fee = sum(rows.map((cells) => cells[column('Fee (GBP)')] ?? '0'));
    const net = sum(rows.map((cells) => cells[column('Net (GBP)')] ?? '0'));
    expect(gross).toBe(Math.round((batch.salesAmount - batch.refundsAmount - batch.reversalsAmount) * 100));
    expect(fee).toBe(Math.round(batch.feesAmount * 100));
    // Net settlement with a reserve: what the batch paid out.
    expect(net).toBe(Math.round(batch.netAmount * 100));
    expect(gross).toBe(20_000 + 12_345 - 5_000 - 7_000);

    const sale = rows[0] ?? [];
    expect(sale[column('Type')]).toBe('Sale');
    expect(sale[column('Payment job')]).toBe('PJTXS1');
    expect(sale[column('Merchant reference')]).toBe('ORD-TXS1');
    expect(sale[column('Card brand')]).toBe('Visa');
    expect(sale[column('Card number (masked)')]).toBe('411111******1111');
    // 1.40% + 20p of £200.00 = £3.00
    expect([sale[column('Gross (GBP)')], sale[column('Fee (GBP)')], sale[column('Net (GBP)')]]).toEqual(['200.00', '3.00', '197.00']);
    const refund = rows[2] ?? [];
    expect(refund[column('Type')]).toBe('Refund');
    expect(refund[column('Original payment')]).toBe('TXS1');
    expect(refund[column('Gross (GBP)')]).toBe('-50.00');
    const chargeback = rows[3] ?? [];
    expect(chargeback[column('Type')]).toBe('Chargeback');
    expect(chargeback[column('Original payment')]).toBe('TXS2');
    expect(chargeback[column('Dispute')]).toBe('TXS4');
    expect(chargeback[column('Dispute reason')]).toBe(disputeReason);
    expect(chargeback[column('Card brand')]).toBe('Mastercard');
    // No fee is charged on a chargeback by this ledger: its fee column says so, rather than being left blank.
    expect(chargeback[column('Fee (GBP)')]).toBe('0.00');
    expect(chargeback[column('Gross (GBP)')]).toBe('-70.00');
    const hold = rows[4] ?? [];
    expect(hold[column('Type')]).toBe('Reserve hold');
    // Automatic remittance: the batch's own transfer to the bank.
    const [transfer] = await database.db.select().from(schema.ledgerTransfers).where(eq(schema.ledgerTransfers.batchId, batchId));
    expect(transfer?.id).toMatch(/^T/);
    expect(rows.every((cells) => cells[column('Payout')] === transfer?.id)).toBe(true);
    // Never a full card number in the file.
    expect((await storedBytes(store.files, key)).toString('utf8')).not.toMatch(/\d{11,}/);
    expect(row.filePath).toBeTruthy();
  });

  it('the same report as XLSX holds the same rows; it is named by its batch', async () => {
    const { key, row } = await queue(`${base}/batches/${batchId}/settlement-details/reports`, { fileType: 'xlsx' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await storedBytes(store.files, key)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('Settlement details');
    const values = (index: number) =>
      ((sheet?.getRow(index).values ?? []) as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value)));
    expect(values(1)[3]).toBe('Transaction');
    expect([2, 3, 4, 5].map((index) => values(index)[3])).toEqual(['TXS1', 'TXS2', 'TXS3', 'TXS4']);
    const response = await call(users.partner, 'GET', `/reports/${row.id}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { fileName: string }).fileName).toBe(`settlement-details-${batchId}.xlsx`);
  });

  it("a month's settlement details cover every batch of the month and add up to the batch overview", async () => {
    const date = encodeDateRange({ start: '2026-10-01', end: '2026-10-31' }) ?? '';
    const listResponse = await call(users.partner, 'GET', `${base}/batches?pagesize=100`);
    expect(listResponse.status).toBe(200);
    const batches = settlementBatchList.assert(await listResponse.json()).results.filter((batch) => batch.date.startsWith('2026-10'));
    expect(batches.length).toBeGreaterThanOrEqual(2);
    const { key } = await queue(`${base}/settlement-details/reports`, { fileType: 'csv', filters: { date } });
    const [header = [], ...rows] = await csvRows(store.files, key);
    const column = (name: string) => header.indexOf(name);
    expect(new Set(rows.map((cells) => cells[column('Batch')]))).toEqual(
      new Set(batches.filter((batch) => batch.salesCount > 0 || batch.refundsAmount !== 0 || batch.reversalsAmount !== 0).map((batch) => batch.batchId)),
    );
    expect(
      rows
        .map((cells) => cells[column('Transaction')])
        .filter(Boolean)
        .sort(),
    ).toEqual(['TXS1', 'TXS2', 'TXS3', 'TXS4', 'TXS5']);
    expect(sum(rows.map((cells) => cells[column('Gross (GBP)')] ?? '0'))).toBe(
      Math.round(batches.reduce((total, batch) => total + batch.salesAmount - batch.refundsAmount - batch.reversalsAmount, 0) * 100),
    );
    expect(sum(rows.map((cells) => cells[column('Fee (GBP)')] ?? '0'))).toBe(Math.round(batches.reduce((total, batch) => total + batch.feesAmount, 0) * 100));
    expect(sum(rows.map((cells) => cells[column('Net (GBP)')] ?? '0'))).toBe(Math.round(batches.reduce((total, batch) => total + batch.netAmount, 0) * 100));
  });

  it('refuses other file types and periods longer than a month, with the reason', async () => {
    const pdf = await call(users.partner, 'POST', `${base}/batches/${batchId}/settlement-details/reports`, { fileType: 'pdf' });
    expect(pdf.status).toBe(400);
    expect(await pdf.text()).toContain('Settlement details are offered as CSV or XLSX.');
    const long = await call(users.partner, 'POST', `${base}/settlement-details/reports`, {
      fileType: 'csv',
      filters: { date: encodeDateRange({ start: '2026-08-01', end: '2026-10-31' }) ?? '' },
    });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain('choose a month');
  });

  it("another business's account groups, batches and transfers answer 404; a read-only role reads but queues only as its permissions allow", async () => {
    for (const [method, path] of [
      ['POST', `${base}/batches/${batchId}/settlement-details/reports`],
      ['POST', `${base}/settlement-details/reports`],
      ['GET', `${businessBase}/transfers`],
    ] as const) {
      const response = await call(users.owner, method, path, method === 'POST' ? { fileType: 'csv' } : undefined);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // A batch of another account group under this one's path.
    const foreign = await call(users.partner, 'POST', `${base}/batches/B${m2aEur}-20261005/settlement-details/reports`, { fileType: 'csv' });
    expect(foreign.status).toBe(404);
    const readOnly = await call(users.readonly, 'POST', `${base}/batches/${batchId}/settlement-details/reports`, { fileType: 'csv' });
    expect(readOnly.status).toBe(permissionsOfRoles(['InternalReadOnly']).has('Portal.Reports.Create') ? 202 : 403);
  });

  it('a business transfer lists the payouts it pays, summing to it, and the remittance text the bank shows', async () => {
    const listResponse = await call(users.finance, 'GET', `${businessBase}/transfers`);
    expect(listResponse.status).toBe(200);
    const transfers = ledgerTransferList.assert(await listResponse.json()).results;
    expect(transfers.length).toBeGreaterThan(0);
    const texts = new Set<string>();
    let payoutsSeen = 0;
    for (const transfer of transfers) {
      const response = await call(users.finance, 'GET', `${businessBase}/transfers/${transfer.id}`);
      expect(response.status).toBe(200);
      const detail = transferDetail.assert(await response.json());
      expect(detail.amount).toBe(transfer.amount);
      expect(detail.carriedOver).toBe(0);
      expect(Math.round(detail.payouts.reduce((total, payout) => total + payout.amount, 0) * 100)).toBe(Math.round(detail.amount * 100));
      expect(detail.payoutsTotal).toBe(detail.amount);
      for (const payout of detail.payouts) {
        expect(payout.category).toBe('payout');
        expect(payout.merchantId).toBe('M2a');
        expect(payout.merchantAccountNumber).toBe(m2aEur);
        expect(payout.postingId).toBe(`payout:${payout.batchId}`);
      }
      payoutsSeen += detail.payouts.length;
      expect(detail.remittanceText.length).toBeLessThanOrEqual(140);
      expect(detail.remittanceText.startsWith(`PAYOUT ${transfer.id} BUSINESS B2 `)).toBe(true);
      texts.add(detail.remittanceText);
    }
    expect(texts.size).toBe(transfers.length);
    // Both days' payouts (5 and 6 October) were paid by the first transfer after them.
    expect(payoutsSeen).toBe(2);
    expect(transfers.some((transfer) => transfer.amount === 0)).toBe(false);
  });

  it("the business statement's camt.053 carries each transfer's remittance text, and still validates", async () => {
    const transfers = ledgerTransferList.assert(await (await call(users.finance, 'GET', `${businessBase}/transfers`)).json()).results;
    const response = await call(users.finance, 'GET', `${businessBase}/statement/camt053`);
    expect(response.status).toBe(200);
    const xml = await response.text();
    for (const transfer of transfers) {
      const text = remittanceText({ id: transfer.id, businessId: 'B2', transferDate: new Date(transfer.transferDate) });
      expect(xml).toContain(`<RmtInf><Ustrd>${text}</Ustrd></RmtInf>`);
    }
    expect(await camt053Errors(xml)).toEqual([]);
  });

  it('a transfer of another business, or one that does not exist, answers 404; the transfer has no write', async () => {
    const [transfer] = ledgerTransferList.assert(await (await call(users.finance, 'GET', `${businessBase}/transfers`)).json()).results;
    expect(transfer).toBeDefined();
    const path = `${businessBase}/transfers/${transfer?.id ?? ''}`;
    expect((await call(users.owner, 'GET', path)).status).toBe(404);
    expect((await call(users.partner, 'GET', `${businessBase}/transfers/R${b2Eur}-19990101`)).status).toBe(404);
    expect((await call(users.partner, 'GET', `${businessBase}/transfers/not-a-transfer`)).status).toBe(404);
    // Internal read-only staff read it; nothing changes it.
    expect((await call(users.readonly, 'GET', path)).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE'] as const)
      expect([404, 405]).toContain((await call(users.finance, method, path, method === 'DELETE' ? undefined : {})).status);
  });
});

describe('settlement detail cells', () => {
  const row = {
    batchId: 'B1',
    valueAt: new Date('2026-10-14T09:00:00Z'),
    type: 'Sale',
    transactionReference: 'T1',
    paymentJobReference: 'PJ1',
    merchantReference: 'ORD-1',
    paymentMethod: 'card',
    cardBrand: 'Visa',
    cardMasked: '411111******1111',
    originalPayment: null,
    disputeId: null,
    disputeReason: null,
    grossMinor: 150_000,
    feeMinor: 2_870,
    netMinor: 147_130,
    payout: null,
  };
  it("write money by the currency's decimals: yen has none, dinars three", () => {
    expect(settlementDetailCells(row, 'JPY', 'UTC').slice(13, 16)).toEqual(['150000', '2870', '147130']);
    expect(settlementDetailCells(row, 'GBP', 'UTC').slice(13, 16)).toEqual(['1500.00', '28.70', '1471.30']);
    expect(settlementDetailCells(row, 'KWD', 'UTC').slice(13, 16)).toEqual(['150.000', '2.870', '147.130']);
    expect(settlementDetailCells(row, 'GBP', 'Europe/London')[1]).toBe('2026-10-14 10:00:00');
    expect(settlementDetailCells(row, 'GBP', 'UTC')[16]).toBe('Not yet paid out');
  });
  it('mask a full card number should one ever reach the masked column', () => {
    expect(maskCardText('4111111111111111')).toBe('411111******1111');
    expect(maskCardText('411111******1111')).toBe('411111******1111');
    expect(maskCardText(null)).toBeNull();
  });
});
