// One label per state of the payment area: every status of every kind has exactly one, no two states of a kind share
// one, the overview's filter, list chip, the detail's chips, the trace, the export and the activity log all say it
// the same way, and no raw name ('RefundSuccessful', 'pending') reaches a person.
import { describe, expect, it } from 'vitest';
import { paymentStatuses } from '../../src/contract/enumerations.ts';
import {
  auditEventLabel,
  captureStatusLabels,
  chargebackStatusLabels,
  invoiceStatusLabels,
  paymentJobTabLabels,
  paymentJobTabOptions,
  paymentStatusLabels,
  paymentStatusOptions,
  paymentStepLabels,
  refundStatusLabels,
  statusLabelOf,
  transactionStatusLabel,
  wordsOf,
} from '../../src/contract/payment-job-labels.ts';
import { paymentAuditEvents, paymentJobTabs, refundStatuses } from '../../src/contract/payment-jobs.ts';

const kinds = {
  payment: paymentStatusLabels,
  refund: refundStatusLabels,
  capture: captureStatusLabels,
  chargeback: chargebackStatusLabels,
  invoice: invoiceStatusLabels,
  step: paymentStepLabels,
} as const;

describe('the payment area’s labels', () => {
  it('give every job and payment status, every refund status and every tab exactly one label, distinct within its kind', () => {
    expect(Object.keys(paymentStatusLabels).sort()).toEqual([...paymentStatuses].sort());
    expect(Object.keys(refundStatusLabels).sort()).toEqual([...refundStatuses].sort());
    expect(Object.keys(paymentJobTabLabels).sort()).toEqual([...paymentJobTabs].sort());
    for (const [kind, labels] of Object.entries(kinds)) {
      const values = Object.values(labels);
      expect(new Set(values).size, kind).toBe(values.length);
      for (const label of values) expect(label, kind).toMatch(/^[A-Z][a-z]/);
    }
  });

  it('read the same in the filter as on the chip: an open job waits for the shopper in both', () => {
    expect(statusLabelOf('payment', 'pending')).toBe('Waiting for the shopper');
    expect(paymentStatusOptions.find((option) => option.value === 'pending')?.label).toBe('Waiting for the shopper');
    for (const option of paymentStatusOptions) expect(option.label).toBe(statusLabelOf('payment', option.value));
    for (const option of paymentJobTabOptions) expect(option.label).toBe(paymentJobTabLabels[option.value]);
    expect(statusLabelOf('payment', 'reserved')).toBe('Authorised, not captured');
    expect(paymentJobTabLabels.authorised).toBe(statusLabelOf('payment', 'reserved'));
  });

  it('say a refund the same way on the job, in the transactions list and in the activity log', () => {
    expect(statusLabelOf('refund', 'completed')).toBe('Refunded');
    expect(transactionStatusLabel('refund', 'paid')).toBe('Refunded');
    expect(auditEventLabel('RefundSuccessful', { outcome: 'completed' })).toBe('Refunded');
    expect(auditEventLabel('RefundSuccessful', { outcome: 'requested' })).toBe(statusLabelOf('refund', 'requested'));
    expect(auditEventLabel('RefundSuccessful', { outcome: 'processing' })).toBe(statusLabelOf('refund', 'processing'));
    expect(auditEventLabel('RefundFailed', { outcome: 'failed' })).toBe(statusLabelOf('refund', 'failed'));
    expect(transactionStatusLabel('refund', 'failed')).toBe(statusLabelOf('refund', 'failed'));
    expect(transactionStatusLabel('payment', 'reserved')).toBe('Authorised, not captured');
    expect(transactionStatusLabel('chargeback', 'paid')).toBe('Charged back');
    expect(statusLabelOf('step', 'chargedBack')).toBe(transactionStatusLabel('chargeback', 'paid'));
  });

  it('put every audit event of the payment area in words, never its raw name', () => {
    for (const event of paymentAuditEvents) {
      const label = auditEventLabel(event);
      expect(label, event).not.toBe(event);
      expect(label, event).not.toMatch(/[a-z][A-Z]/);
    }
    expect(auditEventLabel('SomethingNewHappened')).toBe('Something new happened');
  });

  it('fall back to words for a state added later, never the raw name', () => {
    expect(statusLabelOf('payment', 'partlyRefunded')).toBe('Partly refunded');
    expect(wordsOf('on_hold')).toBe('On hold');
    expect(statusLabelOf('payment', 'toString')).toBe('To string');
  });
});
