// The virtual terminal's commands, each offered only where the focused screen answers it.
import type { Command } from '../command.ts';
import { addOrderLineCommand } from './add-order-line.ts';
import { newOrderCommand, newOrderNewCustomerCommand } from './new-order.ts';
import { openOrderResultCommand } from './open-order-result.ts';
import { removeOrderLineCommand } from './remove-order-line.ts';
import { tryAgainCommand, tryAnotherCardCommand } from './retry-declined.ts';
import { saveVirtualTerminalSettingsCommand } from './save-settings.ts';
import { submitOrderCommand } from './submit-order.ts';

export const virtualTerminalCommands: readonly Command[] = [
  submitOrderCommand,
  addOrderLineCommand,
  removeOrderLineCommand,
  newOrderCommand,
  newOrderNewCustomerCommand,
  openOrderResultCommand,
  saveVirtualTerminalSettingsCommand,
  tryAgainCommand,
  tryAnotherCardCommand,
];
