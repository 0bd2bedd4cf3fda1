// Every screen the route table names by module and export (src/app/routes.ts areaPane) is found by area-panes.ts and
// is a component: a misspelt module or export fails here rather than on the screen.
import { describe, expect, it } from 'vitest';
import { loadAreaPane } from '../../src/app/area-panes.ts';
import { areaPaneModules } from '../../src/app/routes.ts';

describe('the screens the route table loads by name', () => {
  it('names each screen once', () => {
    const named = areaPaneModules.map(({ module, name }) => `${module}#${name}`);
    expect(named.length).toBeGreaterThan(50);
    expect(new Set(named).size).toBe(named.length);
  });

  it.each(areaPaneModules.map(({ module, name }) => [module, name]))('%s exports %s', async (module, name) => {
    const loaded = await loadAreaPane(module, name);
    expect(typeof loaded.default).toBe('function');
  });

  it('refuses a module or an export that is not there', async () => {
    await expect(loadAreaPane('customers/no-such-pane', 'CustomersPane')).rejects.toThrow("No screen module 'customers/no-such-pane'");
    await expect(loadAreaPane('customers/customers-pane', 'NoSuchPane')).rejects.toThrow("'customers/customers-pane' exports no screen 'NoSuchPane'");
  });
});
