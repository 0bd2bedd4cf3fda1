// The bulk part of the demo world, generated inside the database: transactions (payments, then their refunds
// and captures) and one payment job per payment, with `INSERT … SELECT … FROM generate_series(…)`.
//
// Determinism: every "random" choice is hashint8extended(row index, salt) — PostgreSQL's own 64-bit hash of an
// integer, identical on PGlite (wasm) and PostgreSQL — combined with integer arithmetic and small lookup tables
// built in JavaScript from the demo world. No random(), no now(), no floating point in the SQL.
//
// Shape of the data:
// - Payment i (1…P) falls at the i-th quantile of a time distribution over the last two years (hour slots
//   weighted by hour of day, weekday, a December peak and slow growth), so payments are inserted in time order.
// - Every `stride`-th payment (up to the number of children) is paid and gets one child row: a capture for
//   some card payments, otherwise a full or partial refund, a little later.
// - The first payments at regular intervals are spread over every merchant that takes payments, so each of
//   them has payments whenever P ≥ the number of merchants; the merchant without payments is not in the lookup.
// - Card payments (and their children) carry the card vault token of their (merchant, test card), computed here as
//   seedCardToken computes it in JavaScript for the vault rows seed.ts seals; never a card number.
import { maskCardNumber } from '../cards/card-seal.ts';
import { publishedTestCards } from '../payments/demo-acquirer.ts';
import type { Customer, MerchantLookup } from './seed-world.ts';

export type BulkPlan = {
  total: number;
  payments: number;
  children: number;
  stride: number;
  salt: number;
  startEpoch: number;
  anchorEpoch: number;
  hours: number;
  merchantCount: number;
  coverageStep: number;
  customerCount: number;
};

const childStride = 16;
const timeSlotCount = 131_072;
const merchantSlotCount = 4096;

/** Split `total` rows into payments and children so that payments + children = total exactly. */
export function planBulk(total: number, now: Date, randomSeed: number, merchantCount: number, customerCount: number): BulkPlan {
  const children = Math.floor(total / (childStride + 1));
  const payments = total - children;
  const anchorEpoch = Math.floor(now.getTime() / 1000);
  const startDay = new Date((anchorEpoch - 730 * 86_400) * 1000);
  const startEpoch = Date.UTC(startDay.getUTCFullYear(), startDay.getUTCMonth(), startDay.getUTCDate()) / 1000;
  return {
    total,
    payments,
    children,
    stride: childStride,
    salt: (randomSeed % 1_000_000) * 100,
    startEpoch,
    anchorEpoch,
    hours: Math.floor((anchorEpoch - startEpoch) / 3600),
    merchantCount,
    coverageStep: Math.max(1, Math.floor(payments / Math.max(1, merchantCount))),
    customerCount,
  };
}

const hourWeights = [0.15, 0.08, 0.05, 0.04, 0.05, 0.1, 0.3, 0.6, 0.9, 1.0, 1.05, 1.3, 1.6, 1.45, 1.0, 0.95, 1.0, 1.2, 1.45, 1.6, 1.5, 1.2, 0.8, 0.4];
const weekdayWeights = [0.7, 1.0, 1.0, 1.05, 1.1, 1.2, 0.85]; // Sunday first (getUTCDay)

function dayWeight(date: Date): number {
  const month = date.getUTCMonth();
  const dayOfMonth = date.getUTCDate();
  let seasonal = 1;
  if (month === 11) seasonal = dayOfMonth <= 23 ? 1.6 : dayOfMonth === 24 ? 1.3 : dayOfMonth === 25 ? 0.45 : dayOfMonth === 26 ? 1.2 : 1.1;
  else if (month === 10 && dayOfMonth >= 20)
    seasonal = 1.3; // Black Friday weeks
  else if (month === 0 && dayOfMonth <= 10) seasonal = 0.85;
  else if (month === 7) seasonal = 0.95;
  return seasonal * (weekdayWeights[date.getUTCDay()] ?? 1);
}

