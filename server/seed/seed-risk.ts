// Demo data of the risk area: each merchant's stored customers (the shoppers who paid it most, from the
// seeded transactions, with their order addresses) and some saved cards sealed into the vault; the fictional
// sanctions and PEP list; beneficiaries of a few businesses, two of them possible matches with open alerts; and the
// watch list computed from the transactions. Deterministic: the same world and anchor give the same rows.
import { sql } from 'drizzle-orm';
import { ibanCheckDigits } from '../../src/contract/iban.ts';
import type { CardKeys } from '../cards/card-keys.ts';
import { cardFingerprints, maskCardNumber, sealCardNumber } from '../cards/card-seal.ts';
import { screenBeneficiary } from '../risk/screen-beneficiary.ts';
import { screeningList } from '../risk/screening-list.ts';
import { recomputeWatchList, refreshRiskSignals } from '../risk/watch-signals.ts';
import * as schema from '../db/schema.ts';
import { createRandom } from './seed-random.ts';
import type { World } from './seed-world.ts';
import type { DbWriter } from '../db/client.ts';

const customersPerMerchant = 25;
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A Luhn-valid 16-digit test number from a 2-series test BIN, distinct per index (never one of the transaction cards). */
export function savedCardNumber(index: number): string {
  const body = `22230031${pad(index, 7)}`;
  let total = 0;
  for (let position = 0; position < body.length; position += 1) {
    let digit = Number(body[body.length - 1 - position]);
    if (position % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  }
  return `${body}${(10 - (total % 10)) % 10}`;
}

const gbIban = (bank: string, sortCode: string, account: string) => `GB${ibanCheckDigits('GB', `${bank}${sortCode}${account}`)}${bank}${sortCode}${account}`;
const deIban = (blz: string, account: string) => `DE${ibanCheckDigits('DE', `${blz}${account}`)}${blz}${account}`;
const frIban = (bban: string) => `FR${ibanCheckDigits('FR', bban)}${bban}`;

export async function seedRisk(tx: DbWriter, options: { world: World; now: Date; cardKeys: CardKeys }): Promise<void> {
  const { world, now, cardKeys } = options;
  const random = createRandom(22_022);
  const day = 86_400_000;

  // Customers: each merchant's most frequent shoppers, as the transactions name them.
  const byEmail = new Map(world.customers.map((customer) => [customer.email, customer]));
  const { rows: frequent } = (await tx.execute(sql`
    SELECT merchant_id, business_id, customer_email, n, first_seen FROM (
      SELECT merchant_id, business_id, customer_email, count(*)::int AS n, min(created_at) AS first_seen,
        row_number() OVER (PARTITION BY merchant_id ORDER BY count(*) DESC, customer_email) AS rank
      FROM transactions WHERE kind = 'payment' AND customer_email IS NOT NULL
      GROUP BY merchant_id, business_id, customer_email) ranked
    WHERE rank <= ${customersPerMerchant} ORDER BY merchant_id, rank`)) as unknown as {
    rows: { merchant_id: string; business_id: string; customer_email: string; n: number; first_seen: string | Date }[];
  };
  const customerRows: (typeof schema.customers.$inferInsert)[] = [];
  const dataRows: (typeof schema.customerData.$inferInsert)[] = [];
  const vaultRows: (typeof schema.cardVault.$inferInsert)[] = [];
  let cardIndex = 0;
  for (const [index, row] of frequent.entries()) {
    const shopper = byEmail.get(row.customer_email);
    if (!shopper) continue;
    const order = shopper.order as {
      billingIdentity?: { dateOfBirth?: string };
      billingAddress?: schema.CustomerAddress & { phoneNumber1?: string };
      shippingAddress?: schema.CustomerAddress;
    };
    const phoneTypes = (address: schema.CustomerAddress | undefined): schema.CustomerAddress | null =>
      address
        ? {
            ...address,
            phoneNumber1Type: address.phoneNumber1 ? (address.phoneNumber1.startsWith('+44 7') ? 'Mobile' : 'Fixed') : null,
            ...(address.phoneNumber2 ? { phoneNumber2Type: random.chance(0.5) ? 'Fixed' : 'Unknown' } : {}),
          }
        : null;
    const billing = phoneTypes(order.billingAddress);
    const id = `CUS${pad(index + 1, 8)}`;
    const created = new Date(row.first_seen);
    customerRows.push({
      id,
      businessId: row.business_id,
      merchantId: row.merchant_id,
      reference: `C-${pad(shopper.idx + 1, 5)}`,
      title: billing?.title ?? null,
      firstName: billing?.firstName ?? 'Unknown',
      middleName: billing?.middleName ?? null,
      lastName: billing?.lastName ?? 'Unknown',
      emailAddress: shopper.email,
      dateOfBirth: order.billingIdentity?.dateOfBirth ?? null,
      billingAddress: billing,
      shippingAddress: phoneTypes(order.shippingAddress),
      createdUtc: created,
      lastUpdatedUtc: created,
    });
    dataRows.push({
      id: `CD${pad(dataRows.length + 1, 8)}`,
      customerId: id,
      merchantId: row.merchant_id,
      kind: 'consent',
      value: { purpose: 'Order updates by email', granted: true, grantedUtc: created.toISOString() },
      createdUtc: created,
    });
    if (random.chance(0.35)) {
      const cardNumber = savedCardNumber(++cardIndex);
      const token = `CVS${pad(cardIndex, 9)}`;
      vaultRows.push({
        token,
        merchantId: row.merchant_id,
        fingerprint: cardFingerprints(cardKeys, row.merchant_id, cardNumber)[0] as string,
        masked: maskCardNumber(cardNumber),
        ...sealCardNumber(cardKeys, token, cardNumber),
      });
      const expiry = new Date(now.getTime() + random.int(60, 1400) * day);
      dataRows.push({
        id: `CD${pad(dataRows.length + 1, 8)}`,
        customerId: id,
        merchantId: row.merchant_id,
        kind: 'savedCard',
        value: {
          cardToken: token,
          maskedCardNumber: maskCardNumber(cardNumber),
          expiryMonth: expiry.getUTCMonth() + 1,
          expiryYear: expiry.getUTCFullYear(),
          cardholderName: `${billing?.firstName ?? ''} ${billing?.lastName ?? ''}`.trim(),
        },
        createdUtc: new Date(created.getTime() + day),
      });
    }
    if (order.shippingAddress && order.shippingAddress !== order.billingAddress && order.shippingAddress.addressLine1 !== billing?.addressLine1) {
      dataRows.push({
        id: `CD${pad(dataRows.length + 1, 8)}`,
        customerId: id,
        merchantId: row.merchant_id,
        kind: 'address',
        value: { ...order.shippingAddress },
        createdUtc: created,
      });
    }
  }
  for (let start = 0; start < customerRows.length; start += 500) await tx.insert(schema.customers).values(customerRows.slice(start, start + 500));
  for (let start = 0; start < vaultRows.length; start += 500) await tx.insert(schema.cardVault).values(vaultRows.slice(start, start + 500));
  for (let start = 0; start < dataRows.length; start += 500) await tx.insert(schema.customerData).values(dataRows.slice(start, start + 500));

  // The fictional screening list, and beneficiaries of the demo businesses (two of them possible matches).
  await tx.insert(schema.screeningListEntries).values(
    screeningList.map(({ id, list, kind, name, aliases, dateOfBirth, country, reason }) => ({
      id,
      list,
      kind,
      name,
      aliases: [...aliases],
      dateOfBirth,
      country,
      reason,
    })),
  );
  await tx.insert(schema.riskSettings).values({ key: 'screening.sensitivity', value: 'medium', version: 1 });
  const userId = (email: string) => world.users.find((user) => user.email === email)?.id ?? email;
  const owner = userId('owner@demo.test');
  const solo = userId('solo@demo.test');
  const { ownerBusinessId, soloBusinessId, financeBusinessId } = world.demo;
  type Seeded = Omit<typeof schema.beneficiaries.$inferInsert, 'createdUtc' | 'lastUpdatedUtc' | 'statusChangedUtc'> & { daysAgo: number };
  const people: Seeded[] = [
    {
      id: 'BEN0000000000001',
      businessId: ownerBusinessId,
      kind: 'company',
      companyName: 'Weaver & Loom Textiles Ltd',
      nameOnBankAccount: 'Weaver and Loom Textiles Ltd',
      iban: gbIban('NWBK', '601613', '31926819'),
      bic: 'NWBKGB2L',
      countryIso3166Alpha2: 'GB',
      status: 'Approved',
      createdBy: owner,
      lastChangedBy: owner,
      statusChangedBy: userId('risk@demo.test'),
      daysAgo: 120,
    },
    {
      id: 'BEN0000000000002',
      businessId: ownerBusinessId,
      kind: 'company',
      companyName: 'Kiln House Ceramics',
      nameOnBankAccount: 'Kiln House Ceramics',
      iban: gbIban('BARC', '200415', '73849201'),
      bic: 'BARCGB22',
      countryIso3166Alpha2: 'GB',
      status: 'Approved',
      createdBy: owner,
      lastChangedBy: owner,
      statusChangedBy: userId('risk@demo.test'),
      daysAgo: 95,
    },
    {
      id: 'BEN0000000000003',
      businessId: ownerBusinessId,
      kind: 'person',
      firstName: 'Amelia',
      lastName: 'Hartley',
      dateOfBirth: '1986-04-09',
      nameOnBankAccount: 'A Hartley',
      iban: gbIban('LOYD', '309634', '01122334'),
      bic: 'LOYDGB21',
      countryIso3166Alpha2: 'GB',
      status: 'Referred',
      createdBy: owner,
      lastChangedBy: owner,
      daysAgo: 3,
    },
    {
      id: 'BEN0000000000004',
      businessId: ownerBusinessId,
      kind: 'company',
      companyName: 'Golden Harbor Trading LLC',
      nameOnBankAccount: 'Golden Harbor Trading',
      iban: deIban('37040044', '0532013000'),
      bic: 'COBADEFFXXX',
      countryIso3166Alpha2: 'DE',
      status: 'Referred',
      createdBy: owner,
      lastChangedBy: owner,
      daysAgo: 2,
    },
    {
      id: 'BEN0000000000005',
      businessId: ownerBusinessId,
      kind: 'person',
      firstName: 'Vadim',
      lastName: 'Zolotarev',
      dateOfBirth: '1968-03-14',
      nameOnBankAccount: 'V Zolotarev',
      iban: frIban('20041010050500013M02606'),
      bic: 'PSSTFRPPPAR',
      countryIso3166Alpha2: 'FR',
      status: 'Referred',
      createdBy: owner,
      lastChangedBy: owner,
      daysAgo: 1,
    },
    {
      id: 'BEN0000000000006',
      businessId: soloBusinessId,
      kind: 'company',
      companyName: 'Millstone Flour Co',
      nameOnBankAccount: 'Millstone Flour Company',
      iban: gbIban('MIDL', '400515', '12345678'),
      bic: 'MIDLGB22',
      countryIso3166Alpha2: 'GB',
      status: 'Approved',
      createdBy: solo,
      lastChangedBy: solo,
      statusChangedBy: userId('risk@demo.test'),
      daysAgo: 200,
    },
    {
      id: 'BEN0000000000007',
      businessId: financeBusinessId,
      kind: 'company',
      companyName: 'Fellside Tents GmbH',
      nameOnBankAccount: 'Fellside Tents GmbH',
      iban: deIban('50010517', '5407324931'),
      bic: 'INGDDEFFXXX',
      countryIso3166Alpha2: 'DE',
      status: 'Rejected',
      createdBy: userId('finance@demo.test'),
      lastChangedBy: userId('finance@demo.test'),
      statusChangedBy: userId('risk@demo.test'),
      daysAgo: 60,
    },
    // Awaiting approval in two more businesses, set up by their own people: the approval queue spans businesses, and a
    // risk analyst (an independent second person) may approve these.
    {
      id: 'BEN0000000000008',
      businessId: soloBusinessId,
      kind: 'company',
      companyName: 'Thornbury Joinery Ltd',
      nameOnBankAccount: 'Thornbury Joinery Ltd',
      iban: gbIban('NWBK', '560036', '24681357'),
      bic: 'NWBKGB2L',
      countryIso3166Alpha2: 'GB',
      status: 'Referred',
      createdBy: solo,
      lastChangedBy: solo,
      daysAgo: 9,
    },
    {
      id: 'BEN0000000000009',
      businessId: financeBusinessId,
      kind: 'company',
      companyName: 'Lakeland Canvas Co',
      nameOnBankAccount: 'Lakeland Canvas Company',
      iban: gbIban('BARC', '203253', '97531864'),
      bic: 'BARCGB22',
      countryIso3166Alpha2: 'GB',
      status: 'Referred',
      createdBy: userId('finance@demo.test'),
      lastChangedBy: userId('finance@demo.test'),
      daysAgo: 5,
    },
  ];
  for (const { daysAgo, ...person } of people) {
    const at = new Date(now.getTime() - daysAgo * day);
    // A decided one was decided when last changed: its 'Last changed by' is the risk analyst who decided.
    const [row] = await tx
      .insert(schema.beneficiaries)
      .values({ ...person, createdUtc: at, lastUpdatedUtc: at, statusChangedUtc: person.statusChangedBy ? at : null })
      .returning();
    if (row) await screenBeneficiary(tx, row);
  }

  // The watch list from the transactions: the daily signals of the last 90 days, then every merchant's score.
  await refreshRiskSignals(tx, now);
  await recomputeWatchList(tx, now);
}
