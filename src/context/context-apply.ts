// What /context/apply does before the context is applied: read the link, check every selection against the
// contract, and make the titles and flags trustworthy. The panel's own links need no call (it cached what the
// lists said); a link from elsewhere (a palette command, a bookmark) is looked up, so a business outside the
// user's policy or a made-up title never reaches the header.
import { isContextSelections } from '../contract/context-checks.ts';
import type { ContextSelections } from '../contract/context.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import { queryParams, readApplyQuery } from './context-apply-url.ts';
import type { ContextDataSource } from './context-data.ts';
import { isValidSelection } from './context-rules.ts';
import { contextMessages } from './context-messages.ts';

export type ResolvedApply = { ok: true; route: string; selections: ContextSelections; remember: boolean } | { ok: false; route: string; message: string };

const emptyConfiguration = { id: null, title: '', switches: { virtualTerminalMenuEnabled: false } };

export async function resolveApplyRequest(search: string, deps: { data: ContextDataSource; policy: AuthorizationPolicy | null }): Promise<ResolvedApply> {
  const read = readApplyQuery(search);
  const route = 'route' in read ? read.route : '/dashboard';
  const fail = (message: string = contextMessages.recordNotFound): ResolvedApply => ({ ok: false, route, message });
  if ('error' in read) return fail();
  const parsed = read.raw;
  if (!isContextSelections(parsed)) return fail();
  const selections: ContextSelections = {};
  try {
    const { partner, business, merchant, configuration } = parsed;
    if (partner) {
      const partnerPolicy = deps.policy?.partnerPolicy;
      if (partner.id !== null && partner.id !== partnerPolicy?.partnerId) return fail();
      selections.partner = partner.id === null ? { id: null, title: '' } : { id: partner.id, title: partnerPolicy?.partnerName ?? partner.title };
    }
    if (business) {
      if (business.id === null) {
        selections.business = { id: null, title: '' };
      } else {
        const found = await deps.data.business(business.id);
        selections.business = { id: found.id, title: found.name, camAutoRemittance: found.camAutoRemittance };
      }
    }
    if (merchant) {
      const businessId = selections.business?.id;
      if (merchant.id === null) {
        selections.merchant = { id: null, title: '' };
      } else {
        if (!businessId) return fail();
        const found = await deps.data.merchant(businessId, merchant.id);
        selections.merchant = { id: found.id, title: found.name, grossSettlement: found.grossSettlement, currencies: [...found.currencies] };
      }
    }
    const businessId = selections.business?.id;
    const merchantId = selections.merchant?.id;
    if (businessId && merchantId) {
      if (configuration) {
        selections.configuration = configuration;
      } else {
        // A link without a configuration (a saved context): the first one, or none on none or error.
        const first = await deps.data.configurations(businessId, merchantId).then(
          (list) => list[0],
          () => undefined,
        );
        selections.configuration = first ? { id: first.configurationId, title: first.tradeName, switches: { ...first.switches } } : emptyConfiguration;
      }
    }
  } catch {
    return fail();
  }
  if (!isValidSelection(selections, deps.policy ?? undefined)) return fail();
  return { ok: true, route, selections, remember: queryParams(search).get('recent') === '1' };
}
