// Demo data of the virtual terminal: settings of the vt@demo.test merchant's configurations (order
// confirmation emails on, a saved card limit of 3, shipping address asked) and, for its first three stored
// customers, a saved published test card (4111 1111 1111 1111 or 5555 5555 5555 4444, sealed in the vault) so a
// repeat order with a saved card is paid in the demo. Deterministic and small (a handful of rows).
import { and, asc, eq } from 'drizzle-orm';
import type { CardKeys } from '../cards/card-keys.ts';
import { maskCardNumber } from '../cards/card-seal.ts';
import { vaultCard } from '../cards/card-vault.ts';
import { publishedTestCards } from '../payments/demo-acquirer.ts';
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';
import type { DbWriter } from '../db/client.ts';

/** The saved cards: 4111 1111 1111 1111 and 5555 5555 5555 4444, both approved by the demo acquirer. */
const savedTestCards = publishedTestCards.filter((cardNumber) => cardNumber === '4111111111111111' || cardNumber === '5555555555554444');

export async function seedVirtualTerminal(tx: DbWriter, { world, now, cardKeys }: { world: World; now: Date; cardKeys: CardKeys }): Promise<void> {
  const merchantId = world.demo.vtMerchantId;
  const configurationIds = world.configurations.filter((configuration) => configuration.merchantId === merchantId).map((configuration) => configuration.id);
  if (configurationIds.length === 0) return;
  await tx
    .insert(schema.virtualTerminalSettings)
    .values(
      configurationIds.map((configurationId) => ({
        configurationId,
        defaultCurrency: 'GBP',
        orderConfirmationEmails: true,
        savedCardsAllowed: true,
        savedCardLimit: 3,
        defaultOrderLineType: 'physicalItem',
        askShippingAddress: true,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing();
  const stored = await tx
    .select({ id: schema.customers.id, firstName: schema.customers.firstName, lastName: schema.customers.lastName })
    .from(schema.customers)
    .where(eq(schema.customers.merchantId, merchantId))
    .orderBy(asc(schema.customers.reference))
    .limit(3);
  for (const [index, customer] of stored.entries()) {
    const cardNumber = savedTestCards[index % savedTestCards.length] as string;
    const cardToken = await vaultCard(tx, cardKeys, { merchantId, cardNumber });
    const id = `SCVT${customer.id.slice(-12)}`;
    const [existing] = await tx
      .select({ id: schema.customerData.id })
      .from(schema.customerData)
      .where(and(eq(schema.customerData.id, id)));
    if (existing) continue;
    await tx.insert(schema.customerData).values({
      id,
      customerId: customer.id,
      merchantId,
      kind: 'savedCard',
      createdUtc: new Date(now.getTime() - (index + 1) * 86_400_000),
      value: {
        cardToken,
        maskedCardNumber: maskCardNumber(cardNumber),
        expiryMonth: 9,
        expiryYear: now.getUTCFullYear() + 3,
        cardholderName: `${customer.firstName} ${customer.lastName}`,
      },
    });
  }
}
