// The partners area's commands, each offered where the focused screen is about a partner.
import type { Command } from '../command.ts';
import { deleteCommissionPlanCommand } from './delete-commission-plan.ts';
import { addCommissionRuleCommand, editCommissionPlanCommand } from './edit-commission-plan.ts';
import { newCommissionPlanCommand } from './new-commission-plan.ts';
import { openBusinessInPartnerFrameCommand } from './open-business-in-partner-frame.ts';
import { openCommissionPlanCommand } from './open-commission-plan.ts';
import { openPartnerDeclinesCommand } from './open-partner-declines.ts';
import { openPartnerTransactionsCommand } from './open-partner-transactions.ts';

export const partnerCommands: readonly Command[] = [
  openCommissionPlanCommand,
  openPartnerDeclinesCommand,
  openPartnerTransactionsCommand,
  openBusinessInPartnerFrameCommand,
  editCommissionPlanCommand,
  addCommissionRuleCommand,
  newCommissionPlanCommand,
  deleteCommissionPlanCommand,
];
