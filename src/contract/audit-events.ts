import { type } from 'arktype';
import type { PermissionName } from './permissions.ts';

/** Audit events of the spec: capture, refund, void, virtual-terminal order and user deletion, each successful or failed. */
export const auditEventNames = [
  'CaptureSuccessful',
  'CaptureFailed',
  'RefundSuccessful',
  'RefundFailed',
  'VoidSuccessful',
  'VoidFailed',
  'VirtualTerminalOrderSuccessful',
  'VirtualTerminalOrderFailed',
  'UserDeletionSuccessful',
  'UserDeletionFailed',
  'CardNumberRevealed',
] as const;

/**
 * What a browser may report through POST /audit-events: things only the browser sees, each needing a permission in
 * the addressed business or merchant. Everything in auditEventNames is written by the server itself, in the
 * transaction of the change, and a client cannot post it (no forged 'RefundSuccessful').
 */
export const clientAuditEvents = {
  RecordPrinted: 'Mapi.Transaction.Read',
  CardNumberCopied: 'Mapi.Transaction.CardNumber.Read',
  ReportDownloaded: 'Portal.Reports.Create',
} as const satisfies Record<string, PermissionName>;
export type ClientAuditEventName = keyof typeof clientAuditEvents;
export const clientAuditEventNames = Object.keys(clientAuditEvents) as ClientAuditEventName[];

export const auditEventBody = type({
  event: type.enumerated(...clientAuditEventNames),
  dateTimeUtc: 'string.date.iso',
  'businessId?': 'string <= 64 | null',
  'merchantId?': 'string <= 64 | null',
  'metaData?': 'Record<string, unknown>',
});
export type AuditEventBody = typeof auditEventBody.infer;
