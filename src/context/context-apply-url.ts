// The links of context selection. /context?route=… opens the panel as a page; /context/apply carries the route
// the user wants to reach and the selections, each as the JSON of its contract shape (id, title and the flags
// the shell needs), so the header shows names without another call:
//   /context/apply?route=%2Ftransactions&business={"id":"100001","title":"Harbour…","camAutoRemittance":false}
//     &merchant={"id":"…","title":"…","grossSettlement":false,"currencies":["GBP"]}
//     &configuration={"id":"…","title":"…","switches":{"virtualTerminalMenuEnabled":true}}
// A selection may be the empty one (id null). An absent configuration next to a merchant means "pick the first".
import { contextApplyPath, contextPagePath, queryParams, safeRoute, selectionKeys } from '../state/context-links.ts';

export { contextApplyPath, contextPagePath, queryParams, safeRoute };

export type ApplyRequest = { route: string; raw: Partial<Record<(typeof selectionKeys)[number], unknown>> };

/** Splits the query of /context/apply into the route and the raw (still unvalidated) selections. */
export function readApplyQuery(search: string): ApplyRequest | { error: string } {
  const params = queryParams(search);
  const raw: ApplyRequest['raw'] = {};
  for (const key of selectionKeys) {
    const text = params.get(key);
    if (text === null) continue;
    try {
      raw[key] = JSON.parse(text) as unknown;
    } catch {
      return { error: `${key} is not valid` };
    }
  }
  return { route: safeRoute(params.get('route')), raw };
}
