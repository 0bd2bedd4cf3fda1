// Customers of a merchant (issue 22): the list's declared filters and sorts, data item kinds, labels.
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
      kind: { pattern: new RegExp(`^[^\\u0000-\\u001f\\u007f]{1,${maxCustomerSearchTermLength}}$`), description: `1 to ${maxCustomerSearchTermLength} printable characters` },
      operators: ['eq'],
    },
    created: { kind: 'date', operators: ['gte', 'lte'] },
  },
  sortable: ['name', 'created', 'reference'],
  defaultSort: [{ field: 'name', descending: false }],
};

export type { Customer, CustomerAddressBody, CustomerBody, CustomerDataItem, CustomerList, CustomerListItem, CustomerUpdateBody } from './customer-schemas.ts';
