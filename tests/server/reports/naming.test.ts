// Download names: a ledger report is named by its account and period (a whole month as 'yyyy-MM', one day, or its
// two ends, in the report's zone); a batch by its id; other reports by type, queued day and id.
import { describe, expect, it } from 'vitest';
import { periodName, reportDownloadName } from '../../../server/reports/naming.ts';

describe('report download names', () => {
  const queuedAt = new Date('2026-11-20T23:30:00Z');
  const report = (reportType: string, filters: Record<string, string>, startDate: Date | null, endDate: Date | null, timeZone = 'UTC') => ({
    id: 'RPT1',
    reportType,
    fileType: 'csv',
    queuedAt,
    context: { level: 'merchant', businessId: 'B1', merchantId: 'M1a', title: 'x', timeZone },
    filters,
    startDate,
    endDate,
  });

  it('names a period by its month, its day or its two ends, in the given zone', () => {
    expect(periodName(new Date('2026-09-30T23:00:00Z'), new Date('2026-10-31T23:59:59.999Z'), 'Europe/London', queuedAt)).toBe('2026-10');
    // The same instants read in another zone are other days: the name follows the report's zone.
    expect(periodName(new Date('2026-10-01T00:00:00Z'), new Date('2026-10-31T23:59:59.999Z'), 'Asia/Tokyo', queuedAt)).toBe('2026-10-01-to-2026-11-01');
    expect(periodName(new Date('2026-02-01T00:00:00Z'), new Date('2026-02-28T23:59:59.999Z'), 'UTC', queuedAt)).toBe('2026-02');
    expect(periodName(new Date('2026-10-05T00:00:00Z'), new Date('2026-10-05T23:59:59.999Z'), 'UTC', queuedAt)).toBe('2026-10-05');
    expect(periodName(new Date('2026-10-05T00:00:00Z'), null, 'UTC', queuedAt)).toBe('from-2026-10-05');
    expect(periodName(null, new Date('2026-10-05T23:59:59.999Z'), 'UTC', queuedAt)).toBe('to-2026-10-05');
    // No period: the statement runs to the day it was queued, in its zone.
    expect(periodName(null, null, 'Asia/Tokyo', queuedAt)).toBe('until-2026-11-21');
  });

  it('ledger reports by account and period, a batch by its id, other reports as before', () => {
    expect(
      reportDownloadName(
        report('settlementBatchOverview', { accountNumber: '3M1a070215' }, new Date('2026-10-01T00:00:00Z'), new Date('2026-10-31T23:59:59.999Z')),
      ),
    ).toBe('settlement-batch-overview-3M1a070215-2026-10.csv');
    expect(reportDownloadName(report('batchDetail', { accountNumber: '3M1a070215', batchId: 'B3M1a070215-20261001' }, null, null))).toBe(
      'batch-detail-B3M1a070215-20261001.csv',
    );
    expect(
      reportDownloadName(report('businessAccount', { accountNumber: '5B2051522' }, new Date('2026-10-01T00:00:00Z'), new Date('2026-10-31T23:59:59.999Z'))),
    ).toBe('business-account-5B2051522-2026-10.csv');
    // Nothing of a filter reaches the name but letters, digits and '-'.
    expect(reportDownloadName(report('tradingAccount', { accountNumber: '../3M1a"\r\n' }, null, null))).toBe('trading-account-3M1a-until-2026-11-20.csv');
    expect(reportDownloadName(report('transactions', {}, null, null))).toBe('transactions-2026-11-20-RPT1.csv');
  });
});
