// /context?route=…: the panel as a page, leading to the route the user wanted (kept through sign-in).
// A pane gets its own query as `search`; outside the workspace the browser's is read.
import { useSearch } from 'wouter';
import { queryParams, safeRoute } from './context-apply-url.ts';
import { ContextSelectionPanel } from './context-selection-panel.tsx';

export function ContextPage({ search }: { search?: string }) {
  const browserSearch = useSearch();
  const route = safeRoute(queryParams(search ?? browserSearch).get('route'));
  return <ContextSelectionPanel mode="page" preferredRoute={route} />;
}
