// The beneficiaries contract's schemas (arktype).
import { type } from 'arktype';
import { beneficiaryKinds, screeningAlertStatuses, screeningSensitivityNames } from './beneficiaries.ts';
import { beneficiaryStatuses } from './enumerations.ts';

const isoDateTime = 'string.date.iso';

export const beneficiaryBody = type({
  kind: type.enumerated(...beneficiaryKinds),
  'companyName?': '0 < string <= 200 | null',
  'firstName?': '0 < string <= 100 | null',
  'lastName?': '0 < string <= 100 | null',
  'dateOfBirth?': type(/^\d{4}-\d{2}-\d{2}$/).or('null'),
  'countryIso3166Alpha2?': type(/^[A-Z]{2}$/).or('null'),
  nameOnBankAccount: '0 < string <= 140',
  iban: '0 < string <= 50',
  bic: '0 < string <= 11',
  '+': 'reject',
});
export type BeneficiaryBody = typeof beneficiaryBody.infer;
export const beneficiaryUpdateBody = beneficiaryBody.merge({ version: 'number.integer >= 1' });

export const beneficiaryStatusBody = type({ status: type.enumerated(...beneficiaryStatuses), 'version?': 'number.integer >= 1', '+': 'reject' });
export const alertDecisionBody = type({
  decision: "'confirmed' | 'dismissed'",
  reason: '5 <= string <= 1000',
  version: 'number.integer >= 1',
  '+': 'reject',
});
/** version: as last read (0 while the default applies) */
export const screeningSettingsBody = type({ sensitivity: type.enumerated(...screeningSensitivityNames), version: 'number.integer >= 0', '+': 'reject' });
export const screeningSettings = type({ sensitivity: type.enumerated(...screeningSensitivityNames), threshold: 'number', version: 'number' });

export const beneficiaryListItem = type({
  beneficiaryId: 'string',
  businessId: 'string',
  kind: type.enumerated(...beneficiaryKinds),
  name: 'string',
  nameOnBankAccount: 'string',
  iban: 'string',
  bic: 'string',
  status: type.enumerated(...beneficiaryStatuses),
  openAlerts: 'number',
  createdUtc: isoDateTime,
});
export type BeneficiaryListItem = typeof beneficiaryListItem.infer;
export const beneficiaryList = type({ results: beneficiaryListItem.array(), numberOfResults: 'number' });
export type BeneficiaryList = typeof beneficiaryList.infer;

/** One beneficiary awaiting its four-eyes approval, in the queue across businesses. */
export const beneficiaryApproval = type({
  beneficiaryId: 'string',
  name: 'string',
  kind: type.enumerated(...beneficiaryKinds),
  businessId: 'string',
  /** the business's name, for people */
  businessName: 'string',
  createdUtc: isoDateTime,
  /** who set it up (their name) */
  createdBy: 'string',
  /** whole days it has waited, by the server's clock */
  ageDays: 'number.integer >= 0',
  /** screening alerts still open (an open alert blocks the approval) */
  openAlerts: 'number.integer >= 0',
  status: type.enumerated(...beneficiaryStatuses),
  /** the caller created or last changed it: someone else must approve it (four eyes) */
  changedByCaller: 'boolean',
});
export type BeneficiaryApproval = typeof beneficiaryApproval.infer;
/** A business with beneficiaries awaiting approval, for the queue's business filter (picked by name). */
export const approvalBusiness = type({ businessId: 'string', businessName: 'string', pending: 'number.integer >= 0' });
export const beneficiaryApprovalList = type({
  results: beneficiaryApproval.array(),
  numberOfResults: 'number',
  /** every business of the caller's with something awaiting approval, whatever the filters, by name */
  businesses: approvalBusiness.array(),
});
export type BeneficiaryApprovalList = typeof beneficiaryApprovalList.infer;

export const screeningAlert = type({
  alertId: 'string',
  beneficiaryId: 'string',
  businessId: 'string',
  /** the business's name, for people (its id when the business is gone) */
  businessName: 'string',
  beneficiaryName: 'string',
  entryId: 'string',
  list: "'sanctions' | 'pep'",
  listedName: 'string',
  matchedName: 'string',
  screenedName: 'string',
  listedDateOfBirth: 'string | null',
  listedCountry: 'string | null',
  listedReason: 'string',
  /** 0..1 */
  score: 'number',
  status: type.enumerated(...screeningAlertStatuses),
  reason: 'string | null',
  resolvedBy: 'string | null',
  resolvedUtc: type(isoDateTime).or('null'),
  createdUtc: isoDateTime,
  version: 'number',
});
export type ScreeningAlert = typeof screeningAlert.infer;
export const screeningAlertList = type({ results: screeningAlert.array(), numberOfResults: 'number' });
export type ScreeningAlertList = typeof screeningAlertList.infer;

export const beneficiary = beneficiaryListItem.merge({
  /** the business's name, for people (its id when the business is gone) */
  businessName: 'string',
  companyName: 'string | null',
  firstName: 'string | null',
  lastName: 'string | null',
  dateOfBirth: 'string | null',
  countryIso3166Alpha2: 'string | null',
  createdBy: 'string',
  /** who made the latest change (of the details, or the approval or rejection), at lastUpdatedUtc */
  lastChangedBy: 'string',
  /** who approved or rejected it, at statusChangedUtc (null while never decided) */
  statusChangedBy: 'string | null',
  statusChangedUtc: type(isoDateTime).or('null'),
  lastUpdatedUtc: isoDateTime,
  version: 'number',
  alerts: screeningAlert.array(),
  /** the caller may approve it now (permission, four eyes by an independent person signed in with two-factor, no open or confirmed alert) */
  approvable: 'boolean',
  /** why not, when not */
  approvalRefusal: 'string | null',
});
export type Beneficiary = typeof beneficiary.infer;
