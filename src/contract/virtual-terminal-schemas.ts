// The virtual terminal's request and answer schemas (arktype): the order, the settings, saved cards and the
// gateway's payment jobs. Rules and maths are in virtual-terminal.ts.
import { type } from 'arktype';
import { customerAddressBody } from './customer-schemas.ts';
import { orderLineTypes } from './enumerations.ts';
import { maxOrderLines, maxPaymentLinkValidityHours, maxQuantity, maxSavedCardLimit } from './virtual-terminal.ts';

const merchantReference = type(/^[^\u0000-\u001f\u007f]{1,80}$/).describe('1 to 80 printable characters');
const currency = type(/^[A-Z]{3}$/).describe('a three-letter currency code');
const idText = /^[A-Za-z0-9_-]{1,64}$/;

export const orderLineBody = type({
  type: type.enumerated(...orderLineTypes),
  description: '0 < string <= 200',
  quantity: `1 <= number.integer <= ${maxQuantity}`,
  unitPrice: '0 <= number <= 9999999',
  priceIncludesVat: 'boolean',
  vatPercentage: '0 <= number <= 100',
  '+': 'reject',
});
export type OrderLineBody = typeof orderLineBody.infer;

export const cardBody = type({
  cardNumber: /^[0-9 -]{12,23}$/,
  expiry: /^[0-9]{2} ?\/? ?[0-9]{2}$/,
  cvc: /^[0-9]{3,4}$/,
  cardholderName: '0 < string <= 100',
  '+': 'reject',
});

export const virtualTerminalOrderBody = type({
  merchantReference,
  currency,
  'confirmDuplicate?': 'boolean',
  'customerId?': type(idText).or('null'),
  billingIdentity: type({
    'emailAddress?': type('string <= 254').or('null'),
    'dateOfBirth?': type(/^\d{4}-\d{2}-\d{2}$/).or('null'),
    '+': 'reject',
  }),
  billingAddress: customerAddressBody,
  'shippingAddress?': customerAddressBody.or('null'),
  orderLines: orderLineBody.array().atLeastLength(1).atMostLength(maxOrderLines),
  'card?': cardBody.or('null'),
  'savedCardId?': type(idText).or('null'),
  'saveCard?': 'boolean',
  /** 'Send a payment link instead': the order becomes an open job whose hosted-page link is emailed (no card here) */
  'paymentLink?': type({ validityHours: `1 <= number.integer <= ${maxPaymentLinkValidityHours}`, '+': 'reject' }).or('null'),
  '+': 'reject',
});
export type VirtualTerminalOrderBody = typeof virtualTerminalOrderBody.infer;

/**
 * Another attempt at a declined order (same payment job, a new payment): exactly one of the card the decline used
 * (sameCard), another card typed, or a saved card of the order's customer.
 */
export const virtualTerminalAttemptBody = type({
  'sameCard?': 'true',
  'card?': cardBody.or('null'),
  'savedCardId?': type(idText).or('null'),
  '+': 'reject',
});
export type VirtualTerminalAttemptBody = typeof virtualTerminalAttemptBody.infer;

export const virtualTerminalOrderAnswer = type({
  result: "'paid' | 'declined' | 'linkSent'",
  declineReason: 'string | null',
  paymentJobReference: 'string',
  transactionReference: 'string | null',
  'paymentUrl?': 'string',
  'expirationDateTimeUtc?': 'string',
  amount: 'number',
  currency: 'string',
  maskedCardNumber: 'string | null',
  savedCardId: 'string | null',
  confirmationEmailQueued: 'boolean',
  /** the order's stored customer; customerCreated when this order stored them (saving a new customer's card) */
  'customerId?': 'string | null',
  'customerCreated?': 'boolean',
  /** a second or later attempt at a declined order: its number (the first charge is attempt 1) */
  'attempt?': 'number',
  message: 'string',
});
export type VirtualTerminalOrderAnswer = typeof virtualTerminalOrderAnswer.infer;

export const virtualTerminalSettingsBody = type({
  defaultCurrency: currency.or('null'),
  orderConfirmationEmails: 'boolean',
  savedCardsAllowed: 'boolean',
  savedCardLimit: `1 <= number.integer <= ${maxSavedCardLimit}`,
  defaultOrderLineType: type.enumerated(...orderLineTypes),
  askShippingAddress: 'boolean',
  version: 'number.integer >= 1',
  '+': 'reject',
});
export type VirtualTerminalSettingsBody = typeof virtualTerminalSettingsBody.infer;

export const virtualTerminalSettingsAnswer = type({
  configurationId: 'string',
  defaultCurrency: 'string | null',
  orderConfirmationEmails: 'boolean',
  savedCardsAllowed: 'boolean',
  savedCardLimit: 'number',
  defaultOrderLineType: 'string',
  askShippingAddress: 'boolean',
  version: 'number',
  currencies: 'string[]',
  virtualTerminalMenuEnabled: 'boolean',
});

export const savedCardList = type({
  results: type({
    savedCardId: 'string',
    maskedCardNumber: 'string',
    expiryMonth: 'number',
    expiryYear: 'number',
    cardholderName: 'string | null',
    createdUtc: 'string',
  }).array(),
  savedCardLimit: 'number',
});
export type SavedCardList = typeof savedCardList.infer;

export const gatewayPaymentJobBody = type({
  merchantReference,
  currency,
  amount: '0 < number <= 9999999',
  'emailAddress?': type('string <= 254').or('null'),
  'orderLines?': orderLineBody.array().atMostLength(maxOrderLines),
  'expiresInHours?': '1 <= number.integer <= 720',
  '+': 'reject',
});
export type GatewayPaymentJobBody = typeof gatewayPaymentJobBody.infer;