/** Quantile table: slot j (of a fixed number) → the item whose cumulative weight covers (j + ½)/slots. */
function quantileSlots(weights: readonly number[], slots: number): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const result = new Array<number>(slots);
  let item = 0;
  let cumulative = weights[0] ?? 0;
  for (let j = 0; j < slots; j += 1) {
    const target = ((j + 0.5) / slots) * total;
    while (cumulative < target && item < weights.length - 1) {
      item += 1;
      cumulative += weights[item] ?? 0;
    }
    result[j] = item;
  }
  return result;
}

const intArrayLiteral = (values: readonly number[]) => `{${values.join(',')}}`;

/** Hour offsets from plan.startEpoch, as a PostgreSQL int[] literal, in increasing order. */
export function timeSlotsLiteral(plan: BulkPlan): string {
  const weights: number[] = [];
  for (let hour = 0; hour < plan.hours; hour += 1) {
    const start = new Date((plan.startEpoch + hour * 3600) * 1000);
    const trend = 0.7 + (0.3 * hour) / plan.hours;
    weights.push(trend * dayWeight(start) * (hourWeights[start.getUTCHours()] ?? 1));
  }
  return intArrayLiteral(quantileSlots(weights, timeSlotCount));
}

/** Merchant lookup indexes in proportion to each merchant's weight, shuffled by the SQL hash. */
export function merchantSlotsLiteral(lookup: readonly MerchantLookup[]): string {
  return intArrayLiteral(
    quantileSlots(
      lookup.map((m) => m.weight),
      merchantSlotCount,
    ),
  );
}

export const merchantLookupJson = (lookup: readonly MerchantLookup[]) =>
  JSON.stringify(lookup.map(({ weight: _weight, item1: _1, item2: _2, item3: _3, ...rest }) => rest));
export const merchantItemsJson = (lookup: readonly MerchantLookup[]) =>
  JSON.stringify(lookup.map(({ merchant_id, item1, item2, item3 }) => ({ merchant_id, item1, item2, item3 })));
export const customerEmailsJson = (customers: readonly Customer[]) => JSON.stringify(customers.map(({ idx, email }) => ({ idx, email })));
export const customerOrdersJson = (customers: readonly Customer[]) => JSON.stringify(customers.map(({ email, order }) => ({ email, order })));

// ---------------------------------------------------------------------------------------------------
// Value sets (codes are 1-based positions)

const paymentMethods: readonly (readonly [string, number])[] = [
  ['card', 520],
  ['applePay', 130],
  ['googlePay', 80],
  ['payPal', 60],
  ['ideal', 45],
  ['klarnaPayLater', 30],
  ['bancontact', 20],
  ['sepaBanktransfer', 20],
  ['directDebit', 25],
  ['samsungPay', 10],
  ['clickToPay', 15],
  ['klarnaPayNow', 15],
  ['klarnaSliceIt', 5],
  ['afterPay', 15],
  ['wallet', 10],
];
const methodSlots = quantileSlots(
  paymentMethods.map(([, weight]) => weight),
  1000,
).map((index) => index + 1);

/**
 * The demo acquirer's approved test cards (server/payments/demo-acquirer.ts), so every card the demo world shows is
 * one the shopper page and the virtual terminal approve. Payments carry a token of the card vault (server/cards/),
 * never the number: the seed vaults each card once per merchant (seedCardToken).
 */
export const seedTestCards = publishedTestCards;
const cardDeclines = [
  'Insufficient funds',
  'Do not honour',
  'Expired card',
  'Suspected fraud',
  '3-D Secure failed',
  'Invalid card number',
  'Card reported lost or stolen',
  'Exceeds withdrawal limit',
];
const otherDeclines = ['Insufficient funds', 'Rejected by the payment provider', 'Suspected fraud', 'Cancelled by the shopper at the provider'];
const failures = ['Issuer unavailable', 'Communication timeout', '3-D Secure failed', 'Processing error at the acquirer'];

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const textArray = (values: readonly string[]) => `ARRAY[${values.map(quote).join(', ')}]::text[]`;

function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/**
 * Opaque, unique references: a bijection on 40 bits of the index (odd multiplications and xor-shifts, all
 * invertible modulo 2^40; multipliers below 2^23 keep every product inside a bigint), in hexadecimal.
 */
