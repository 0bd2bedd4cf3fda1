// Virtual terminal orders: a MOTO order typed by an agent becomes a payment job and its card payment in
// ONE database transaction, committed through commitPaymentChange (transactions row, statistics, ledger, audit
// 'VirtualTerminalOrderSuccessful' / 'VirtualTerminalOrderFailed'). A declined card is a payment too: the job and
// its declined payment are written (unsuccessful volume in the statistics) and the answer says why. The card is
// sealed in the card vault; only its masked form and token are kept; the CVC is checked for form and never stored.
// The demo acquirer decides the outcome (server/payments/demo-acquirer.ts); a saved card is recognised by its vault
// fingerprint, never by opening it.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { decimalsOf, formatMoney } from '../../src/contract/payment-jobs.ts';
import { currencyExponent, toMajorUnits } from '../../src/contract/transactions.ts';
import {
  cardBrand,
  cardDigits,
  defaultVirtualTerminalSettings,
  duplicateReferenceWindowMs,
  emailRequiredMessage,
  expiryOf,
  expiryProblem,
  lineAmounts,
  luhnValid,
  orderTotals,
  savedCardLimitMessage,
  type VirtualTerminalSettings,
} from '../../src/contract/virtual-terminal.ts';
import type { VirtualTerminalAttemptBody, VirtualTerminalOrderBody } from '../../src/contract/virtual-terminal-schemas.ts';
import { recordAudit } from '../audit/record.ts';
import type { CardKeys } from '../cards/card-keys.ts';
import { maskCardNumber } from '../cards/card-seal.ts';
import { vaultCard } from '../cards/card-vault.ts';
import {
  cardVault,
  configurationPaymentMethods,
  configurations,
  customerData,
  customers,
  merchants,
  paymentJobs,
  transactions,
  virtualTerminalSettings,
} from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { merchantSenderOf } from '../mail/merchant-sender.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { orderSummaryParagraphs } from './order-email.ts';
import { declineReasonOf, vaultedCardDeclineReason } from './demo-acquirer.ts';
import { commitPaymentChange, type ActionOutcome, type Actor } from './payment-operations.ts';
import type { DbWriter } from '../db/client.ts';

export type ConfigurationScope = { businessId: string; merchantId: string; partnerId: string | null; configurationId: string };

const problem = (status: 400 | 404 | 409, message: string, extra: Record<string, unknown> = {}): ActionOutcome => ({
  status,
  body: { errorReport: { errors: [{ message, translatedMessage: message }] }, ...extra },
});

/** The configuration's virtual terminal settings (defaults without a row), its version and card currencies. */
export async function loadVirtualTerminalSettings(
  tx: DbWriter,
  scope: { merchantId: string; configurationId: string },
): Promise<VirtualTerminalSettings | null> {
  const [row] = await tx
    .select({ configuration: configurations, currencies: merchants.currencies, settings: virtualTerminalSettings })
    .from(configurations)
    .innerJoin(merchants, eq(merchants.id, configurations.merchantId))
    .leftJoin(virtualTerminalSettings, eq(virtualTerminalSettings.configurationId, configurations.id))
    .where(and(eq(configurations.id, scope.configurationId), eq(configurations.merchantId, scope.merchantId)));
  if (!row) return null;
  const [card] = await tx
    .select({ currencies: configurationPaymentMethods.currencies })
    .from(configurationPaymentMethods)
    .where(and(eq(configurationPaymentMethods.configurationId, scope.configurationId), eq(configurationPaymentMethods.paymentMethod, 'card')));
  const currencies = card && card.currencies.length > 0 ? card.currencies.filter((code) => row.currencies.includes(code)) : row.currencies;
  const settings = row.settings ?? { ...defaultVirtualTerminalSettings };
  return {
    configurationId: row.configuration.id,
    defaultCurrency: settings.defaultCurrency,
    orderConfirmationEmails: settings.orderConfirmationEmails,
    savedCardsAllowed: settings.savedCardsAllowed,
    savedCardLimit: settings.savedCardLimit,
    defaultOrderLineType: settings.defaultOrderLineType,
    askShippingAddress: settings.askShippingAddress,
    version: row.configuration.version,
    currencies,
    virtualTerminalMenuEnabled: row.configuration.switches.virtualTerminalMenuEnabled !== false,
  };
}

