import { type } from 'arktype';

/** Audit events of the spec: capture, refund, void, virtual-terminal order and user deletion, each successful or failed. */
export const auditEventNames = [
  'CaptureSuccessful', 'CaptureFailed', 'RefundSuccessful', 'RefundFailed', 'VoidSuccessful', 'VoidFailed',
  'VirtualTerminalOrderSuccessful', 'VirtualTerminalOrderFailed', 'UserDeletionSuccessful', 'UserDeletionFailed',
  'CardNumberRevealed',
] as const;

export const auditEventBody = type({
  event: type.enumerated(...auditEventNames),
  dateTimeUtc: 'string.date.iso',
  'businessId?': 'string <= 64 | null',
  'merchantId?': 'string <= 64 | null',
  'metaData?': 'Record<string, unknown>',
});
export type AuditEventBody = typeof auditEventBody.infer;
