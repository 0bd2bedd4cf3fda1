// The caller's authorisation policy (GET /user/policy-structure) and permission lists.
import { type } from 'arktype';

export const merchantPolicySchema = type({
  businessId: 'string',
  merchantId: 'string',
  merchantName: 'string',
  roles: 'string[]',
});

export const businessPolicySchema = type({
  businessId: 'string',
  businessName: 'string',
  roles: 'string[]',
  merchantPolicies: merchantPolicySchema.array(),
});

export const partnerPolicySchema = type({ partnerId: 'string', partnerName: 'string', roles: 'string[]' });

export const policyStructureSchema = type({
  portalPolicy: {
    roles: 'string[]',
    partnerPolicy: partnerPolicySchema.or('null'),
    businessPolicies: businessPolicySchema.array(),
  },
});

export type MerchantPolicy = typeof merchantPolicySchema.infer;
export type BusinessPolicy = typeof businessPolicySchema.infer;
export type PartnerPolicy = typeof partnerPolicySchema.infer;
export type PolicyStructure = typeof policyStructureSchema.infer;
export type AuthorizationPolicy = PolicyStructure['portalPolicy'];

/** GET /user/permissions and its partner, business and merchant variants. */
export const permissionListSchema = type({ permissions: 'string[]' });
export type PermissionList = typeof permissionListSchema.infer;

export const userInfoSchema = type({
  sub: 'string',
  'email?': 'string',
  'given_name?': 'string',
  'family_name?': 'string',
  'name?': 'string',
});
export type UserInfo = typeof userInfoSchema.infer;
