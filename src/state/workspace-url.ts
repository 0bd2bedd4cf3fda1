// The workspace layout lives in the URL, so every layout is a link: the focused pane owns the address-bar
// path (and its own query), the whole row travels in `panes`, one entry per pane in order, each an encoded
// path, with `_` standing for the focused pane.
//   /transactions?panes=%2Fdashboard,_          → [/dashboard, /transactions*]
//   /dashboard                                  → [/dashboard*]

export const maxPanes = 4;
export const panesParam = 'panes';
const focusedMarker = '_';
const maxPathLength = 2048;

export type WorkspaceLayout = { paths: string[]; focused: number };

/** A pane path is a same-origin absolute path: '/x', never '//host' or a backslash trick. */
export function isPanePath(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a path from the address bar with a control character in it is refused
  return value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') && value.length <= maxPathLength && !/[\u0000-\u001f]/.test(value);
}

/** Splits '?a=1&panes=x,_&b=2' into the panes value (raw) and the remaining query. */
function splitSearch(search: string): { panes: string | null; rest: string } {
  const parts = search.replace(/^\?/, '').split('&').filter(Boolean);
  let panes: string | null = null;
  const rest: string[] = [];
  for (const part of parts) {
    if (part.startsWith(`${panesParam}=`)) panes = part.slice(panesParam.length + 1);
    else rest.push(part);
  }
  return { panes, rest: rest.length > 0 ? `?${rest.join('&')}` : '' };
}

function splitUrl(url: string): { pathname: string; search: string } {
  const hashless = url.split('#')[0] ?? '';
  const index = hashless.indexOf('?');
  return index === -1 ? { pathname: hashless, search: '' } : { pathname: hashless.slice(0, index), search: hashless.slice(index) };
}

/** A pane's own path without any `panes` parameter. */
export function stripPanesParam(path: string): string {
  const { pathname, search } = splitUrl(path);
  return pathname + splitSearch(search).rest;
}

export function decodeWorkspace(url: string): WorkspaceLayout {
  const { pathname, search } = splitUrl(url);
  const { panes, rest } = splitSearch(search);
  const focusedPath = isPanePath(pathname) ? pathname + rest : '/dashboard';
  if (panes === null) return { paths: [focusedPath], focused: 0 };
  const paths: string[] = [];
  let focused = -1;
  for (const entry of panes.split(',')) {
    if (entry === focusedMarker) {
      if (focused === -1) {
        focused = paths.length;
        paths.push(focusedPath);
      }
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(entry);
    } catch {
      continue;
    }
    if (isPanePath(decoded)) paths.push(stripPanesParam(decoded));
  }
  if (focused === -1) {
    paths.unshift(focusedPath);
    focused = 0;
  }
  return capLayout({ paths, focused });
}

/** Keeps at most maxPanes panes, always keeping the focused one. */
function capLayout(layout: WorkspaceLayout): WorkspaceLayout {
  if (layout.paths.length <= maxPanes) return layout;
  const start = Math.min(Math.max(0, layout.focused - (maxPanes - 1)), layout.paths.length - maxPanes);
  return { paths: layout.paths.slice(start, start + maxPanes), focused: layout.focused - start };
}

export function encodeWorkspace(layout: WorkspaceLayout): string {
  const focusedPath = layout.paths[layout.focused] ?? layout.paths[0] ?? '/dashboard';
  if (layout.paths.length <= 1) return focusedPath;
  const entries = layout.paths.map((path, index) => (index === layout.focused ? focusedMarker : encodeURIComponent(path)));
  const separator = focusedPath.includes('?') ? '&' : '?';
  return `${focusedPath}${separator}${panesParam}=${entries.join(',')}`;
}
