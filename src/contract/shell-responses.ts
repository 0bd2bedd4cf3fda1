// Responses the application shell reads: notification status (bell and on-load messages), user settings and
// the palette's record look-up. The shell imports these only through a dynamic import (bundle budget).
import { type } from 'arktype';

export const notificationStatusSchema = type({
  totalUnreadCount: 'number.integer >= 0',
  passwordExpiresInXDays: 'number.integer | null',
  latestUnread: type({ reference: 'string', title: 'string' }).or('null'),
});
export type NotificationStatus = typeof notificationStatusSchema.infer;

/** GET /user-settings/{key}: the value is JSON text; null means not set (PUT always answers the text saved). */
export const userSettingSchema = type({ key: 'string', value: 'string | null' });
export type UserSetting = typeof userSettingSchema.infer;

export const recordKinds = ['transaction', 'paymentJob', 'customer', 'ticket', 'user', 'business', 'merchant', 'invoice'] as const;
export type RecordKind = (typeof recordKinds)[number];

const contextRef = type({ id: 'string', title: 'string' });

export const recordSearchResultSchema = type({
  kind: "'transaction' | 'paymentJob' | 'customer' | 'ticket' | 'user' | 'business' | 'merchant' | 'invoice'",
  id: 'string',
  title: 'string',
  description: 'string',
  path: 'string',
  context: { 'business?': contextRef, 'merchant?': contextRef },
});
export type RecordSearchResult = typeof recordSearchResultSchema.infer;

export const recordSearchSchema = type({ results: recordSearchResultSchema.array() });
export type RecordSearch = typeof recordSearchSchema.infer;

/** GET /search/merchants?prefix=: merchant names the caller may see, for completing merchant:… in the palette. */
export const searchMerchantsSchema = type({ results: type({ id: 'string', name: 'string', businessId: 'string', businessName: 'string' }).array() });
export type SearchMerchants = typeof searchMerchantsSchema.infer;