const newJobReference = () => `PJ${randomBytes(5).toString('hex').toUpperCase()}`;
const newTransactionReference = () => `TX${randomBytes(5).toString('hex').toUpperCase()}`;
const newSavedCardId = () => `SC${randomBytes(8).toString('hex').toUpperCase()}`;

export type VirtualTerminalContext = { cardKeys: CardKeys; publicUrl: string };

/**
 * Takes one order. Validation problems are 400s (nothing written); a merchant reference used within 24 hours is a
 * 409 with `duplicateOf` unless confirmDuplicate; otherwise the job and its payment commit, paid or declined (201).
 */
export async function createVirtualTerminalOrder(
  tx: DbWriter,
  context: VirtualTerminalContext,
  actor: Actor,
  scope: ConfigurationScope,
  body: VirtualTerminalOrderBody,
  at: Date,
): Promise<ActionOutcome> {
  const settings = await loadVirtualTerminalSettings(tx, scope);
  if (!settings) return problem(404, 'The requested record was not found.');
  const { currency } = body;
  if (!settings.currencies.includes(currency))
    return problem(400, `This configuration does not offer ${currency}; choose one of ${settings.currencies.join(', ')}.`);
  const reference = body.merchantReference.trim();
  if (reference === '') return problem(400, 'Merchant reference is required');

  // Order lines: every price in the currency's decimals, and a positive total.
  const problems: string[] = [];
  body.orderLines.forEach((line, index) => {
    // Decimals as entered (a price below one minor unit, 1e-9, has nine): never rounded away to a zero price.
    if (decimalsOf(line.unitPrice) > currencyExponent(currency)) {
      problems.push(`Line ${index + 1}: the unit price has more decimals than ${currency} allows`);
    }
    if (Math.round(line.vatPercentage * 100) !== line.vatPercentage * 100) problems.push(`Line ${index + 1}: the VAT rate may have at most 2 decimals`);
  });
  const totals = orderTotals(body.orderLines, currency);
  if (totals.inclMinor <= 0) problems.push('The order total must be more than zero');
  if (totals.inclMinor > 999_999_999) problems.push(`The order total may be at most ${formatMoney(999_999_999, currency)}`);

  const email = body.billingIdentity.emailAddress?.trim() || null;
  if (email !== null && !isPlausibleEmailAddress(email)) problems.push('Enter a valid email address');
  if (settings.orderConfirmationEmails && email === null) problems.push(emailRequiredMessage);
  const dateOfBirth = body.billingIdentity.dateOfBirth ?? null;
  if (dateOfBirth !== null) {
    const date = new Date(`${dateOfBirth}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== dateOfBirth) problems.push('Date of birth is not a real date');
    else if (date.getTime() > at.getTime()) problems.push('Date of birth cannot be in the future');
    else if (date.getUTCFullYear() < 1900) problems.push('Date of birth must be after 1900');
  }
  if (!body.billingAddress.lastName?.trim() && !body.billingAddress.organisation?.trim())
    problems.push('Billing address: last name or organisation is required');
  if (!body.billingAddress.countryIso3166Alpha2) problems.push('Billing address: country is required');

  const link = body.paymentLink ?? null;
  if (link) {
    if (body.card || body.savedCardId || body.saveCard) problems.push('A payment link carries no card: the customer enters it on the payment page');
    if (email === null) problems.push("A payment link is emailed: enter the customer's email address");
  } else if ((body.card ? 1 : 0) + (body.savedCardId ? 1 : 0) !== 1) {
    // The card: typed or saved, exactly one.
    problems.push('Enter a card or choose a saved card (one of them)');
  }
  let digits: string | null = null;
  if (body.card) {
    digits = cardDigits(body.card.cardNumber);
    if (!/^[0-9]{12,19}$/.test(digits) || !luhnValid(digits)) problems.push('Card number is invalid');
    const expiry = expiryProblem(body.card.expiry, at);
    if (expiry) problems.push(expiry);
  }
  let customer: typeof customers.$inferSelect | null = null;
  if (body.customerId) {
    customer =
      (
        await tx
          .select()
          .from(customers)
          .where(and(eq(customers.id, body.customerId), eq(customers.merchantId, scope.merchantId)))
      )[0] ?? null;
    if (!customer) return problem(404, 'The requested record was not found.');
  }
  if (body.saveCard && !body.card) problems.push('Only a newly entered card can be saved');
  // Saving the card of a customer not stored yet stores the customer too, from the order's name, email and addresses.
  if (body.saveCard && !customer && !body.billingAddress.lastName?.trim() && !body.billingAddress.organisation?.trim()) {
    problems.push("Enter the customer's last name or organisation to store them with the card");
  }
  if (body.saveCard && !settings.savedCardsAllowed) problems.push('Saved cards are switched off for this configuration');
  if (problems.length > 0) return { status: 400, body: { errorReport: { errors: problems.map((message) => ({ message, translatedMessage: message })) } } };

  // A reference used within 24 hours asks before charging again. References are compared without case and surrounding
  // space ('SEC-VT-1' and ' sec-vt-1' are one order). The lock serialises two agents typing the same one.
  const referenceKey = reference.toLowerCase();
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`vt:${scope.merchantId}:${referenceKey}`}, 1717))`);
  if (!body.confirmDuplicate) {
    const [previous] = await tx
      .select({ reference: paymentJobs.reference, created: paymentJobs.createDateTimeUtc, status: paymentJobs.status })
      .from(paymentJobs)
      .where(
        and(
          eq(paymentJobs.merchantId, scope.merchantId),
          gt(paymentJobs.createDateTimeUtc, new Date(at.getTime() - duplicateReferenceWindowMs)),
          sql`lower(btrim(${paymentJobs.orderNumber})) = lower(${reference})`,
        ),
      )
      .orderBy(sql`${paymentJobs.createDateTimeUtc} desc`)
      .limit(1);
    if (previous) {
      const message = `An order with merchant reference ${reference} was taken at ${previous.created.toISOString().slice(0, 16).replace('T', ' ')} UTC (${previous.status}). Confirm to charge again.`;
      return problem(409, message, { duplicateOf: previous.reference });
    }
  }

  if (link && email)
    return sendPaymentLinkOrder(
      tx,
      context,
      actor,
      scope,
      body,
      { reference, email, dateOfBirth, customerId: customer?.id ?? null, validityHours: link.validityHours, totals },
      at,
    );

  // The card's token and what decides the outcome.
  let cardToken: string;
  let masked: string;
  let declineReason: string | null;
  let savedCardId: string | null = null;
  if (body.card && digits) {
    cardToken = await vaultCard(tx, context.cardKeys, { merchantId: scope.merchantId, cardNumber: digits });
    masked = maskCardNumber(digits);
    declineReason = declineReasonOf(digits, 'moto');
  } else {
    if (!customer) return problem(400, 'A saved card belongs to a stored customer: choose the customer first');
    const [item] = await tx
      .select()
      .from(customerData)
      .where(and(eq(customerData.id, body.savedCardId ?? ''), eq(customerData.customerId, customer.id), eq(customerData.kind, 'savedCard')));
    const token = typeof item?.value.cardToken === 'string' ? item.value.cardToken : null;
    const [vaulted] = token
      ? await tx
          .select()
          .from(cardVault)
          .where(and(eq(cardVault.token, token), eq(cardVault.merchantId, scope.merchantId)))
      : [];
    if (!item || !vaulted) return problem(404, 'The requested record was not found.');
    const month = Number(item.value.expiryMonth);
    const year = Number(item.value.expiryYear);
    if (Date.UTC(year, month, 1) <= at.getTime()) return problem(400, 'The saved card has expired; enter a new card');
    cardToken = vaulted.token;
    masked = vaulted.masked;
    declineReason = vaultedCardDeclineReason(context.cardKeys, scope.merchantId, vaulted, 'moto');
    savedCardId = item.id;
  }

  // Saving the card: only when paid, within the customer's limit (the same card is not saved twice). A new customer
  // is stored first, with the order: as Stripe's 'Create payment' saves the customer with the card.
  let customerCreated = false;
  if (body.saveCard && !customer && body.card && declineReason === null) {
    customer = await storeOrderCustomer(tx, actor, scope, body, email, dateOfBirth, at);
    customerCreated = true;
  }
  if (body.saveCard && customer && body.card && declineReason === null) {
    const existing = await tx
      .select({ id: customerData.id, value: customerData.value })
      .from(customerData)
      .where(and(eq(customerData.customerId, customer.id), eq(customerData.kind, 'savedCard')))
      .for('update');
    const same = existing.find((item) => item.value.cardToken === cardToken);
    if (same) savedCardId = same.id;
    else if (existing.length >= settings.savedCardLimit) return problem(400, savedCardLimitMessage);
    else {
      const expiry = expiryOf(body.card.expiry);
      savedCardId = newSavedCardId();
      await tx.insert(customerData).values({
        id: savedCardId,
        customerId: customer.id,
        merchantId: scope.merchantId,
        kind: 'savedCard',
        createdUtc: at,
        value: {
          cardToken,
          maskedCardNumber: masked,
          expiryMonth: expiry?.month ?? 0,
          expiryYear: expiry?.year ?? 0,
          cardholderName: body.card.cardholderName.trim(),
          brand: cardBrand(digits ?? ''),
        },
      });
    }
  }

  const paid = declineReason === null;
  const order = {
    channel: 'moto',
    billingIdentity: { emailAddress: email ?? undefined, dateOfBirth: dateOfBirth ?? undefined },
    billingAddress: body.billingAddress,
    shippingAddress: body.shippingAddress ?? undefined,
    customerId: customer?.id,
    orderLines: body.orderLines.map((line) => {
      const amounts = lineAmounts(line, currency);
      return {
        type: line.type,
        description: line.description.trim(),
        quantity: line.quantity,
        vatPercentage: line.vatPercentage,
        unitPriceInclVat: amounts.sign * amounts.unitInclMinor,
        unitPriceExclVat: amounts.sign * amounts.unitExclMinor,
        priceEnteredIncludingVat: line.priceIncludesVat,
      };
    }),
  };
  const jobReference = newJobReference();
  const [job] = await tx
    .insert(paymentJobs)
    .values({
      reference: jobReference,
      partnerId: scope.partnerId,
      businessId: scope.businessId,
      merchantId: scope.merchantId,
      configurationId: scope.configurationId,
      createDateTimeUtc: at,
      expirationDateTimeUtc: null,
      paidDateTimeUtc: paid ? at : null,
      orderNumber: reference,
      amountMinor: totals.inclMinor,
      currency,
      status: paid ? 'paid' : 'declined',
      order,
    })
    .returning();
  if (!job) throw new Error('createVirtualTerminalOrder: the job was not written');
  const transactionReference = newTransactionReference();
  const amount = toMajorUnits(totals.inclMinor, currency);
  const meta = {
    transactionReference,
    merchantReference: reference,
    amount,
    currency,
    maskedCardNumber: masked,
    configurationId: scope.configurationId,
    savedCard: Boolean(body.savedCardId),
    cardSaved: Boolean(body.saveCard && paid),
    outcome: paid ? 'paid' : 'declined',
    ...(declineReason ? { message: declineReason } : {}),
  };
  await commitPaymentChange(tx, {
    job,
    actor,
    at,
    insert: [
      {
        reference: transactionReference,
        kind: 'payment',
        parentReference: null,
        partnerId: scope.partnerId,
        businessId: scope.businessId,
        merchantId: scope.merchantId,
        configurationId: scope.configurationId,
        paymentJobReference: jobReference,
        createdAt: at,
        amountMinor: totals.inclMinor,
        currency,
        status: paid ? 'paid' : 'declined',
        paymentMethod: 'card',
        channel: 'Gateway',
        ewalletType: null,
        cardMasked: masked,
        cardToken,
        declineReason,
        customerEmail: email,
        originatingIpAddress: null,
      },
    ],
    steps: [
      {
        paymentId: transactionReference,
        paymentJobReference: jobReference,
        step: paid ? 'authorisedAndCaptured' : 'declined',
        amountMinor: totals.inclMinor,
        detail: declineReason,
        dateTimeUtc: at,
      },
    ],
    audit: { event: paid ? 'VirtualTerminalOrderSuccessful' : 'VirtualTerminalOrderFailed', metaData: meta },
  });

  const confirmationEmailQueued =
    paid && settings.orderConfirmationEmails && email
      ? await queueOrderConfirmation(tx, scope, { email, order, amountMinor: totals.inclMinor, currency, merchantReference: reference, jobReference, masked })
      : false;
  const totalText = formatMoney(totals.inclMinor, currency);
  return {
    status: 201,
    body: {
      result: paid ? 'paid' : 'declined',
      declineReason,
      paymentJobReference: jobReference,
      transactionReference,
      amount,
      currency,
      maskedCardNumber: masked,
      savedCardId: paid ? savedCardId : null,
      confirmationEmailQueued,
      customerId: customer?.id ?? null,
      customerCreated,
      message: paid ? `${totalText} paid.` : `Declined: ${declineReason}.`,
    },
  };
}

/** The paid order's confirmation, from the merchant, with its lines and VAT; true once queued. */
async function queueOrderConfirmation(
  tx: DbWriter,
  scope: ConfigurationScope,
  paid: { email: string; order: unknown; amountMinor: number; currency: string; merchantReference: string; jobReference: string; masked: string },
): Promise<boolean> {
  const total = formatMoney(paid.amountMinor, paid.currency);
  const sender = await merchantSenderOf(tx, scope.merchantId, scope.configurationId);
  await queueEmail(tx, paid.email, {
    template: 'orderConfirmation',
    subject: `${sender.name}: order confirmation ${paid.merchantReference}`,
    heading: `Thank you for your order`,
    paragraphs: [
      `${sender.name} has received your payment of ${total} for order ${paid.merchantReference}.`,
      ...orderSummaryParagraphs(paid.order, paid.currency),
      `Paid with card ${paid.masked.slice(-4).padStart(8, '•')}.`,
    ],
    footer: `You receive this email because you placed an order with ${sender.name} by phone. Reference ${paid.jobReference}.`,
    sender,
  });
  return true;
}

/**
 * Another attempt at a declined order: a new payment on the SAME payment job (the job's detail and trace then show
 * both), with the card the decline used ('Try again': its vault token, never reopened), another card typed, or a
 * saved card of the order's customer. The job becomes paid or stays declined; committed through the one door with
 * the order's audit events (the attempt's number and the payment it follows in the metadata). A job that is not a
 * declined virtual terminal order of this configuration is refused: 404 when not there, 409 when already paid.
 */
export async function retryDeclinedOrder(
  tx: DbWriter,
  context: VirtualTerminalContext,
  actor: Actor,
  scope: ConfigurationScope,
  jobReference: string,
  body: VirtualTerminalAttemptBody,
  at: Date,
): Promise<ActionOutcome> {
  const [job] = await tx
    .select()
    .from(paymentJobs)
    .where(and(eq(paymentJobs.reference, jobReference), eq(paymentJobs.merchantId, scope.merchantId)))
    .for('update');
  if (!job) return problem(404, 'The requested record was not found.');
  const order = (job.order ?? {}) as { channel?: unknown; customerId?: unknown; billingIdentity?: { emailAddress?: unknown } };
  if (job.status === 'paid' || job.paidDateTimeUtc !== null) return problem(409, `Order ${job.orderNumber} is paid already: nothing was charged again.`);
  if (order.channel !== 'moto' || job.configurationId !== scope.configurationId || job.status !== 'declined') {
    return problem(409, `Payment job ${job.reference} is not a declined telephone order of this configuration: only such an order can be tried again here.`);
  }
  if ((body.sameCard ? 1 : 0) + (body.card ? 1 : 0) + (body.savedCardId ? 1 : 0) !== 1) {
    return problem(400, 'Try the same card again, enter another card or choose a saved card (one of them)');
  }
  const attempts = await tx
    .select({ reference: transactions.reference, cardToken: transactions.cardToken })
    .from(transactions)
    .where(and(eq(transactions.paymentJobReference, job.reference), eq(transactions.kind, 'payment')))
    .orderBy(desc(transactions.createdAt), desc(transactions.reference));
  const previous = attempts[0];
  if (!previous) return problem(404, 'The requested record was not found.');

  let vaulted: typeof cardVault.$inferSelect | undefined;
  let declineReason: string | null;
  if (body.card) {
    const digits = cardDigits(body.card.cardNumber);
    const problems: string[] = [];
    if (!/^[0-9]{12,19}$/.test(digits) || !luhnValid(digits)) problems.push('Card number is invalid');
    const expiry = expiryProblem(body.card.expiry, at);
    if (expiry) problems.push(expiry);
    if (problems.length > 0) return { status: 400, body: { errorReport: { errors: problems.map((message) => ({ message, translatedMessage: message })) } } };
    const token = await vaultCard(tx, context.cardKeys, { merchantId: scope.merchantId, cardNumber: digits });
    [vaulted] = await tx
      .select()
      .from(cardVault)
      .where(and(eq(cardVault.token, token), eq(cardVault.merchantId, scope.merchantId)));
    declineReason = declineReasonOf(digits, 'moto');
  } else {
    let token: string | null = null;
    if (body.savedCardId) {
      const customerId = typeof order.customerId === 'string' ? order.customerId : null;
      if (!customerId) return problem(400, 'A saved card belongs to a stored customer: this order has none');
      const [item] = await tx
        .select()
        .from(customerData)
        .where(
          and(
            eq(customerData.id, body.savedCardId),
            eq(customerData.customerId, customerId),
            eq(customerData.merchantId, scope.merchantId),
            eq(customerData.kind, 'savedCard'),
          ),
        );
      if (!item) return problem(404, 'The requested record was not found.');
      if (Date.UTC(Number(item.value.expiryYear), Number(item.value.expiryMonth), 1) <= at.getTime())
        return problem(400, 'The saved card has expired; enter a new card');
      token = typeof item.value.cardToken === 'string' ? item.value.cardToken : null;
    } else {
      token = previous.cardToken;
    }
    [vaulted] = token
      ? await tx
          .select()
          .from(cardVault)
          .where(and(eq(cardVault.token, token), eq(cardVault.merchantId, scope.merchantId)))
      : [];
    if (!vaulted)
      return problem(
        body.sameCard ? 400 : 404,
        body.sameCard ? 'The declined card is no longer kept: enter the card again' : 'The requested record was not found.',
      );
    declineReason = vaultedCardDeclineReason(context.cardKeys, scope.merchantId, vaulted, 'moto');
  }
  if (!vaulted) throw new Error('retryDeclinedOrder: the card was not vaulted');

  const paid = declineReason === null;
  const attempt = attempts.length + 1;
  const email = typeof order.billingIdentity?.emailAddress === 'string' ? order.billingIdentity.emailAddress : null;
  const transactionReference = newTransactionReference();
  const amount = toMajorUnits(job.amountMinor, job.currency);
  await commitPaymentChange(tx, {
    job,
    actor,
    at,
    insert: [
      {
        reference: transactionReference,
        kind: 'payment',
        parentReference: null,
        partnerId: job.partnerId,
        businessId: job.businessId,
        merchantId: job.merchantId,
        configurationId: job.configurationId,
        paymentJobReference: job.reference,
        createdAt: at,
        amountMinor: job.amountMinor,
        currency: job.currency,
        status: paid ? 'paid' : 'declined',
        paymentMethod: 'card',
        channel: 'Gateway',
        ewalletType: null,
        cardMasked: vaulted.masked,
        cardToken: vaulted.token,
        declineReason,
        customerEmail: email,
        originatingIpAddress: null,
      },
    ],
    jobPatch: paid ? { status: 'paid', paidDateTimeUtc: at } : { status: 'declined' },
    steps: [
      {
        paymentId: transactionReference,
        paymentJobReference: job.reference,
        step: paid ? 'authorisedAndCaptured' : 'declined',
        amountMinor: job.amountMinor,
        detail: declineReason,
        dateTimeUtc: at,
      },
    ],
    audit: {
      event: paid ? 'VirtualTerminalOrderSuccessful' : 'VirtualTerminalOrderFailed',
      metaData: {
        transactionReference,
        merchantReference: job.orderNumber,
        amount,
        currency: job.currency,
        maskedCardNumber: vaulted.masked,
        configurationId: job.configurationId,
        attempt,
        retryOf: previous.reference,
        card: body.sameCard ? 'same' : body.savedCardId ? 'saved' : 'new',
        outcome: paid ? 'paid' : 'declined',
        ...(declineReason ? { message: declineReason } : {}),
      },
    },
  });
  const settings = await loadVirtualTerminalSettings(tx, scope);
  const confirmationEmailQueued =
    paid && settings?.orderConfirmationEmails && email
      ? await queueOrderConfirmation(tx, scope, {
          email,
          order: job.order,
          amountMinor: job.amountMinor,
          currency: job.currency,
          merchantReference: job.orderNumber,
          jobReference: job.reference,
          masked: vaulted.masked,
        })
      : false;
  return {
    status: 201,
    body: {
      result: paid ? 'paid' : 'declined',
      declineReason,
      paymentJobReference: job.reference,
      transactionReference,
      amount,
      currency: job.currency,
      maskedCardNumber: vaulted.masked,
      savedCardId: null,
      confirmationEmailQueued,
      customerId: typeof order.customerId === 'string' ? order.customerId : null,
      customerCreated: false,
      attempt,
      message: paid ? `${formatMoney(job.amountMinor, job.currency)} paid.` : `Declined: ${declineReason}.`,
    },
  };
}

type LinkOrder = {
  reference: string;
  email: string;
  dateOfBirth: string | null;
  customerId: string | null;
  validityHours: number;
  totals: { inclMinor: number };
};

/** 'Send a payment link instead': an open job (no payment yet) whose hosted-page link is emailed; single use (paid once). */
async function sendPaymentLinkOrder(
  tx: DbWriter,
  context: VirtualTerminalContext,
  actor: Actor,
  scope: ConfigurationScope,
  body: VirtualTerminalOrderBody,
  order: LinkOrder,
  at: Date,
): Promise<ActionOutcome> {
  const { currency } = body;
  const expires = new Date(at.getTime() + order.validityHours * 3_600_000);
  const jobReference = newJobReference();
  const [job] = await tx
    .insert(paymentJobs)
    .values({
      reference: jobReference,
      partnerId: scope.partnerId,
      businessId: scope.businessId,
      merchantId: scope.merchantId,
      configurationId: scope.configurationId,
      createDateTimeUtc: at,
      expirationDateTimeUtc: expires,
      paidDateTimeUtc: null,
      orderNumber: order.reference,
      amountMinor: order.totals.inclMinor,
      currency,
      status: 'pending',
      order: {
        channel: 'moto-link',
        billingIdentity: { emailAddress: order.email, dateOfBirth: order.dateOfBirth ?? undefined },
        billingAddress: body.billingAddress,
        shippingAddress: body.shippingAddress ?? undefined,
        customerId: order.customerId ?? undefined,
        orderLines: body.orderLines.map((line) => {
          const amounts = lineAmounts(line, currency);
          return {
            type: line.type,
            description: line.description.trim(),
            quantity: line.quantity,
            vatPercentage: line.vatPercentage,
            unitPriceInclVat: amounts.sign * amounts.unitInclMinor,
            unitPriceExclVat: amounts.sign * amounts.unitExclMinor,
          };
        }),
      },
    })
    .returning();
  if (!job) throw new Error('sendPaymentLinkOrder: the job was not written');
  const url = portalLink(context.publicUrl, `/pay/${encodeURIComponent(jobReference)}`);
  const total = formatMoney(order.totals.inclMinor, currency);
  const sender = await merchantSenderOf(tx, scope.merchantId, scope.configurationId);
  const { id } = await queueEmail(tx, order.email, {
    template: 'paymentLink',
    subject: `${sender.name}: payment request of ${total} for order ${order.reference}`,
    heading: `${sender.name} asks you to pay ${total}`,
    paragraphs: [
      `${sender.name} sent you a payment request of ${total} for order ${order.reference}, taken by phone.`,
      ...orderSummaryParagraphs(job.order, currency),
      'Use the button below to pay securely; the link can be used once. You receive a receipt by email once it is paid.',
    ],
    action: { label: `Pay ${total}`, url },
    footer: `The link is valid until ${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    sender,
  });
  const amount = toMajorUnits(order.totals.inclMinor, currency);
  await commitPaymentChange(tx, {
    job,
    actor,
    at,
    audit: {
      event: 'VirtualTerminalOrderSuccessful',
      metaData: {
        merchantReference: order.reference,
        amount,
        currency,
        configurationId: scope.configurationId,
        outcome: 'paymentLinkSent',
        emailId: id,
        expirationDateTimeUtc: expires.toISOString(),
      },
    },
  });
  return {
    status: 201,
    body: {
      result: 'linkSent',
      declineReason: null,
      paymentJobReference: jobReference,
      transactionReference: null,
      amount,
      currency,
      maskedCardNumber: null,
      savedCardId: null,
      customerId: order.customerId,
      customerCreated: false,
      confirmationEmailQueued: false,
      paymentUrl: url,
      expirationDateTimeUtc: expires.toISOString(),
      message: `Payment link for ${total} sent to ${order.email}.`,
    },
  };
}

/** The order's customer, stored: name, email, date of birth and addresses as typed; audited CustomerCreated. */
async function storeOrderCustomer(
  tx: DbWriter,
  actor: Actor,
  scope: ConfigurationScope,
  body: VirtualTerminalOrderBody,
  email: string | null,
  dateOfBirth: string | null,
  at: Date,
) {
  const billing = body.billingAddress;
  const [stored] = await tx
    .insert(customers)
    .values({
      id: `CUS${randomBytes(8).toString('hex').toUpperCase()}`,
      businessId: scope.businessId,
      merchantId: scope.merchantId,
      reference: `C-${randomBytes(4).toString('hex').toUpperCase()}`,
      title: billing.title?.trim() || null,
      firstName: billing.firstName?.trim() ?? '',
      middleName: billing.middleName?.trim() || null,
      lastName: billing.lastName?.trim() || billing.organisation?.trim() || '',
      emailAddress: email,
      dateOfBirth,
      billingAddress: billing,
      shippingAddress: body.shippingAddress ?? null,
      createdUtc: at,
      lastUpdatedUtc: at,
    })
    .returning();
  if (!stored) throw new Error('storeOrderCustomer: the customer was not written');
  await recordAudit(
    tx,
    actor,
    'CustomerCreated',
    { businessId: scope.businessId, merchantId: scope.merchantId },
    { customerId: stored.id, reference: stored.reference, source: 'virtualTerminalOrder', merchantReference: body.merchantReference.trim() },
    { at },
  );
  return stored;
}

/** Saved cards of a customer: what may be shown (never the token). */
export async function savedCardsOf(tx: DbWriter, merchantId: string, customerId: string) {
  const rows = await tx
    .select()
    .from(customerData)
    .where(and(eq(customerData.customerId, customerId), eq(customerData.merchantId, merchantId), eq(customerData.kind, 'savedCard')))
    .orderBy(customerData.createdUtc, customerData.id);
  return rows.map((row) => ({
    savedCardId: row.id,
    maskedCardNumber: String(row.value.maskedCardNumber ?? ''),
    expiryMonth: Number(row.value.expiryMonth ?? 0),
    expiryYear: Number(row.value.expiryYear ?? 0),
    cardholderName: typeof row.value.cardholderName === 'string' ? row.value.cardholderName : null,
    createdUtc: row.createdUtc.toISOString(),
  }));
}
