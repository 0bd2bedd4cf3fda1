// 'Go to virtual terminal' (palette, g v) opens a configuration whose terminal is on: the applied one when it is on;
// else among the merchant's, exactly one opens (and becomes the context's), several ask which, none is said plainly.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandServices } from '../../../commands/command.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { terminalChoice } from '../../../src/api/terminal-configurations.ts';
import { createAppRegistry } from '../../../src/app/app-registry.ts';
import type { ContextSelections } from '../../../src/contract/context.ts';
import { contextStore } from '../../../src/state/context-store.ts';
import { closeTerminalChooser, terminalChooserStore, type TerminalConfiguration } from '../../../src/state/terminal-chooser-store.ts';
import { baseContext } from '../../app/support.tsx';

const configurationsPath = '/context/businesses/B1/merchants/M1/configurations';
const configuration = (configurationId: string, tradeName: string, on: boolean): TerminalConfiguration => ({
  configurationId,
  tradeName,
  description: on ? 'Orders taken by telephone' : 'Web shop checkout',
  switches: { virtualTerminalMenuEnabled: on },
});
const webShop = configuration('C1', 'Alpha Online', false);
const telephone = configuration('C2', 'Alpha Telephone Orders', true);
const postal = configuration('C3', 'Alpha Postal Orders', true);

/** The context the seed gives a virtual terminal user: the merchant's first configuration, its web shop (terminal off). */
const webShopContext: ContextSelections = {
  business: { id: 'B1', title: 'Alpha Trading' },
  merchant: { id: 'M1', title: 'Alpha Online' },
  configuration: { id: 'C1', title: 'Alpha Online', switches: { virtualTerminalMenuEnabled: false } },
};
const commandContext = (selections: ContextSelections, permissions: string[] = ['Portal.Moto.Create']) =>
  baseContext({
    permissions,
    context: {
      ...baseContext().context,
      businessId: selections.business?.id ?? null,
      merchantId: selections.merchant?.id ?? null,
      configurationId: selections.configuration?.id ?? null,
      virtualTerminalMenuEnabled: selections.configuration ? selections.configuration.switches.virtualTerminalMenuEnabled : null,
    },
  });

function services(configurations: TerminalConfiguration[], selections: ContextSelections) {
  contextStore.applied = selections;
  const get = vi.fn(async (path: string, options: { query: { pagenumber: number; pagesize: number } }) => {
    if (path !== configurationsPath) throw new Error(`unexpected ${path}`);
    const { pagenumber, pagesize } = options.query;
    return { data: configurations.slice((pagenumber - 1) * pagesize, pagenumber * pagesize), totalCount: configurations.length };
  });
  const navigate = vi.fn(async () => undefined);
  const toast = vi.fn();
  const applyContext = vi.fn((next: ContextSelections) => {
    contextStore.applied = next;
  });
  const built = { context: () => commandContext(selections), navigate, api: { get }, state: { toast, applyContext } } as unknown as CommandServices;
  return { built, get, navigate, toast, applyContext };
}

const command = createAppRegistry().get('nav.virtualTerminal');
if (!command) throw new Error('nav.virtualTerminal is not registered');

describe('go to virtual terminal', { timeout: 30_000 }, () => {
  // The answers are checked against the contract: its schemas load once, before the first case's clock starts.
  beforeAll(async () => {
    await import('../../../src/api/contract-schemas.ts');
  }, 60_000);
  beforeEach(() => {
    contextStore.applied = {};
    closeTerminalChooser();
  });

  it('keeps its title and g v, and needs the permission to take telephone orders', () => {
    expect(command.title).toBe('Go to virtual terminal');
    expect(command.shortcut).toBe('g v');
    expect(command.permissions).toEqual(['Portal.Moto.Create']);
  });

  it('is offered with a merchant applied, even when the applied configuration has the terminal off', () => {
    expect(isAvailable(command, commandContext(webShopContext))).toBe(true);
    const { configuration: _dropped, ...merchantOnly } = webShopContext;
    expect(isAvailable(command, commandContext(merchantOnly))).toBe(true);
    expect(isAvailable(command, commandContext({ business: webShopContext.business }))).toBe(false);
    expect(isAvailable(command, commandContext(webShopContext, ['Mapi.Configurations.Read']))).toBe(false);
  });

  it('opens the only configuration with the terminal on, never the applied one with it off, and makes it the context’s', async () => {
    const { built, navigate, applyContext, get } = services([webShop, telephone], webShopContext);
    await command.run(built, {});
    expect(get).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/configurations/C2/virtual-terminal', { beside: false });
    expect(applyContext).toHaveBeenCalledWith({
      ...webShopContext,
      configuration: { id: 'C2', title: 'Alpha Telephone Orders', switches: { virtualTerminalMenuEnabled: true } },
    });
    expect(terminalChooserStore.question).toBeNull();
  });

  it('asks which when several configurations have the terminal on, listing only those, and opens nothing yet', async () => {
    const { built, navigate, applyContext } = services([webShop, postal, telephone], webShopContext);
    await command.run(built, { beside: true });
    expect(navigate).not.toHaveBeenCalled();
    expect(applyContext).not.toHaveBeenCalled();
    expect(terminalChooserStore.question?.merchantName).toBe('Alpha Online');
    expect(terminalChooserStore.question?.beside).toBe(true);
    expect(terminalChooserStore.question?.configurations.map((item) => item.configurationId)).toEqual(['C3', 'C2']);
  });

  it('says plainly that no configuration has the terminal on, and opens none', async () => {
    const { built, navigate, toast } = services([webShop], webShopContext);
    await command.run(built, {});
    expect(navigate).not.toHaveBeenCalled();
    expect(terminalChooserStore.question).toBeNull();
    expect(toast).toHaveBeenCalledWith({ kind: 'warning', message: 'No configuration of Alpha Online has the virtual terminal turned on.' });
  });

  it('opens the applied configuration at once when its terminal is on (the one the user chose to work in)', async () => {
    const applied = { ...webShopContext, configuration: { id: 'C2', title: 'Alpha Telephone Orders', switches: { virtualTerminalMenuEnabled: true } } };
    const { built, navigate, get, applyContext } = services([webShop, telephone, postal], applied);
    await command.run(built, {});
    expect(get).not.toHaveBeenCalled();
    expect(applyContext).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/configurations/C2/virtual-terminal', { beside: false });
  });

  it('reads every page of a merchant with many configurations', async () => {
    const many = [...Array.from({ length: 120 }, (_, index) => configuration(`W${index}`, `Web ${index}`, false)), telephone];
    const { built, navigate, get } = services(many, webShopContext);
    await command.run(built, {});
    expect(get).toHaveBeenCalledTimes(2);
    expect(navigate).toHaveBeenCalledWith('/configurations/C2/virtual-terminal', { beside: false });
  });
});

describe('terminalChoice', () => {
  it.each([
    [[], 'none'],
    [[telephone], 'open'],
    [[telephone, postal], 'ask'],
  ] as const)('%j → %s', (enabled, kind) => {
    expect(terminalChoice(enabled).kind).toBe(kind);
  });
});
