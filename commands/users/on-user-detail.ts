import type { CommandContext } from '../command.ts';

/** The users commands act on the user open in the focused pane (the detail screen checks what the user may do). */
export const onUserDetail = (ctx: CommandContext) => (ctx.route?.id === 'userDetail' || ctx.route?.id === 'partnerUser') && !ctx.fieldFocused;
