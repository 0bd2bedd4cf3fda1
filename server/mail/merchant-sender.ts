// Who a shopper's email is from: the merchant's trade name (the configuration's, which is what the shopper saw at the
// checkout, else the merchant's name) and its support address as the Reply-To. The portal's own address stays the
// From address (no merchant domain is ours to send from); the name says on whose behalf it writes.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { configurations, merchants } from '../db/schema.ts';
import type { MerchantSender } from './compose.ts';

export async function merchantSenderOf(db: Db, merchantId: string, configurationId?: string | null): Promise<MerchantSender> {
  const [merchant] = await db.select({ name: merchants.name, supportEmail: merchants.supportEmail }).from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw new Error(`merchantSenderOf: no merchant ${merchantId}`);
  const [configuration] = configurationId
    ? await db.select({ tradeName: configurations.tradeName }).from(configurations).where(eq(configurations.id, configurationId))
    : [];
  const name = configuration?.tradeName.trim() || merchant.name;
  return { name, replyTo: merchant.supportEmail };
}
