// Access rules beyond permission names, as pure functions of the command context: page access by role
// level (spec section 6) and the per-route conditions of the route table.
import type { CommandContext } from '../../commands/command.ts';
import type { AuthorizationPolicy } from '../contract/policy.ts';
import type { RouteCondition, RouteDefinition } from './routes.ts';

export type Access = NonNullable<CommandContext['access']>;

const noAccess: Access = { rootOrPartner: false, businessIds: [], merchantKeys: [] };

export function accessFromPolicy(policy: AuthorizationPolicy | null): Access {
  if (!policy) return noAccess;
  return {
    rootOrPartner: policy.roles.length > 0 || (policy.partnerPolicy?.roles.length ?? 0) > 0,
    businessIds: policy.businessPolicies.filter((business) => business.roles.length > 0).map((business) => business.businessId),
    merchantKeys: policy.businessPolicies.flatMap((business) =>
      business.merchantPolicies.filter((merchant) => merchant.roles.length > 0).map((merchant) => `${merchant.businessId}/${merchant.merchantId}`),
    ),
  };
}

/** A business page: any role at root, partner or business level. */
export function hasBusinessAccess(access: Access | undefined, businessId: string | undefined): boolean {
  const known = access ?? noAccess;
  return known.rootOrPartner || (businessId !== undefined && known.businessIds.includes(businessId));
}

/** A merchant page: likewise, or a role at merchant level. */
export function hasMerchantAccess(access: Access | undefined, businessId: string | undefined, merchantId: string | undefined): boolean {
  return (
    hasBusinessAccess(access, businessId) ||
    (businessId !== undefined && merchantId !== undefined && (access ?? noAccess).merchantKeys.includes(`${businessId}/${merchantId}`))
  );
}

export type ConditionResult = { ok: true } | { ok: false; failure: 'notFound' | 'noPermission' };

function check(condition: RouteCondition, ctx: CommandContext, params: Readonly<Record<string, string | undefined>>): ConditionResult {
  switch (condition.kind) {
    case 'camAutoRemittanceOff':
      return ctx.context.camAutoRemittance === false ? { ok: true } : { ok: false, failure: 'notFound' };
    case 'grossSettlement':
      return ctx.context.grossSettlement === true ? { ok: true } : { ok: false, failure: 'notFound' };
    case 'businessAccess':
      return hasBusinessAccess(ctx.access, params[condition.param]) ? { ok: true } : { ok: false, failure: 'noPermission' };
    case 'merchantAccess':
      return hasMerchantAccess(ctx.access, params[condition.businessParam], params[condition.merchantParam])
        ? { ok: true }
        : { ok: false, failure: 'noPermission' };
    default:
      return { ok: false, failure: 'notFound' };
  }
}

export function routeConditions(
  route: Pick<RouteDefinition, 'conditions'>,
  ctx: CommandContext,
  params: Readonly<Record<string, string | undefined>>,
): ConditionResult {
  for (const condition of route.conditions ?? []) {
    const result = check(condition, ctx, params);
    if (!result.ok) return result;
  }
  return { ok: true };
}

export function hasPermissions(route: Pick<RouteDefinition, 'permissions'>, permissions: readonly string[]): boolean {
  const held = new Set(permissions);
  return route.permissions.every((permission) => held.has(permission));
}
