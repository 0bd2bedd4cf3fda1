// Users, roles and identity: the user list's declared filters and orderings, role groups, the policy rules shared by
// the server (enforcement) and the client (the form offers only what the server would accept), and the messages.
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';
import { roleKinds, roleNames, type RoleName } from './permissions.ts';

export const userStatuses = ['active', 'invited', 'locked'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const maxInviteEmails = 25;
export const invitationValidityDays = 7;
export const passwordResetValidityMinutes = 15;
export const minPasswordLength = 12;
/** zxcvbn score (0–4) a new password needs. */
export const minPasswordScore = 3;
export const userLanguages = ['en-GB'] as const;

const idPattern = { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'an id' } as const;
const textPattern = { pattern: /^[^\u0000-\u001f\u007f]{1,100}$/, description: '1 to 100 printable characters' } as const;

/** Filters of GET /user/users by lower-cased name; name and email match by prefix or contained text, case-insensitively. */
export const userFilters = {
  name: { kind: textPattern, operators: ['eq'] },
  email: { kind: textPattern, operators: ['eq'] },
  role: { kind: { oneOf: roleNames }, operators: ['eq'] },
  business: { kind: idPattern, operators: ['eq'] },
  merchant: { kind: idPattern, operators: ['eq'] },
  locked: { kind: 'boolean', operators: ['eq'] },
  status: { kind: { oneOf: userStatuses }, operators: ['eq'] },
  internal: { kind: 'boolean', operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

export const userSortFields = ['name', 'email', 'created', 'lastSignIn'] as const;

export const userListSpec: ListQuerySpec = {
  filters: userFilters,
  sortable: userSortFields,
  defaultSort: [{ field: 'name', descending: false }],
};

/** Role groups for user administration: named sets of roles the user form offers, each for business and/or merchant targets. */
export type RoleGroupTarget = 'business' | 'merchant';
export type RoleGroup = { id: string; name: string; roles: readonly RoleName[]; targets: readonly RoleGroupTarget[] };

export const roleGroups: readonly RoleGroup[] = [
  { id: 'administrator', name: 'Administrator', roles: ['Owner'], targets: ['business'] },
  { id: 'finance', name: 'Finance', roles: ['Finance'], targets: ['business', 'merchant'] },
  { id: 'finance-and-sales', name: 'Finance and sales', roles: ['Finance', 'Sales'], targets: ['business', 'merchant'] },
  { id: 'developer', name: 'Developer', roles: ['ExternalDeveloper'], targets: ['business', 'merchant'] },
  { id: 'virtual-terminal-operator', name: 'Virtual terminal operator', roles: ['VirtualTerminal'], targets: ['business', 'merchant'] },
];

/** Spec: a role group applies only if all its roles are held and the group is allowed for the target kind. */
export function roleGroupApplies(group: RoleGroup, heldRoles: readonly string[], target: RoleGroupTarget): boolean {
  return group.targets.includes(target) && group.roles.every((role) => heldRoles.includes(role));
}

export function roleAllowedAt(role: string, level: 'root' | 'partner' | 'business' | 'merchant'): boolean {
  const kinds = roleKinds[role as RoleName];
  if (!kinds) return false;
  if (level === 'root') return kinds.includes('internal');
  // A partner-level role reaches every business of the partner: business roles only.
  if (level === 'partner') return kinds.includes('business');
  return kinds.includes(level);
}

export const userMessages = {
  needsBusiness: 'A user needs at least one business.',
  inviteFailed: 'Something went wrong with submission of your request',
  linkExpired: 'Oops that link has expired.',
  inviteAccepted: 'Your account is ready. We have sent you a welcome email; signing you in now.',
  emailDeleted: 'This email address belonged to a deleted user and cannot be registered again.',
  emailExists: 'A user with this email address already exists.',
  deleteAcknowledgements: 'Deleting a user needs both acknowledgements: the user loses access, and the email address cannot register again.',
  resetRequested: 'If an account exists for this email address, we have sent it a link to reset the password. The link is valid for 15 minutes.',
  resetDone: 'Your password has been changed. You can now sign in.',
  tooManyRequests: 'Too many requests. Please wait a few minutes and try again.',
  wrongCurrentPassword: 'The current password is not correct.',
  emailChangeNeedsPassword: 'Enter your current password to change your email address.',
  wrongCode: 'That code is not right.',
  cannotDeleteSelf: 'You cannot delete your own account.',
  cannotLockSelf: 'You cannot lock your own account.',
} as const;

export const businessNeedsRoleMessage = (businessName: string) => `${businessName} needs at least one business or merchant role.`;
export const lockedUntilMessage = (until: string) => `Locked until ${until}`;

/**
 * Why a sign-in (or a step-up) was refused, as a user's audit events name it (GET /users/{id}/audit-events): the
 * 'Sign-in and security' tab tells a refusal of a locked account from a wrong password.
 */
export const signInRefusalReasons = ['locked', 'wrongPassword', 'wrongCode', 'wrongSecondFactorCodes'] as const;
export type SignInRefusalReason = (typeof signInRefusalReasons)[number];
export const signInRefusalLabels: Record<SignInRefusalReason, string> = {
  locked: 'refused: the account is locked',
  wrongPassword: 'wrong password',
  wrongCode: 'wrong two-factor code',
  wrongSecondFactorCodes: 'too many wrong two-factor codes',
};

/** The overview keeps its state in the pane's address with the table kit's OrderingField/OrderingDirection. */
export const userListUrlSpec: ListQuerySpec = { ...userListSpec, sortStyle: 'ordering' };

export const statusLabels: Record<UserStatus, string> = { active: 'Active', invited: 'Invited', locked: 'Locked' };

/** Columns of a users export (bulk 'export', My report queue); the overview's column ids where they match. */
export const userExportColumns = ['userId', 'name', 'email', 'status', 'roles', 'businesses', 'lastSignIn', 'created', 'lockedUntil'] as const;
export type UserExportColumn = (typeof userExportColumns)[number];
export const userExportColumnLabels: Record<UserExportColumn, string> = {
  userId: 'User ID',
  name: 'Name',
  email: 'Email',
  status: 'Status',
  roles: 'Roles',
  businesses: 'Businesses',
  lastSignIn: 'Last sign-in',
  created: 'Created',
  lockedUntil: 'Locked until',
};
