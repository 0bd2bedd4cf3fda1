// The arktype schemas of these calls: businesses, merchants, configurations, payment-method settings, hosted
// pages, images and API keys (requests checked by the server, answers by the client's validation worker). The
// constants and field checks they rely on are in configurations.ts.
import { type } from 'arktype';
import { paymentMethods } from './enumerations.ts';
import {
  hostedPageFonts,
  imageMimeTypes,
  maxApiKeyDescriptionLength,
  maxApiKeyNameLength,
  maxDescriptionLength,
  maxDisplayNameLength,
  maxHostedPageNameLength,
  maxNameLength,
  maxTradeNameLength,
  maxUrlLength,
  oldKeyStopOptions,
  threeDSecurePolicies,
} from './configurations.ts';

const isoDateTime = 'string.date.iso';
const version = 'number.integer >= 1';
const url = `string <= ${maxUrlLength}`;

// ── businesses and merchants ──
export const businessListItem = type({
  businessId: 'string',
  businessName: 'string',
  businessUrl: 'string | null',
  camAutoRemittance: 'boolean',
  live: 'boolean',
  partnerId: 'string | null',
  partnerName: 'string | null',
});
export type BusinessListItem = typeof businessListItem.infer;
export const businessList = type({ results: businessListItem.array(), numberOfResults: 'number' });
export type BusinessList = typeof businessList.infer;

export const activityItem = type({ event: 'string', dateTimeUtc: isoDateTime, merchantId: 'string | null', userName: 'string' });
export type ActivityItem = typeof activityItem.infer;

export const businessDetail = businessListItem.merge({
  version,
  createDateTimeUtc: isoDateTime,
  /** the caller may change the editable fields (Mapi.Business.Update here) */
  editable: 'boolean',
  recentActivity: activityItem.array(),
});
export type BusinessDetail = typeof businessDetail.infer;

export const merchantListItem = type({
  merchantId: 'string',
  merchantName: 'string',
  businessId: 'string',
  merchantUrl: 'string | null',
  supportUrl: 'string | null',
  supportEmail: 'string | null',
  grossSettlement: 'boolean',
  currencies: 'string[]',
  live: 'boolean',
});
export type MerchantListItem = typeof merchantListItem.infer;
export const merchantList = type({ results: merchantListItem.array(), numberOfResults: 'number' });
export type MerchantList = typeof merchantList.infer;

export const merchantDetail = merchantListItem.merge({
  version,
  businessName: 'string',
  createDateTimeUtc: isoDateTime,
  configurations: type({ configurationId: 'string', tradeName: 'string' }).array(),
  editable: 'boolean',
});
export type MerchantDetail = typeof merchantDetail.infer;

export const businessUpdateBody = type({
  businessName: `string <= ${maxNameLength}`,
  businessUrl: `${url} | null`,
  version,
  '+': 'reject',
});
export const merchantUpdateBody = type({
  merchantName: `string <= ${maxNameLength}`,
  merchantUrl: `${url} | null`,
  supportUrl: `${url} | null`,
  /** where shoppers' replies to the merchant's emails go; left out: unchanged */
  'supportEmail?': 'string <= 254 | null',
  version,
  '+': 'reject',
});

// ── configurations ──
/** Every switch of configurationSwitchNames; unknown ones are refused. */
const switchesBody = type({
  virtualTerminalMenuEnabled: 'boolean',
  'paymentLinksEnabled?': 'boolean',
  'orderConfirmationEmailsEnabled?': 'boolean',
  'savedCardsEnabled?': 'boolean',
  '+': 'reject',
});
const switchesAnswer = type({ virtualTerminalMenuEnabled: 'boolean', '[string]': 'boolean' });

export const paymentMethodSettings = type({
  paymentMethod: type.enumerated(...paymentMethods),
  enabled: 'boolean',
  displayName: 'string',
  threeDSecurePolicy: type.enumerated(...threeDSecurePolicies).or('null'),
  /** major units; applies in every currency */
  minimumAmount: 'number | null',
  maximumAmount: 'number | null',
  currencies: 'string[]',
});
export type PaymentMethodSettings = typeof paymentMethodSettings.infer;

export const hostedPageSummary = type({ reference: 'string', name: 'string', updatedAt: isoDateTime });

export const configurationDetail = type({
  configurationId: 'string',
  businessId: 'string',
  merchantId: 'string',
  tradeName: 'string',
  description: 'string',
  switches: switchesAnswer,
  version,
  hostedPages: hostedPageSummary.array(),
  paymentMethods: type({ paymentMethod: type.enumerated(...paymentMethods), configuration: paymentMethodSettings }).array(),
});
export type ConfigurationDetail = typeof configurationDetail.infer;

export const configurationListItem = type({
  configurationId: 'string',
  tradeName: 'string',
  description: 'string',
  switches: switchesAnswer,
  version,
  enabledPaymentMethods: 'string[]',
  hostedPageCount: 'number',
});
export type ConfigurationListItem = typeof configurationListItem.infer;
export const configurationList = type({ results: configurationListItem.array(), numberOfResults: 'number' });
export type ConfigurationList = typeof configurationList.infer;