function referenceSql(prefix: string, indexSql: string, [k1, k2, k3]: readonly [number, number, number]): string {
  const mask = '1099511627775';
  const a = `(((${indexSql}) * ${k1}) & ${mask})`;
  const b = `((${a} # (${a} >> 19)) * ${k2} & ${mask})`;
  const c = `((${b} # (${b} >> 21)) * ${k3} & ${mask})`;
  return `'${prefix}' || lpad(upper(to_hex(${c} # (${c} >> 17))), 10, '0')`;
}
/** referenceSql in JavaScript, for the few references the seed makes outside the database (the card tokens). */
function reference(prefix: string, index: number, [k1, k2, k3]: readonly [number, number, number]): string {
  const mask = 1_099_511_627_775n;
  const a = (BigInt(index) * BigInt(k1)) & mask;
  const b = ((a ^ (a >> 19n)) * BigInt(k2)) & mask;
  const c = ((b ^ (b >> 21n)) * BigInt(k3)) & mask;
  return `${prefix}${(c ^ (c >> 17n)).toString(16).toUpperCase().padStart(10, '0')}`;
}
const transactionReferenceSql = (indexSql: string) => referenceSql('TX', indexSql, [7_368_787, 6_972_593, 4_194_301]);
const cardTokenKeys = [3_145_739, 7_654_319, 5_808_359] as const;
/** Room per merchant in the card token's index: merchant index × this + card index. */
const cardsPerMerchant = 16;
const cardTokenSql = (indexSql: string) => referenceSql('CV', indexSql, cardTokenKeys);
/** The vault token of test card `cardIndex` (of seedTestCards) at the merchant of lookup index `merchantIndex`, as the SQL makes it. */
export const seedCardToken = (merchantIndex: number, cardIndex: number) => reference('CV', merchantIndex * cardsPerMerchant + cardIndex, cardTokenKeys);
const jobReferenceSql = (indexSql: string) => referenceSql('PJ', indexSql, [5_237_459, 8_100_053, 3_011_687]);

/** Shared CTEs of the payment generator. Parameters: $1 merchants, $2 merchant slots, $3 time slots, $4 customers. */
const lookupCtes = `
  lk AS MATERIALIZED (
    SELECT $2::text::int[] AS ms, $3::text::int[] AS ts, '${intArrayLiteral(methodSlots)}'::int[] AS mm
  ),
  sm AS (
    SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS x(idx int, merchant_id text, business_id text, partner_id text,
      cur1 text, cur2 text, cur3 text, ncur int, cfg1 text, cfg2 text, cfg3 text, ncfg int, base bigint)
  ),
  sc AS (SELECT * FROM jsonb_to_recordset($4::text::jsonb) AS x(idx int, email text))`;

/**
 * Payment rows for the indexes `i` (and child numbers `k`) produced by `source`. Each level is fenced with
 * OFFSET 0 so that every draw is computed once per row rather than copied into each expression using it.
 */
