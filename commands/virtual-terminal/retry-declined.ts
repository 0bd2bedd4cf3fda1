import type { Command } from '../command.ts';

/**
 * After a decline: another attempt on the same order (the same payment job), with the card the decline used. The
 * result panel offers it as 'Try again'; never a new order.
 */
export const tryAgainCommand: Command = {
  id: 'virtualTerminal.tryAgain',
  title: 'Try again (same card, same order)',
  section: 'Record',
  keywords: ['virtual terminal', 'declined', 'retry', 'try again', 'second attempt', 'charge again'],
  shortcut: 'Alt+KeyT',
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('retryDeclined') === true && !ctx.overlayOpen,
  run: ({ state }) => state.paneRequest('retryDeclined'),
};

/** After a decline: the card fields are emptied for another card; the next charge is another attempt at the order. */
export const tryAnotherCardCommand: Command = {
  id: 'virtualTerminal.tryAnotherCard',
  title: 'Try another card (same order)',
  section: 'Record',
  keywords: ['virtual terminal', 'declined', 'retry', 'another card', 'different card', 'second attempt'],
  permissions: ['Portal.Moto.Create'],
  when: (ctx) => ctx.focusedPane?.capabilities.includes('retryDeclined') === true && !ctx.overlayOpen,
  // 1 = another card (the pane's anotherCardAttempt; a command may not import a pane).
  run: ({ state }) => state.paneRequest('retryDeclined', 1),
};
