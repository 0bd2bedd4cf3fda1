// Every ticket command, for the app's registry (commands/all-commands.ts spreads this list in).
import type { Command } from '../command.ts';
import { assignTicketToMeCommand } from './assign-to-me.ts';
import { attachFileToTicketCommand } from './attach-file.ts';
import { chooseTicketAssigneeCommand } from './choose-assignee.ts';
import { exportTicketsCommand } from './export-tickets.ts';
import { editLastCommentCommand } from './edit-last-comment.ts';
import { internalNoteCommand } from './internal-note.ts';
import { openTicketAboutTransactionCommand } from './open-ticket-about-transaction.ts';
import { replyToTicketCommand } from './reply.ts';
import { setTicketPriorityCommands } from './set-priority.ts';
import { setTicketStatusCommands } from './set-status.ts';
import { showOlderCommentsCommand } from './show-older-comments.ts';
import { ticketQueueViewCommands } from './queue-views.ts';

export const ticketCommands: readonly Command[] = [
  replyToTicketCommand,
  internalNoteCommand,
  attachFileToTicketCommand,
  showOlderCommentsCommand,
  editLastCommentCommand,
  ...setTicketStatusCommands,
  ...setTicketPriorityCommands,
  assignTicketToMeCommand,
  chooseTicketAssigneeCommand,
  openTicketAboutTransactionCommand,
  exportTicketsCommand,
  ...ticketQueueViewCommands,
];
