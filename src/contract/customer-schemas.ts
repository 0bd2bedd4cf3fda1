// The customers contract's schemas (arktype): bodies of POST and PUT, answers of the list, the record and its data.
import { type } from 'arktype';
import { customerDataKinds } from './customers.ts';
import { phoneNumberTypes, salutations } from './enumerations.ts';

const isoDateTime = 'string.date.iso';
const text = (max: number) => `string <= ${max} | null` as const;
const phoneType = type.enumerated(...phoneNumberTypes).or('null');

/** The spec's Address fields; a phone type of Unknown is kept but not shown. */
export const customerAddressBody = type({
  'title?': type.enumerated(...salutations).or('null'),
  'firstName?': text(100),
  'middleName?': text(100),
  'lastName?': text(100),
  'addressLine1?': text(200),
  'addressLine2?': text(200),
  'organisation?': text(200),
  'department?': text(200),
  'zipCode?': text(20),
  'city?': text(100),
  'stateProvince?': text(100),
  'countryIso3166Alpha2?': type(/^[A-Z]{2}$/).or('null'),
  'phoneNumber1?': type(/^\+?[0-9 ()-]{4,30}$/).or('null'),
  'phoneNumber1Type?': phoneType,
  'phoneNumber2?': type(/^\+?[0-9 ()-]{4,30}$/).or('null'),
  'phoneNumber2Type?': phoneType,
  '+': 'reject',
});
export type CustomerAddressBody = typeof customerAddressBody.infer;

export const customerBody = type({
  reference: /^[A-Za-z0-9_.-]{1,64}$/,
  'title?': type.enumerated(...salutations).or('null'),
  firstName: '0 < string <= 100',
  'middleName?': text(100),
  lastName: '0 < string <= 100',
  'emailAddress?': type('string.email <= 254').or('null'),
  'dateOfBirth?': type(/^\d{4}-\d{2}-\d{2}$/).or('null'),
  'billingAddress?': customerAddressBody.or('null'),
  'shippingAddress?': customerAddressBody.or('null'),
  '+': 'reject',
});
export type CustomerBody = typeof customerBody.infer;

export const customerUpdateBody = customerBody.merge({ version: 'number.integer >= 1' });
export type CustomerUpdateBody = typeof customerUpdateBody.infer;

const address = type({
  'title?': 'string | null',
  'firstName?': 'string | null',
  'middleName?': 'string | null',
  'lastName?': 'string | null',
  'addressLine1?': 'string | null',
  'addressLine2?': 'string | null',
  'organisation?': 'string | null',
  'department?': 'string | null',
  'zipCode?': 'string | null',
  'city?': 'string | null',
  'stateProvince?': 'string | null',
  'countryIso3166Alpha2?': 'string | null',
  'phoneNumber1?': 'string | null',
  'phoneNumber1Type?': phoneType,
  'phoneNumber2?': 'string | null',
  'phoneNumber2Type?': phoneType,
});

export const customerListItem = type({
  customerId: 'string',
  /** the customer's merchant (a customer is always a merchant's) */
  businessId: 'string',
  merchantId: 'string',
  /** in a list across merchants (a business's or a partner's): the merchant's name */
  'merchantName?': 'string',
  reference: 'string',
  firstName: 'string',
  lastName: 'string',
  emailAddress: 'string | null',
  city: 'string | null',
  countryIso3166Alpha2: 'string | null',
  createdUtc: isoDateTime,
});
export type CustomerListItem = typeof customerListItem.infer;

export const customerList = type({ results: customerListItem.array(), numberOfResults: 'number' });
export type CustomerList = typeof customerList.infer;

export const customer = customerListItem.merge({
  title: 'string | null',
  middleName: 'string | null',
  dateOfBirth: 'string | null',
  billingAddress: address.or('null'),
  shippingAddress: address.or('null'),
  lastUpdatedUtc: isoDateTime,
  version: 'number',
  savedCards: 'number',
});
export type Customer = typeof customer.infer;

/** A stored data item as shown: a saved card shows its masked number and expiry only. */
export const customerDataItem = type({
  dataId: 'string',
  kind: type.enumerated(...customerDataKinds),
  description: 'string',
  createdUtc: isoDateTime,
});
export type CustomerDataItem = typeof customerDataItem.infer;
export const customerDataList = type({ results: customerDataItem.array() });
