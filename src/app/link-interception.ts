// Same-origin links open in the workspace: a plain click in the pane that holds the link (the focused pane
// for links outside panes), Shift-, Ctrl- or Cmd-click in a new pane beside it. Middle clicks, links with a
// target or a download, other origins and in-page anchors are left to the browser.
import { useEffect } from 'react';
import { openPath } from './app-navigation.ts';

export function linkTarget(event: MouseEvent): { path: string; paneId: string | null; beside: boolean } | null {
  if (event.defaultPrevented || event.button !== 0 || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  if (anchor.hasAttribute('download')) return null;
  const raw = anchor.getAttribute('href') ?? '';
  if (raw.startsWith('#')) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/connect')) return null;
  const pane = anchor.closest('[data-pane-id]');
  return {
    path: `${url.pathname}${url.search}`,
    paneId: pane?.getAttribute('data-pane-id') ?? null,
    beside: event.shiftKey || event.ctrlKey || event.metaKey,
  };
}

export function useLinkInterception(): void {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = linkTarget(event);
      if (!target) return;
      event.preventDefault();
      void openPath(target.path, { beside: target.beside, ...(target.paneId ? { paneId: target.paneId } : {}) });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);
}
