// The configurations' demo data, deterministic from the world: every configuration's payment-method settings (card for all,
// iDEAL where the merchant takes euros, PayPal for web shops and payment links), one hosted payment page per web
// shop and payment-link configuration (colours from a fixed palette), and an API key per configuration. The keys'
// hashes are of 'seed:<id>', which is no key anybody can present (keys start with pk_live_), so no seeded key
// works at the gateway; one key of the owner's first merchant expires in five days (the expiry warning's demo).
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { World } from './seed-world.ts';
import { cardLikeMethods, defaultHostedPageDesign, paymentMethodLabels } from '../../src/contract/configurations.ts';
import type { PaymentMethod } from '../../src/contract/enumerations.ts';

const palette = [
  { brand: '#1F3A93', buttonBackground: '#1F3A93' },
  { brand: '#0B6E4F', buttonBackground: '#0B6E4F' },
  { brand: '#8E2C48', buttonBackground: '#8E2C48' },
  { brand: '#3D3B8E', buttonBackground: '#3D3B8E' },
  { brand: '#7A4B00', buttonBackground: '#7A4B00' },
] as const;
const fonts = ['System', 'Inter', 'Georgia', 'Lato'] as const;
const day = 86_400_000;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export async function seedConfigurations(tx: Db, world: World, now: Date): Promise<{ paymentMethods: number; hostedPages: number; apiKeys: number }> {
  const merchants = new Map(world.merchants.map((merchant) => [merchant.id, merchant]));
  const admin = world.users.find((user) => user.email === 'admin@demo.test')?.id ?? 'seed';
  const ownerMerchant = world.merchants.find((merchant) => merchant.businessId === world.demo.ownerBusinessId)?.id;
  const methods: (typeof schema.configurationPaymentMethods.$inferInsert)[] = [];
  const pages: (typeof schema.hostedPages.$inferInsert)[] = [];
  const keys: (typeof schema.apiKeys.$inferInsert)[] = [];
  world.configurations.forEach((configuration, index) => {
    const merchant = merchants.get(configuration.merchantId);
    const currencies = merchant?.currencies ?? ['GBP'];
    const web = configuration.description?.startsWith('Hosted payment page') === true;
    const link = configuration.description?.startsWith('Payment links') === true;
    const enabled: PaymentMethod[] = ['card', ...(currencies.includes('EUR') ? ['ideal' as const] : []), ...(web || link ? ['payPal' as const] : [])];
    for (const method of enabled) {
      methods.push({
        configurationId: configuration.id,
        paymentMethod: method,
        enabled: true,
        displayName: method === 'card' ? 'Debit or credit card' : paymentMethodLabels[method],
        threeDSecurePolicy: cardLikeMethods.includes(method) ? (index % 3 === 0 ? 'riskBased' : 'always') : null,
        minimumAmountMilli: method === 'payPal' ? 1000 : null,
        maximumAmountMilli: method === 'card' && index % 4 === 0 ? 10_000_000 : null,
        currencies: method === 'ideal' ? ['EUR'] : [...currencies],
      });
    }
    if (web || link) {
      const colours = palette[index % palette.length] ?? palette[0];
      pages.push({
        reference: `HPP${digest(`hpp:${configuration.id}`).slice(0, 12).toUpperCase()}`,
        configurationId: configuration.id,
        businessId: configuration.businessId,
        merchantId: configuration.merchantId,
        name: web ? 'Checkout' : 'Payment link page',
        design: {
          ...defaultHostedPageDesign,
          colours: { ...defaultHostedPageDesign.colours, ...colours },
          font: fonts[index % fonts.length] ?? 'System',
          texts: {
            title: web ? `Pay ${configuration.tradeName}`.slice(0, 60) : 'Your payment link',
            description: web ? 'Your order is nearly complete.' : `Pay securely to ${configuration.tradeName}`.slice(0, 200),
            payButtonLabel: 'Pay now',
            footer: `Payments are processed securely. Questions about your order? Contact ${configuration.tradeName}.`.slice(0, 200),
          },
          paymentMethodOrder: enabled,
          returnUrls: { success: '', cancel: '', failure: '' },
        },
        createdAt: new Date(now.getTime() - (30 + (index % 60)) * day),
        updatedAt: new Date(now.getTime() - (index % 30) * day),
      });
    }
    const id = `KEY${digest(`key:${configuration.id}`).slice(0, 16).toUpperCase()}`;
    keys.push({
      id,
      configurationId: configuration.id,
      businessId: configuration.businessId,
      merchantId: configuration.merchantId,
      name: web ? 'Web shop' : link ? 'Payment link service' : 'Order system',
      description: 'Production key',
      prefix: `pk_live_${digest(`prefix:${id}`).slice(0, 6)}`,
      keyHash: digest(`seed:${id}`),
      expiresAt: configuration.merchantId === ownerMerchant && web ? new Date(now.getTime() + 5 * day) : null,
      createdBy: admin,
      createdAt: new Date(now.getTime() - (90 + (index % 200)) * day),
    });
  });
  for (let start = 0; start < methods.length; start += 1000) await tx.insert(schema.configurationPaymentMethods).values(methods.slice(start, start + 1000));
  for (let start = 0; start < pages.length; start += 500) await tx.insert(schema.hostedPages).values(pages.slice(start, start + 500));
  for (let start = 0; start < keys.length; start += 1000) await tx.insert(schema.apiKeys).values(keys.slice(start, start + 1000));
  return { paymentMethods: methods.length, hostedPages: pages.length, apiKeys: keys.length };
}
