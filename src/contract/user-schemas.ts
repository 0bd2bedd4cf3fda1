// The users contract's schemas (arktype): user list and detail answers, the policy a user is given, and the request
// bodies of every user call (invite, update, own profile, lock, delete, invitation acceptance, password reset).
import { type } from 'arktype';
import { roleNames } from './permissions.ts';
import { maxInviteEmails, signInRefusalReasons, userLanguages, userStatuses } from './users.ts';

const isoDateTime = 'string.date.iso';
const id = /^[A-Za-z0-9_-]{1,64}$/;
const name = type('string.trim').pipe((value, ctx) =>
  value.length >= 1 && value.length <= 100 && !/[\u0000-\u001f\u007f]/.test(value) ? value : ctx.error('a name of 1 to 100 printable characters'),
);
const email = type('string.trim').pipe((value, ctx) =>
  value.length <= 254 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/.test(value) ? value.toLowerCase() : ctx.error('an email address'),
);
const role = type.enumerated(...roleNames);
const roles = role.array().atMostLength(roleNames.length);

export const merchantPolicyInput = type({ merchantId: id, roles });
export const businessPolicyInput = type({ businessId: id, roles, merchantPolicies: merchantPolicyInput.array().atMostLength(500) });
export const partnerPolicyInput = type({ partnerId: id, roles });
/** The access a user is given: root roles (internal users), a partner policy, business policies with merchant policies. */
export const policyInput = type({
  roles,
  'partnerPolicy?': partnerPolicyInput.or('null'),
  businessPolicies: businessPolicyInput.array().atMostLength(500),
});
export type PolicyInput = typeof policyInput.infer;

export const inviteUsersBody = type({
  emails: email.array().moreThanLength(0).atMostLength(maxInviteEmails),
  policy: policyInput,
});
export type InviteUsersBody = typeof inviteUsersBody.infer;

export const updateUserBody = type({
  version: 'number.integer >= 1',
  givenName: name,
  familyName: name,
  'phoneNumber?': type('string <= 32').or('null'),
  policy: policyInput,
});
export type UpdateUserBody = typeof updateUserBody.infer;

export const updateOwnProfileBody = type({
  version: 'number.integer >= 1',
  'givenName?': name,
  'familyName?': name,
  'phoneNumber?': type('string <= 32').or('null'),
  'language?': type.enumerated(...userLanguages),
  'email?': email,
  /** needed with a new email unless the session stepped up within the last minutes */
  'currentPassword?': 'string <= 1024',
});
export type UpdateOwnProfileBody = typeof updateOwnProfileBody.infer;

export const userLoginBody = type({ version: 'number.integer >= 1', locked: 'boolean', 'lockoutEndDateUtc?': type(isoDateTime).or('null') });
export type UserLoginBody = typeof userLoginBody.infer;

export const deleteUserBody = type({
  version: 'number.integer >= 1',
  acknowledgeAccessLoss: 'boolean',
  acknowledgeEmailBlocked: 'boolean',
});
export type DeleteUserBody = typeof deleteUserBody.infer;

export const partnerUserBody = type({
  version: 'number.integer >= 1',
  roles,
});
export const invitePartnerUsersBody = type({ emails: email.array().moreThanLength(0).atMostLength(maxInviteEmails), roles });

export const acceptInvitationBody = type({
  inviteId: 'string <= 200',
  givenName: name,
  familyName: name,
  password: 'string <= 1024',
});
export type AcceptInvitationBody = typeof acceptInvitationBody.infer;
/** The invitation page asks what an invitation is for with its secret in the body, never in a logged path. */
export const invitationLookupBody = type({ inviteId: 'string <= 200' });

export const passwordResetRequestBody = type({ email: 'string <= 320' });
export const passwordResetBody = type({ token: 'string <= 200', password: 'string <= 1024' });
export const changePasswordBody = type({ currentPassword: 'string <= 1024', newPassword: 'string <= 1024' });