function paymentRowsSql(plan: BulkPlan, source: string): string {
  const draw = (n: number) => `(hashint8extended(s.i, ${int(plan.salt + n)}) & 2147483647) AS r${n}`;
  const draws = Array.from({ length: 11 }, (_, n) => draw(n + 1)).join(', ');
  const merchantIndex = `CASE WHEN (g.i - 1) % ${int(plan.coverageStep)} = 0 AND (g.i - 1) / ${int(plan.coverageStep)} < ${int(plan.merchantCount)}
      THEN ((g.i - 1) / ${int(plan.coverageStep)})::int ELSE lk.ms[1 + (g.r1 % ${merchantSlotCount})::int] END`;
  const isParent = `b.i % ${int(plan.stride)} = 0 AND b.i / ${int(plan.stride)} <= ${int(plan.children)}`;
  return `
  SELECT q.*, sc.email AS customer_email
  FROM (
    SELECT c.*,
      CASE WHEN c.currency = 'JPY' AND c.mc0 > 4 THEN 1
           WHEN c.currency <> 'EUR' AND c.mc0 IN (5, 7, 8) THEN 1
           WHEN c.currency NOT IN ('GBP', 'EUR') AND c.mc0 = 9 THEN 1
           ELSE c.mc0 END AS mc,
      CASE WHEN c.currency = 'JPY' THEN greatest(10, (c.gbp * 1900 / 10000) * 10)
           WHEN c.r11 % 10 < 4 AND c.gbp >= 500 THEN
             greatest(1, (c.gbp * CASE c.currency WHEN 'EUR' THEN 1170 WHEN 'USD' THEN 1270 ELSE 1000 END / 100000) * 100
               + CASE (c.r11 / 10) % 3 WHEN 0 THEN 0 WHEN 1 THEN 99 ELSE 50 END)
           ELSE greatest(1, c.gbp * CASE c.currency WHEN 'EUR' THEN 1170 WHEN 'USD' THEN 1270 ELSE 1000 END / 1000) END AS amount_minor
    FROM (
      SELECT b.*,
        ${int(plan.startEpoch)} + b.hr::bigint * 3600 + b.r2 % 3600 AS epoch,
        CASE WHEN b.ncur = 1 OR b.r7 % 100 < 70 THEN b.cur1
             WHEN b.ncur = 2 OR (b.r7 / 100) % 2 = 0 THEN b.cur2 ELSE b.cur3 END AS currency,
        CASE WHEN b.ncfg = 1 OR b.r5 % 100 < 60 THEN b.cfg1
             WHEN b.ncfg = 2 OR (b.r5 / 100) % 2 = 0 THEN b.cfg2 ELSE b.cfg3 END AS configuration_id,
        b.base * (250 + ((b.r6 % 1000) * ((b.r6 / 1000) % 1000)) / 250) / 1000 AS gbp,
        CASE WHEN ${isParent} THEN 'paid'
             WHEN b.r4 % 1000 < 800 THEN 'paid'
             WHEN b.r4 % 1000 < 870 THEN 'declined'
             WHEN b.r4 % 1000 < 900 THEN 'failed'
             WHEN b.r4 % 1000 < 930 THEN 'cancelled'
             WHEN b.hr >= ${int(plan.hours - 72)} THEN 'pending'
             ELSE 'expired' END AS status
      FROM (
        SELECT g.*, sm.idx AS merchant_idx, sm.merchant_id, sm.business_id, sm.partner_id, sm.cur1, sm.cur2, sm.cur3, sm.ncur,
          sm.cfg1, sm.cfg2, sm.cfg3, sm.ncfg, sm.base,
          lk.ts[(1 + ((g.i - 1) * ${timeSlotCount}) / ${int(Math.max(1, plan.payments))})::int] AS hr,
          lk.mm[1 + (g.r3 % 1000)::int] AS mc0
        FROM (SELECT s.i, s.k, ${draws} FROM (${source}) s OFFSET 0) g
        CROSS JOIN lk
        JOIN sm ON sm.idx = ${merchantIndex}
        OFFSET 0
      ) b
      OFFSET 0
    ) c
    OFFSET 0
  ) q
  JOIN sc ON sc.idx = (q.r9 % ${int(plan.customerCount)})::int`;
}

const transactionColumns = [
  'reference',
  'kind',
  'parent_reference',
  'partner_id',
  'business_id',
  'merchant_id',
  'configuration_id',
  'payment_job_reference',
  'created_at',
  'amount_minor',
  'currency',
  'status',
  'payment_method',
  'channel',
  'ewallet_type',
  'card_masked',
  'card_token',
  'decline_reason',
  'customer_email',
  'originating_ip_address',
];

