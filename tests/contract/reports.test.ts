import { describe, expect, it } from 'vitest';
import { hasReportsInProgress, reportProgress, reportState } from '../../src/contract/reports.ts';

describe('report state', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it.each([
    ['queued', null, null, 'queued'],
    ['generating', null, null, 'generating'],
    ['failed', null, null, 'failed'],
    ['generated', '2026-11-20T12:00:00Z', '2026-12-04T12:00:00Z', 'generated'],
    ['generated', '2026-11-01T12:00:00Z', '2026-11-21T11:59:59Z', 'expired'],
    ['generated', '2026-11-07T11:59:59Z', null, 'expired'],
    ['generated', '2026-11-07T12:00:01Z', null, 'generated'],
  ] as const)('%s, generated %s, expiring %s, reads %s', (status, generatedAt, expirationDateTime, state) => {
    expect(reportState({ status, generatedAt, expirationDateTime }, now)).toBe(state);
  });

  it('shows progress while generating', () => {
    expect(reportProgress({ status: 'generating', totalRows: 200, processedRows: 50 })).toBe(25);
    expect(reportProgress({ status: 'generating', totalRows: null, processedRows: 50 })).toBeNull();
    expect(reportProgress({ status: 'generated', totalRows: 200, processedRows: 200 })).toBe(100);
    expect(reportProgress({ status: 'generating', totalRows: 10, processedRows: 12 })).toBe(100);
  });

  it('polls while anything is queued or generating', () => {
    expect(hasReportsInProgress([{ status: 'generated' }, { status: 'queued' }])).toBe(true);
    expect(hasReportsInProgress([{ status: 'generated' }, { status: 'failed' }, { status: 'cancelled' }])).toBe(false);
  });
});