export const configurationCreateBody = type({
  tradeName: `string <= ${maxTradeNameLength}`,
  description: `string <= ${maxDescriptionLength}`,
  'switches?': switchesBody,
  /** the methods to switch on at once (the wizard's second step), each with its default settings */
  'paymentMethods?': type
    .enumerated(...paymentMethods)
    .array()
    .atMostLength(paymentMethods.length),
  '+': 'reject',
});
export type ConfigurationCreateBody = typeof configurationCreateBody.infer;

export const configurationUpdateBody = type({
  tradeName: `string <= ${maxTradeNameLength}`,
  description: `string <= ${maxDescriptionLength}`,
  switches: switchesBody,
  version,
  '+': 'reject',
});
export type ConfigurationUpdateBody = typeof configurationUpdateBody.infer;

export const paymentMethodUpdateBody = type({
  enabled: 'boolean',
  displayName: `string <= ${maxDisplayNameLength}`,
  threeDSecurePolicy: type.enumerated(...threeDSecurePolicies).or('null'),
  minimumAmount: 'number | null',
  maximumAmount: 'number | null',
  currencies: type('string <= 3').array().atMostLength(200),
  version,
  '+': 'reject',
});
export type PaymentMethodUpdateBody = typeof paymentMethodUpdateBody.infer;

export const paymentMethodAnswer = paymentMethodSettings.merge({ version });
export type PaymentMethodAnswer = typeof paymentMethodAnswer.infer;

// ── hosted pages ──
const colour = 'string <= 7';
export const hostedPageDesignSchema = type({
  logoImageReference: 'string <= 64 | null',
  colours: { brand: colour, background: colour, text: colour, buttonBackground: colour, buttonText: colour, '+': 'reject' },
  font: type.enumerated(...hostedPageFonts),
  texts: { title: 'string <= 60', description: 'string <= 200', payButtonLabel: 'string <= 30', footer: 'string <= 200', '+': 'reject' },
  paymentMethodOrder: type
    .enumerated(...paymentMethods)
    .array()
    .atMostLength(paymentMethods.length),
  showOrderLines: 'boolean',
  returnUrls: { success: url, cancel: url, failure: url, '+': 'reject' },
  '+': 'reject',
});

export const hostedPageCreateBody = type({
  configurationId: 'string <= 64',
  name: `string <= ${maxHostedPageNameLength}`,
  design: hostedPageDesignSchema,
  version,
  '+': 'reject',
});
export const hostedPageUpdateBody = type({ name: `string <= ${maxHostedPageNameLength}`, design: hostedPageDesignSchema, version, '+': 'reject' });

export const hostedPageAnswer = type({
  reference: 'string',
  configurationId: 'string',
  name: 'string',
  design: hostedPageDesignSchema,
  /** the configuration's shared version after this read or write */
  version,
  updatedAt: isoDateTime,
});
export type HostedPageAnswer = typeof hostedPageAnswer.infer;
export const hostedPageList = type({ results: hostedPageAnswer.array(), numberOfResults: 'number' });

// ── images ──
export const imageUploadBody = type({
  /** base64 of the file's bytes (7,000,000 characters hold the 5,242,880-byte maximum) */
  data: 'string <= 7000000',
  mimeType: type.enumerated(...imageMimeTypes),
  '+': 'reject',
});
export const imageUploadAnswer = type({ imageReference: 'string', mimeType: 'string', width: 'number', height: 'number', byteSize: 'number' });
export type ImageUploadAnswer = typeof imageUploadAnswer.infer;

// ── API keys ──
export const apiKeyAnswer = type({
  id: 'string',
  configurationId: 'string',
  name: 'string',
  description: 'string',
  /** the first characters of the key, enough to recognise it; the key itself is never shown again */
  prefix: 'string',
  expiresAt: `${isoDateTime} | null`,
  revokedAt: `${isoDateTime} | null`,
  createdAt: isoDateTime,
  status: "'active' | 'expiring' | 'expired' | 'revoked'",
  /** set on a new key whose replacement has not been completed yet */
  replacesId: 'string | null',
});
export type ApiKeyAnswer = typeof apiKeyAnswer.infer;
export const apiKeyList = type({ results: apiKeyAnswer.array(), numberOfResults: 'number' });
export const apiKeyCreated = type({ apiKey: apiKeyAnswer, secret: 'string' });
export type ApiKeyCreated = typeof apiKeyCreated.infer;

export const apiKeyCreateBody = type({
  name: `string <= ${maxApiKeyNameLength}`,
  description: `string <= ${maxApiKeyDescriptionLength}`,
  expiresAt: `${isoDateTime} | null`,
  '+': 'reject',
});
export const apiKeyReplacementCompleteBody = type({ oldKeyStops: type.enumerated(...oldKeyStopOptions), '+': 'reject' });
export const apiKeyReplacementCompleted = type({ replaced: apiKeyAnswer, replacement: apiKeyAnswer });
export type ApiKeyReplacementCompleted = typeof apiKeyReplacementCompleted.infer;
