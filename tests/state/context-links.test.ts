// The context page wraps the URL the person meant to open (every pane) in its `route`, once: wrapping is
// idempotent, nested `route=` values survive, and a link wrapped twice by older versions still leads where it named.
import { describe, expect, it } from 'vitest';
import { contextApplyPath, contextPagePath, queryParams, safeRoute, unwrapContextRoute } from '../../src/state/context-links.ts';
import { decodeWorkspace, encodeWorkspace } from '../../src/state/workspace-url.ts';

const routeOf = (contextUrl: string) => queryParams(contextUrl.slice(contextUrl.indexOf('?'))).get('route');

/** Four panes, each with its own state in its query, one of them carrying a `route=` of its own. */
const fourPanes = encodeWorkspace({
  paths: [
    '/transactions?status=%5Beq%5Dpaid&sort=-date',
    '/configurations/C-1/payments/PJ0001',
    '/reporting-overview?route=%2Ftransactions%3Fa%3D1&tab=2',
    '/tickets/TK-7?comment=c%2C1',
  ],
  focused: 2,
});

describe('context page links', () => {
  it('round-trips a four-pane workspace URL through the context page, every pane and its state intact', () => {
    const wrapped = contextPagePath(fourPanes);
    expect(wrapped.startsWith('/context?route=%2F')).toBe(true);
    expect(routeOf(wrapped)).toBe(fourPanes);
    expect(safeRoute(routeOf(wrapped))).toBe(fourPanes);
    expect(decodeWorkspace(safeRoute(routeOf(wrapped)))).toEqual(decodeWorkspace(fourPanes));
    // The context page is one pane of its own: the layout it keeps is in its route, not in `panes`.
    expect(decodeWorkspace(wrapped)).toEqual({ paths: [wrapped], focused: 0 });
  });

  it('never wraps a context page in itself', () => {
    const once = contextPagePath(fourPanes);
    expect(contextPagePath(once)).toBe(once);
    expect(contextPagePath(contextPagePath(once))).toBe(once);
    expect(contextPagePath(contextApplyPath(fourPanes, { business: { id: 'B1', title: 'Alpha' } }))).toBe(once);
  });

  it('unwraps a link wrapped twice (by hand or by an older version) to the route it named', () => {
    const twice = `/context?${new URLSearchParams({ route: `/context?${new URLSearchParams({ route: fourPanes }).toString()}` }).toString()}`;
    expect(unwrapContextRoute(twice)).toBe(fourPanes);
    expect(safeRoute(routeOf(twice))).toBe(fourPanes);
    expect(contextPagePath(twice)).toBe(contextPagePath(fourPanes));
  });

  it('keeps a pane’s own route= value (a pane query, not a context page) as it is', () => {
    const path = '/reporting-overview?route=%2Fcontext%3Froute%3D%252Fx';
    expect(safeRoute(path)).toBe(path);
    expect(routeOf(contextPagePath(path))).toBe(path);
  });

  it('lands on the dashboard for a context page without a route, or wrapped beyond reason', () => {
    expect(safeRoute('/context')).toBe('/dashboard');
    expect(safeRoute('/context?route=')).toBe('/dashboard');
    let deep = '/x';
    for (let depth = 0; depth < 12; depth += 1) deep = `/context?${new URLSearchParams({ route: deep }).toString()}`;
    expect(safeRoute(deep)).toBe('/dashboard');
  });

  it('marks the page that must show the picker', () => {
    expect(contextPagePath('/users', { choose: true })).toBe('/context?route=%2Fusers&choose=1');
  });
});
