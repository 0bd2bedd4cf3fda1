// Customers of a merchant: the list's declared filters and sorts, data item kinds, labels.
// The answers' and bodies' schemas (arktype) are in customer-schemas.ts.
import type { ListQuerySpec } from './list-query.ts';

export const customerDataKinds = ['savedCard', 'address', 'consent'] as const;
export type CustomerDataKindName = (typeof customerDataKinds)[number];

export const customerDataKindLabels: Record<CustomerDataKindName, string> = {
  savedCard: 'Saved card',
  address: 'Address',
  consent: 'Consent',
};

export const maxCustomerSearchTermLength = 100;

/** GET {context}/customers: searchterm matches the start of the reference, last name, first name or email. */
export const customerListSpec: ListQuerySpec = {
  filters: {
    searchterm: {
      kind: {
        pattern: new RegExp(`^[^\\u0000-\\u001f\\u007f]{1,${maxCustomerSearchTermLength}}$`),
        description: `1 to ${maxCustomerSearchTermLength} printable characters`,
      },
      operators: ['eq'],
    },
    created: { kind: 'date', operators: ['gte', 'lte'] },
  },
  sortable: ['name', 'created', 'reference'],
  defaultSort: [{ field: 'name', descending: false }],
};

// ── adding and changing a customer: the checks the form and the server share (spec's generic templates) ──
export const customerReferencePattern = /^[A-Za-z0-9_.-]{1,64}$/;
export const customerPhonePattern = /^\+?[0-9 ()-]{4,30}$/;
export const customerFieldLimits = {
  reference: 64,
  firstName: 100,
  middleName: 100,
  lastName: 100,
  emailAddress: 254,
  addressLine1: 200,
  addressLine2: 200,
  zipCode: 20,
  city: 100,
} as const;

/** What the form edits; the body's other address fields (organisation, a second phone) are carried over untouched. */
export type CustomerEdit = {
  reference: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  emailAddress: string | null;
  dateOfBirth: string | null;
  billingAddress: {
    addressLine1: string | null;
    addressLine2: string | null;
    zipCode: string | null;
    city: string | null;
    countryIso3166Alpha2: string | null;
    phoneNumber1: string | null;
  } | null;
};

const realDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/**
 * A customer edit's problems by field ('reference', 'billingAddress.city', …); empty when valid. `today` is
 * 'YYYY-MM-DD'; `countries` the ISO codes a country may be.
 */
export function checkCustomerEdit(edit: CustomerEdit, today: string, countries: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const text = (field: string, label: string, value: string | null, max: number, required = false) => {
    const trimmed = value?.trim() ?? '';
    if (trimmed === '') {
      if (required) errors[field] = `${label} is required`;
      return;
    }
    if (trimmed.length > max) errors[field] = `${label} may have ${max} characters maximum`;
  };
  const limits = customerFieldLimits;
  text('reference', 'Reference', edit.reference, limits.reference, true);
  if (!errors.reference && !customerReferencePattern.test(edit.reference.trim())) errors.reference = 'Reference is invalid';
  text('firstName', 'First name', edit.firstName, limits.firstName, true);
  text('middleName', 'Middle name', edit.middleName, limits.middleName);
  text('lastName', 'Last name', edit.lastName, limits.lastName, true);
  text('emailAddress', 'Email address', edit.emailAddress, limits.emailAddress);
  if (!errors.emailAddress && edit.emailAddress?.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(edit.emailAddress.trim()))
    errors.emailAddress = 'Email address is invalid';
  if (edit.dateOfBirth) {
    if (!realDate(edit.dateOfBirth)) errors.dateOfBirth = 'Date of birth is invalid';
    else if (edit.dateOfBirth > today) errors.dateOfBirth = 'Date of birth is in the future';
  }
  const address = edit.billingAddress;
  if (address) {
    text('billingAddress.addressLine1', 'Address line 1', address.addressLine1, limits.addressLine1);
    text('billingAddress.addressLine2', 'Address line 2', address.addressLine2, limits.addressLine2);
    text('billingAddress.zipCode', 'Postcode', address.zipCode, limits.zipCode);
    text('billingAddress.city', 'City', address.city, limits.city);
    if (address.countryIso3166Alpha2 && !countries.includes(address.countryIso3166Alpha2)) errors['billingAddress.countryIso3166Alpha2'] = 'Country is invalid';
    if (address.phoneNumber1?.trim() && !customerPhonePattern.test(address.phoneNumber1.trim()))
      errors['billingAddress.phoneNumber1'] = 'Phone number is invalid';
  }
  return errors;
}
