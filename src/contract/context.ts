// The working context: partner, business, merchant and configuration selections, each with an id and title.
import { type } from 'arktype';

export const configurationSwitchesSchema = type({ virtualTerminalMenuEnabled: 'boolean', '[string]': 'boolean' });

export const contextSelectionSchema = type({ id: 'string | null', title: 'string' });
export const configurationSelectionSchema = type({
  id: 'string | null',
  title: 'string',
  switches: configurationSwitchesSchema,
});

export const contextSelectionsSchema = type({
  'partner?': contextSelectionSchema,
  'business?': contextSelectionSchema.and({ 'camAutoRemittance?': 'boolean' }),
  'merchant?': contextSelectionSchema.and({ 'grossSettlement?': 'boolean', 'currencies?': 'string[]' }),
  'configuration?': configurationSelectionSchema,
});

export type ContextSelections = typeof contextSelectionsSchema.infer;

/** Favorite and recent items: user settings ContextFavorites and ContextRecent. */
export const contextItemSchema = type({ businessId: 'string', 'merchantId?': 'string', 'businessName?': 'string', 'merchantName?': 'string' });
export type ContextItem = typeof contextItemSchema.infer;
