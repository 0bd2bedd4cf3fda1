// 'Go to virtual terminal' (palette, g v): the terminal of a configuration whose terminal is on. The applied
// configuration when its terminal is on; else among the merchant's: exactly one opens, several ask which (a
// dialog listing them by name), none is said plainly. Never a configuration with the terminal switched off. The
// choosing (src/api/terminal-configurations.ts, with the answer checks it needs) loads when the command runs: the
// route table, in the first screen's script, carries only this file.
import { contextStore } from '../../src/state/context-store.ts';
import { askTerminalConfiguration, type TerminalConfiguration } from '../../src/state/terminal-chooser-store.ts';
import type { CommandContext, CommandServices } from '../command.ts';
import type { RouteCommandBehaviour } from '../navigation/route-commands.ts';

/** A merchant to list the configurations of, or an applied configuration whose terminal is on. */
export function canGoToVirtualTerminal(ctx: CommandContext): boolean {
  const { businessId, merchantId, configurationId, virtualTerminalMenuEnabled } = ctx.context;
  return (businessId !== null && merchantId !== null) || (configurationId !== null && virtualTerminalMenuEnabled === true);
}

/** Opens the terminal of `configuration`, making it the context's configuration first when it is another. */
export async function openTerminalOf(
  services: Pick<CommandServices, 'navigate' | 'state'>,
  configuration: TerminalConfiguration,
  beside: boolean,
): Promise<unknown> {
  const { terminalPath, withTerminalConfiguration } = await import('../../src/api/terminal-configurations.ts');
  const applied = contextStore.applied;
  if (applied.configuration?.id !== configuration.configurationId) services.state.applyContext(withTerminalConfiguration(applied, configuration));
  return services.navigate(terminalPath(configuration.configurationId), { beside });
}

export const goToVirtualTerminal: RouteCommandBehaviour = {
  when: canGoToVirtualTerminal,
  run: async (services, args) => {
    const beside = args.beside === true;
    const { appliedTerminalConfiguration, noTerminalSentence, terminalChoice, terminalConfigurations } = await import(
      '../../src/api/terminal-configurations.ts'
    );
    const applied = contextStore.applied;
    const current = appliedTerminalConfiguration(applied);
    if (current) return openTerminalOf(services, current, beside);
    const businessId = applied.business?.id;
    const merchantId = applied.merchant?.id;
    if (!businessId || !merchantId) return undefined;
    const merchantName = applied.merchant?.title || merchantId;
    const choice = terminalChoice(await terminalConfigurations(services.api, businessId, merchantId));
    if (choice.kind === 'open') return openTerminalOf(services, choice.configuration, beside);
    if (choice.kind === 'ask') askTerminalConfiguration({ merchantName, configurations: choice.configurations, beside });
    else services.state.toast({ kind: 'warning', message: noTerminalSentence(merchantName) });
    return undefined;
  },
};
