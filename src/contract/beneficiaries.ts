// Beneficiaries of a business and their sanctions/PEP screening: list spec, labels, messages.
// Schemas (arktype) in beneficiary-schemas.ts.
import { beneficiaryStatuses } from './enumerations.ts';
import type { ListQuerySpec } from './list-query.ts';

export const beneficiaryKinds = ['company', 'person'] as const;
export type BeneficiaryKind = (typeof beneficiaryKinds)[number];
export type BeneficiaryStatusName = (typeof beneficiaryStatuses)[number];

export const screeningAlertStatuses = ['open', 'confirmed', 'dismissed'] as const;
export type ScreeningAlertStatusName = (typeof screeningAlertStatuses)[number];
export const screeningAlertStatusLabels: Record<ScreeningAlertStatusName, string> = {
  open: 'Open',
  confirmed: 'Confirmed match',
  dismissed: 'Dismissed (false positive)',
};

export const screeningSensitivityNames = ['low', 'medium', 'high'] as const;

/** Spec: 'Beneficiary setup without permission directs the user to the business owner.' */
export const askBusinessOwnerMessage = 'You do not have permission to set up beneficiaries. Please ask the business owner.';
export const fourEyesMessage = 'A beneficiary must be approved by someone other than the person who created or last changed it.';
export const openAlertsMessage = 'This beneficiary has screening alerts that are open or confirmed: it cannot be approved.';
/** The second approver is an established, independent person: not someone its creator (or last changer) just invited. */
export const independentApproverMessage = 'A beneficiary is approved by a second person who was not invited by its creator in the last 7 days.';
export const approverTwoFactorMessage = 'Approving a beneficiary needs a sign-in with two-factor authentication.';
/** How recently invited by the creator a second approver may not be. */
export const independentApproverDays = 7;

export const beneficiaryListSpec: ListQuerySpec = {
  filters: {
    status: { kind: { oneOf: beneficiaryStatuses }, operators: ['eq'] },
    kind: { kind: { oneOf: beneficiaryKinds }, operators: ['eq'] },
  },
  sortable: ['created', 'name', 'status'],
  defaultSort: [{ field: 'created', descending: true }],
};

/** The status a beneficiary waits in for its four-eyes approval. */
export const pendingApprovalStatus: BeneficiaryStatusName = 'Referred';

/**
 * The approval queue across businesses (GET /beneficiary-approvals): beneficiaries awaiting approval in every business
 * the caller reads. businessid: one or several ([eq]A[and][eq]B, any of them); created: the creation date range;
 * agedays: whole days waiting ([gte]7 = older than a week); openalerts: whether a screening alert is still open.
 * Sort by age (descending: the longest waiting first, the default) or by business name.
 */
export const beneficiaryApprovalListSpec: ListQuerySpec = {
  filters: {
    businessid: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a business id' }, operators: ['eq'] },
    created: { kind: 'date', operators: ['gte', 'lte'] },
    agedays: { kind: { pattern: /^\d{1,5}$/, description: 'a whole number of days' }, operators: ['gte', 'lte'] },
    openalerts: { kind: 'boolean', operators: ['eq'] },
  },
  sortable: ['age', 'business'],
  defaultSort: [{ field: 'age', descending: true }],
};

export const screeningAlertListSpec: ListQuerySpec = {
  filters: { status: { kind: { oneOf: screeningAlertStatuses }, operators: ['eq'] } },
  sortable: ['created', 'score'],
  defaultSort: [{ field: 'created', descending: true }],
};