/** The value expressions of a payment row `p` from paymentRowsSql, in transactionColumns order (minus the first three). */
function paymentValues(p: string): string[] {
  const methodNames = textArray(paymentMethods.map(([name]) => name));
  return [
    `${p}.partner_id`,
    `${p}.business_id`,
    `${p}.merchant_id`,
    `${p}.configuration_id`,
    jobReferenceSql(`${p}.i`),
    `to_timestamp(${p}.epoch)`,
    `${p}.amount_minor`,
    `${p}.currency`,
    `${p}.status`,
    `(${methodNames})[${p}.mc]`,
    `CASE WHEN ${p}.mc = 1 THEN CASE WHEN (${p}.r7 / 10000) % 100 < 70 THEN 'Gateway' WHEN (${p}.r7 / 10000) % 100 < 88 THEN 'Acquiring' ELSE 'Chp' END ELSE 'Gateway' END`,
    `CASE ${p}.mc WHEN 2 THEN 'applePay' WHEN 3 THEN 'googlePay' WHEN 10 THEN 'samsungPay' WHEN 11 THEN 'clickToPay' END`,
    `CASE WHEN ${p}.mc = 1 THEN (${textArray(seedTestCards.map(maskCardNumber))})[1 + (${p}.r8 % ${seedTestCards.length})::int] END`,
    `CASE WHEN ${p}.mc = 1 THEN ${cardTokenSql(`${p}.merchant_idx * ${cardsPerMerchant} + ${p}.r8 % ${seedTestCards.length}`)} END`,
    `CASE WHEN ${p}.status = 'failed' THEN (${textArray(failures)})[1 + ((${p}.r8 / 100) % ${failures.length})::int]
          WHEN ${p}.status = 'declined' AND ${p}.mc = 1 THEN (${textArray(cardDeclines)})[1 + ((${p}.r8 / 100) % ${cardDeclines.length})::int]
          WHEN ${p}.status = 'declined' THEN (${textArray(otherDeclines)})[1 + ((${p}.r8 / 100) % ${otherDeclines.length})::int] END`,
    `${p}.customer_email`,
    `CASE ${p}.r10 % 5 WHEN 0 THEN '192.0.2.' || (1 + (${p}.r10 / 5) % 254)
          WHEN 1 THEN '198.51.100.' || (1 + (${p}.r10 / 5) % 254)
          WHEN 2 THEN '203.0.113.' || (1 + (${p}.r10 / 5) % 254)
          WHEN 3 THEN '198.51.100.' || (1 + (${p}.r10 / 7) % 254)
          ELSE '2001:db8::' || to_hex((${p}.r10 / 5) % 65536) END`,
  ];
}

/** INSERT of the payments (indexes 1…P). Parameters: see bulkParameters. */
export function paymentsInsertSql(plan: BulkPlan): string {
  const source = `SELECT i, 0::bigint AS k FROM generate_series(1::bigint, ${int(plan.payments)}) AS i`;
  return `
INSERT INTO transactions (${transactionColumns.join(', ')})
WITH ${lookupCtes}
SELECT ${transactionReferenceSql('p.i')}, 'payment', NULL, ${paymentValues('p').join(',\n  ')}
FROM (${paymentRowsSql(plan, source)}) p`;
}

/** INSERT of the captures and refunds: child k belongs to payment k·stride (which is always paid). */
export function childrenInsertSql(plan: BulkPlan): string {
  const source = `SELECT k * ${int(plan.stride)} AS i, k FROM generate_series(1::bigint, ${int(plan.children)}) AS k`;
  const h = (n: number) => `(hashint8extended(p.k, ${int(plan.salt + 40 + n)}) & 2147483647)`;
  const values = paymentValues('c');
  return `
INSERT INTO transactions (${transactionColumns.join(', ')})
WITH ${lookupCtes}
SELECT ${transactionReferenceSql(`${int(plan.payments)} + c.k`)}, c.child_kind, ${transactionReferenceSql('c.i')},
  ${values.slice(0, 5).join(', ')},
  to_timestamp(c.child_epoch),
  c.child_amount, c.currency,
  CASE WHEN c.child_kind = 'refund' AND ${int(plan.anchorEpoch)} - c.child_epoch < 172800 AND c.c3 % 100 < 40 THEN 'pending' ELSE 'paid' END,
  ${values.slice(9, 14).join(', ')},
  NULL, c.customer_email, NULL
FROM (
  SELECT d.*,
    CASE WHEN d.child_kind = 'capture' OR (d.c1 / 100) % 100 < 60 THEN d.amount_minor
         ELSE greatest(1, d.amount_minor * (10 + (d.c1 / 10000) % 80) / 100) END AS child_amount,
    d.epoch + CASE WHEN d.delay < ${int(plan.anchorEpoch)} - d.epoch THEN d.delay
                   ELSE (${int(plan.anchorEpoch)} - d.epoch) * (d.c3 / 100 % 1000) / 1000 END AS child_epoch
  FROM (
    SELECT p.*, ${h(1)} AS c1, ${h(2)} AS c2, ${h(3)} AS c3,
      CASE WHEN p.mc = 1 AND ${h(1)} % 100 < 45 THEN 'capture' ELSE 'refund' END AS child_kind,
      CASE WHEN p.mc = 1 AND ${h(1)} % 100 < 45 THEN 60 + ${h(2)} % 7200 ELSE 3600 + ${h(2)} % 2592000 END AS delay
    FROM (${paymentRowsSql(plan, source)}) p
    OFFSET 0
  ) d
  OFFSET 0
) c`;
}

