// The layout lives in the URL: encoding and decoding are inverse, and junk never becomes a pane.
import { describe, expect, it } from 'vitest';
import { decodeWorkspace, encodeWorkspace, isPanePath, maxPanes, stripPanesParam, type WorkspaceLayout } from '../../src/state/workspace-url.ts';

describe('workspace URL', () => {
  it.each<[WorkspaceLayout, string]>([
    [{ paths: ['/dashboard'], focused: 0 }, '/dashboard'],
    [{ paths: ['/dashboard', '/transactions'], focused: 1 }, '/transactions?panes=%2Fdashboard,_'],
    [{ paths: ['/dashboard', '/transactions'], focused: 0 }, '/dashboard?panes=_,%2Ftransactions'],
    [
      { paths: ['/transactions?status=paid&sort=-date', '/transactions/T-1,2'], focused: 0 },
      '/transactions?status=paid&sort=-date&panes=_,%2Ftransactions%2FT-1%2C2',
    ],
    [{ paths: ['/a', '/b', '/c', '/d'], focused: 2 }, '/c?panes=%2Fa,%2Fb,_,%2Fd'],
  ])('encodes %j as %s and back', (layout, url) => {
    expect(encodeWorkspace(layout)).toBe(url);
    expect(decodeWorkspace(url)).toEqual(layout);
  });

  it('round-trips paths with queries, commas, spaces and unicode', () => {
    const layout = { paths: ['/users?search=a%20b', '/business/B 1/merchants/M,1', '/tickets?q=%E2%82%AC'], focused: 1 };
    expect(decodeWorkspace(encodeWorkspace(layout))).toEqual(layout);
  });

  it('treats a URL without panes as one pane', () => {
    expect(decodeWorkspace('/configurations/C1?tab=2')).toEqual({ paths: ['/configurations/C1?tab=2'], focused: 0 });
  });

  it('drops entries that are not same-origin paths', () => {
    const url = `/dashboard?panes=_,${encodeURIComponent('https://evil.test/x')},${encodeURIComponent('//evil.test')},%E0%A4%A,${encodeURIComponent('/users')}`;
    expect(decodeWorkspace(url)).toEqual({ paths: ['/dashboard', '/users'], focused: 0 });
  });

  it('puts the focused pane first when the marker is missing', () => {
    expect(decodeWorkspace(`/users?panes=${encodeURIComponent('/dashboard')}`)).toEqual({ paths: ['/users', '/dashboard'], focused: 0 });
  });

  it('keeps at most four panes, always with the focused one', () => {
    const url = `/f?panes=${['/a', '/b', '/c', '/d', '/e'].map(encodeURIComponent).join(',')},_`;
    const layout = decodeWorkspace(url);
    expect(layout.paths).toHaveLength(maxPanes);
    expect(layout.paths[layout.focused]).toBe('/f');
  });

  it('never nests a panes parameter inside a pane', () => {
    const inner = encodeURIComponent('/users?panes=%2Fx,_');
    expect(decodeWorkspace(`/dashboard?panes=_,${inner}`).paths).toEqual(['/dashboard', '/users']);
    expect(stripPanesParam('/a?x=1&panes=_,%2Fb&y=2')).toBe('/a?x=1&y=2');
  });

  it.each([
    ['/dashboard', true],
    ['/', true],
    ['//evil.test', false],
    ['https://evil.test', false],
    ['/\\evil', false],
    ['relative', false],
  ])('isPanePath(%s) is %s', (path, expected) => {
    expect(isPanePath(path)).toBe(expected);
  });
});
