// Response schemas of the context selection calls (server/api/context.ts documents the paths). Apart from
// context.ts so the shell's first load stays free of them: the validation worker holds them (src/api/contract-schemas.ts).
import { type } from 'arktype';
import { contextItemSchema } from './context.ts';

const switchesSchema = type({ virtualTerminalMenuEnabled: 'boolean', '[string]': 'boolean' });

export const contextBusinessPageSchema = type({
  data: type({ businessId: 'string', businessName: 'string', camAutoRemittance: 'boolean', 'live?': 'boolean' }).array(),
  totalCount: 'number.integer >= 0',
});

export const contextMerchantPageSchema = type({
  data: type({ merchantId: 'string', merchantName: 'string', grossSettlement: 'boolean', currencies: 'string[]', 'live?': 'boolean' }).array(),
  totalCount: 'number.integer >= 0',
});

export const contextSearchPageSchema = type({
  data: type({ businessId: 'string', businessName: 'string', 'merchantId?': 'string', 'merchantName?': 'string' }).array(),
  totalCount: 'number.integer >= 0',
});

export const contextConfigurationPageSchema = type({
  data: type({ configurationId: 'string', tradeName: 'string', description: 'string', switches: switchesSchema }).array(),
  totalCount: 'number.integer >= 0',
});

/** timeZone: the business's IANA zone, in which its statements, batches, invoices and commission are cut. */
export const contextBusinessSchema = type({
  id: 'string',
  name: 'string',
  camAutoRemittance: 'boolean',
  'live?': 'boolean',
  'partnerId?': 'string | null',
  'timeZone?': 'string',
});
export const contextMerchantSchema = type({
  id: 'string',
  name: 'string',
  businessId: 'string',
  grossSettlement: 'boolean',
  currencies: 'string[]',
  'live?': 'boolean',
});

/** Items of the ContextFavorites and ContextRecent user settings. */
export const contextItemListSchema = contextItemSchema.array();

export type ContextBusinessPage = typeof contextBusinessPageSchema.infer;
export type ContextMerchantPage = typeof contextMerchantPageSchema.infer;
export type ContextSearchPage = typeof contextSearchPageSchema.infer;
export type ContextConfigurationPage = typeof contextConfigurationPageSchema.infer;
export type ContextBusiness = typeof contextBusinessSchema.infer;
export type ContextMerchant = typeof contextMerchantSchema.infer;

/** GET /context/records/…: the context a record belongs to (server/api/record-context.ts), for a record link opened without one. */
export const recordContextSchema = type({
  business: { id: 'string', title: 'string' },
  'merchant?': { id: 'string', title: 'string' },
  'configuration?': { id: 'string', title: 'string', switches: switchesSchema },
});
export type RecordContext = typeof recordContextSchema.infer;