/**
 * INSERT of one payment job per payment, from the payments already inserted. Parameters: $1 customers' order
 * bases (billing identity and addresses, by email), $2 merchants' item names.
 */
export function paymentJobsInsertSql(): string {
  const line = (type: string, description: string, quantity: string, unit: string) =>
    `jsonb_build_object('type', ${type}, 'description', ${description}, 'quantity', ${quantity},
      'unitPriceInclVat', ${unit}, 'unitPriceExclVat', (${unit}) * 100 / (100 + j.vat), 'vatPercentage', j.vat)`;
  return `
INSERT INTO payment_jobs (reference, partner_id, business_id, merchant_id, configuration_id, create_date_time_utc,
  expiration_date_time_utc, paid_date_time_utc, order_number, amount_minor, currency, status, "order")
WITH co AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS x(email text, "order" jsonb)),
     mi AS (SELECT * FROM jsonb_to_recordset($2::text::jsonb) AS x(merchant_id text, item1 text, item2 text, item3 text))
SELECT j.payment_job_reference, j.partner_id, j.business_id, j.merchant_id, j.configuration_id,
  j.created_at - (5 + j.h % 900) * interval '1 second',
  j.created_at - (5 + j.h % 900) * interval '1 second' + CASE WHEN (j.h / 1000) % 5 = 0 THEN interval '7 days' ELSE interval '1 hour' END,
  CASE WHEN j.status = 'paid' THEN j.created_at END,
  'ORD-' || lpad(((j.h / 7) % 100000000)::text, 8, '0'),
  j.amount_minor, j.currency, j.status,
  co."order" || jsonb_build_object('orderLines', CASE
    WHEN j.ship > 0 AND j.amount_minor > j.ship * 5 AND (j.h / 128) % 3 = 0 THEN jsonb_build_array(
      ${line("'physicalItem'", 'j.item', '1', 'j.amount_minor - j.ship')},
      ${line("'shippingCost'", "'Standard delivery'", '1', 'j.ship')})
    ELSE jsonb_build_array(${line(`CASE WHEN (j.h / 16) % 7 = 0 THEN 'digitalItem' ELSE 'physicalItem' END`, 'j.item', 'j.quantity', 'j.amount_minor / j.quantity')})
  END)
FROM (
  SELECT t.*, hashtext(t.reference) & 2147483647 AS h,
    CASE WHEN t.currency = 'JPY' THEN 10 ELSE 20 END AS vat,
    CASE WHEN t.currency = 'JPY' THEN 500 ELSE 395 END AS ship,
    CASE WHEN t.amount_minor % 3 = 0 AND (hashtext(t.reference) / 4) % 2 = 0 THEN 3
         WHEN t.amount_minor % 2 = 0 AND (hashtext(t.reference) / 8) % 2 = 0 THEN 2 ELSE 1 END AS quantity,
    CASE (hashtext(t.reference) & 2147483647) / 64 % 3 WHEN 0 THEN mi.item1 WHEN 1 THEN mi.item2 ELSE mi.item3 END AS item
  FROM transactions t
  JOIN mi ON mi.merchant_id = t.merchant_id
  WHERE t.kind = 'payment'
  OFFSET 0
) j
JOIN co ON co.email = j.customer_email`;
}
