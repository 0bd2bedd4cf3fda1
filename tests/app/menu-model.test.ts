// The side menu from the route table: documented order, permission filtering, per-item conditions.
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../commands/command.ts';
import { createAppRegistry } from '../../src/app/app-registry.ts';
import { buildMenu } from '../../src/app/menu-model.ts';
import { baseContext } from './support.tsx';

const registry = createAppRegistry();
const everything = registry.all().flatMap((command) => command.permissions ?? []);
const merchantContext: CommandContext['context'] = {
  partnerId: null,
  businessId: 'B1',
  merchantId: 'M1',
  configurationId: 'C1',
  virtualTerminalMenuEnabled: true,
  camAutoRemittance: false,
  grossSettlement: true,
};

describe('buildMenu', () => {
  it('shows the sections in the documented order and indices', () => {
    const sections = buildMenu(baseContext({ permissions: everything, context: merchantContext }), registry);
    expect(sections.map((section) => [section.label, section.index])).toEqual([
      ['Dashboard', 10],
      ['Transactions', 30],
      ['Reporting', 40],
      ['Configuration', 51],
      ['Business', 60],
      ['Virtual terminal', 65],
      ['Users', 70],
      ['Watch list', 90],
      ['Support', 100],
      ['Partners', 150],
    ]);
  });

  it('hides billing with a business selected and configurations with a configuration selected', () => {
    const labels = (context: typeof merchantContext) => buildMenu(baseContext({ permissions: everything, context }), registry).map((section) => section.label);
    expect(labels(merchantContext)).not.toContain('Billing');
    expect(labels(merchantContext)).not.toContain('Configurations');
    const none = { ...merchantContext, businessId: null, merchantId: null, configurationId: null, virtualTerminalMenuEnabled: null };
    expect(labels(none)).toContain('Billing');
    expect(labels(none)).toContain('Configurations');
  });

  it('hides the virtual terminal when the configuration switches it off', () => {
    const sections = buildMenu(baseContext({ permissions: everything, context: { ...merchantContext, virtualTerminalMenuEnabled: false } }), registry);
    expect(sections.map((section) => section.label)).not.toContain('Virtual terminal');
  });

  it('filters entries by permission and fills paths from the context', () => {
    const sections = buildMenu(baseContext({ permissions: ['Portal.Moto.Create', 'Mapi.MerchantAccountGroups.Read'], context: merchantContext }), registry);
    expect(sections.map((section) => section.label)).toEqual(['Dashboard', 'Reporting', 'Business', 'Virtual terminal']);
    expect(sections.find((section) => section.id === 'business')?.entries.map((entry) => entry.label)).toEqual(['Merchant accounts']);
    expect(sections.find((section) => section.id === 'virtualTerminal')?.entries.map((entry) => entry.path)).toEqual(['/configurations/C1/virtual-terminal']);
    const reporting = sections.find((section) => section.id === 'reporting')?.entries.map((entry) => entry.label);
    expect(reporting).toContain('Business account');
    expect(reporting).toContain('Invoice account');
  });
});
