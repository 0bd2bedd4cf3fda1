// The imports of every screen but the first ones (src/app/routes.ts areaPane): each screen module a chunk of its own,
// found by its file name, so the entry carries a module and export name per screen rather than its import and the
// list of chunks each one preloads, and a new screen needs no line here.
import type { ComponentType } from 'react';
import type { PaneProps } from '../state/pane-scope.tsx';

type PaneModule = Promise<{ default: ComponentType<PaneProps> }>;

/** panes/<area>/<name>-pane.tsx and <name>-panes.tsx, and the invitation page of src/app. */
const screenModules = import.meta.glob<Record<string, unknown>>(['../../panes/*/*-pane.tsx', '../../panes/*/*-panes.tsx', './user-invite-route.tsx']);

/** 'customers/customers-pane' (under panes/) or './user-invite-route' (src/app), and the component it exports. */
export function loadAreaPane(module: string, name: string): PaneModule {
  const load = screenModules[module.startsWith('./') ? `${module}.tsx` : `../../panes/${module}.tsx`];
  if (!load) return Promise.reject(new Error(`No screen module '${module}'`));
  return load().then((loaded) => {
    const component = loaded[name];
    if (typeof component !== 'function') throw new Error(`'${module}' exports no screen '${name}'`);
    return { default: component as ComponentType<PaneProps> };
  });
}
