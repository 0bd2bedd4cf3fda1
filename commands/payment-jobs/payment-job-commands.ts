// The payment job actions, each a registry command gated by its permission and by what the focused job allows.
import type { Command } from '../command.ts';
import { cancelPaymentJobCommand } from './cancel-payment-job.ts';
import { expirePaymentLinkCommand } from './expire-link.ts';
import { capturePaymentCommand } from './capture.ts';
import { mailPaymentLinkCommand } from './mail-payment-link.ts';
import { refundPaymentCommand } from './refund.ts';
import { paymentJobTabCommands } from './status-tabs.ts';
import { viewTraceCommand } from './view-trace.ts';
import { voidAuthorisationCommand } from './void-authorisation.ts';

export const paymentJobCommands: readonly Command[] = [
  capturePaymentCommand,
  refundPaymentCommand,
  voidAuthorisationCommand,
  cancelPaymentJobCommand,
  expirePaymentLinkCommand,
  mailPaymentLinkCommand,
  viewTraceCommand,
  ...paymentJobTabCommands,
];