const merchantPolicy = type({ businessId: 'string', merchantId: 'string', merchantName: 'string', roles: 'string[]' });
const businessPolicy = type({ businessId: 'string', businessName: 'string', roles: 'string[]', merchantPolicies: merchantPolicy.array() });

export const userListItem = type({
  userId: 'string',
  email: 'string',
  givenName: 'string',
  familyName: 'string',
  status: type.enumerated(...userStatuses),
  internal: 'boolean',
  roles: 'string[]',
  businessNames: 'string[]',
  lockoutEndDateUtc: type(isoDateTime).or('null'),
  lastSignInUtc: type(isoDateTime).or('null'),
  createdUtc: isoDateTime,
});
export type UserListItem = typeof userListItem.infer;

export const userList = type({ results: userListItem.array(), numberOfResults: 'number' });
export type UserList = typeof userList.infer;

export const invitationState = type({
  invitationId: 'string',
  createdUtc: isoDateTime,
  expiresUtc: isoDateTime,
  state: "'pending' | 'expired' | 'accepted' | 'revoked'",
});

export const userDetail = type({
  userId: 'string',
  email: 'string',
  givenName: 'string',
  familyName: 'string',
  phoneNumber: 'string | null',
  language: 'string',
  status: type.enumerated(...userStatuses),
  internal: 'boolean',
  version: 'number',
  lockoutEndDateUtc: type(isoDateTime).or('null'),
  passwordExpiresUtc: type(isoDateTime).or('null'),
  lastSignInUtc: type(isoDateTime).or('null'),
  createdUtc: isoDateTime,
  invitation: invitationState.or('null'),
  policyStructure: {
    portalPolicy: {
      roles: 'string[]',
      partnerPolicy: type({ partnerId: 'string', partnerName: 'string', roles: 'string[]' }).or('null'),
      businessPolicies: businessPolicy.array(),
    },
  },
  /** what the caller may do with this user (the server checks again on every write) */
  allowed: { update: 'boolean', lock: 'boolean', delete: 'boolean', resetPassword: 'boolean', resetSecondFactor: 'boolean' },
  secondFactor: "'off' | 'pending' | 'on'",
});
export type UserDetail = typeof userDetail.infer;

export const invitedUsers = type({ users: type({ userId: 'string', email: 'string' }).array() });

export const invitationPreview = type({ email: 'string', givenName: 'string', familyName: 'string', expiresUtc: isoDateTime });

export const roleGroupList = type({ results: type({ id: 'string', name: 'string', roles: 'string[]', targets: "('business' | 'merchant')[]" }).array() });

export const secondFactorCodeBody = type({ code: 'string <= 32' });
/** Turning two-factor sign-in off asks for the current password as well as a code. */
export const secondFactorRemovalBody = type({ currentPassword: 'string <= 1024', code: 'string <= 32' });
export const secondFactorEnrolmentBody = type({ currentPassword: 'string <= 1024' });
export const secondFactorStatus = type({ status: "'off' | 'pending' | 'on'", recoveryCodesLeft: 'number' });
export const secondFactorEnrolment = type({ otpauthUri: 'string', secret: 'string', qrCodeDataUrl: 'string' });
export const recoveryCodes = type({ recoveryCodes: 'string[]' });
/** clientAddress: where a sign-in, step-up or security change came from, null for other events; reason: why a sign-in was refused */
export const userAuditEvents = type({
  results: type({
    event: 'string',
    dateTimeUtc: 'string',
    actor: 'string',
    'clientAddress?': 'string | null',
    'reason?': type.enumerated(...signInRefusalReasons).or('null'),
  }).array(),
});
export const userSessions = type({ results: type({ signedInUtc: 'string | null', expiresUtc: 'string | null' }).array() });
export const signOutEverywhereBody = type({ confirm: 'true' });
export const stepUpBody = type({ password: 'string <= 1024', 'code?': 'string <= 32' });
export const stepUpAnswer = type({ validUntilUtc: 'string' });
