// The virtual terminal: MOTO orders, the saved cards they use and the terminal's settings.
// {c} = /businesses/{businessId}/merchants/{merchantId}/configurations/{configurationId}/virtual-terminal
//
// | method | path                                            | permission                                   | answer |
// |--------|-------------------------------------------------|----------------------------------------------|--------|
// | GET    | {c}/settings                                    | Portal.Settings.Read or Portal.Moto.Create   | settings, version (the configuration's), currencies |
// | PUT    | {c}/settings                                    | Portal.Settings.Update                       | settings; body carries the version read (stale → 409) |
// | POST   | {c}/orders                                      | Portal.Moto.Create                           | 201 { result paid/declined, declineReason, paymentJobReference, transactionReference, … }; 409 { duplicateOf } for a reference used within 24 h (any case, surrounding space ignored) without confirmDuplicate; 429 with Retry-After for a payment link past the mail limits |
// | POST   | {c}/orders/{paymentJobReference}/attempts       | Portal.Moto.Create                           | 201 the order's answer with attempt (2, 3…): another payment on a declined order's job (the same card, another, or a saved one); 409 when the job is paid already or not declined; 404 when not this configuration's order |
// | GET    | {c}/customers/{customerId}/saved-cards          | Portal.Moto.Create                           | { results (masked only), savedCardLimit } |
// | DELETE | {c}/customers/{customerId}/saved-cards/{id}     | Portal.Moto.Create                           | 204; the vault row erased; audited SavedCardDeleted |
//
// An unreachable business or merchant, and a configuration or customer of another merchant, answer 404; a reachable
// one without the permission 403. With the configuration's virtualTerminalMenuEnabled switch off, orders and saved
// cards are refused (403). POST orders and attempts take an Idempotency-Key as the payment actions do. The order itself is
// server/payments/virtual-terminal.ts (through the one door for money).
import { and, eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { virtualTerminalAttemptBody, virtualTerminalOrderBody, virtualTerminalSettingsBody } from '../../src/contract/virtual-terminal-schemas.ts';
import { cardDigits } from '../../src/contract/virtual-terminal.ts';
import { recordAudit } from '../audit/record.ts';
import { cardFingerprints } from '../cards/card-seal.ts';
import { cardVault, configurations, customerData, customers, transactions, virtualTerminalSettings } from '../db/schema.ts';
import { assertPaymentLinkMailAllowed, PaymentLinkMailLimited } from '../payments/payment-link-limits.ts';
import { type ActionOutcome, runPaymentAction } from '../payments/payment-operations.ts';
import { createVirtualTerminalOrder, loadVirtualTerminalSettings, retryDeclinedOrder, savedCardsOf } from '../payments/virtual-terminal.ts';
import { resolveContext } from '../policy/principal.ts';
import { type AppEnv, type Deps, readBody } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { idempotencyKeyOf } from '../http/idempotency-key.ts';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const base = '/businesses/:businessId/merchants/:merchantId/configurations/:configurationId/virtual-terminal';

export function virtualTerminalRoutes({ database, cardKeys, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();

  /** The configuration in the caller's reach, with one of the permissions; 404 / 403 otherwise. */
  async function configurationOf(c: Context<AppEnv>, anyOf: PermissionName[], options: { requireSwitch?: boolean } = {}) {
    const businessId = c.req.param('businessId') ?? '';
    const merchantId = c.req.param('merchantId') ?? '';
    const configurationId = c.req.param('configurationId') ?? '';
    if (![businessId, merchantId, configurationId].every((id) => idPattern.test(id))) throw notFound();
    const resolved = await resolveContext(database, c.get('principal'), businessId, merchantId);
    if (!resolved?.merchant) throw notFound();
    const [configuration] = await db
      .select()
      .from(configurations)
      .where(and(eq(configurations.id, configurationId), eq(configurations.merchantId, resolved.merchant.id)));
    if (!configuration) throw notFound();
    if (!anyOf.some((permission) => resolved.permissions.has(permission))) throw forbidden();
    if (options.requireSwitch && configuration.switches.virtualTerminalMenuEnabled === false) {
      throw new ApiError(403, 'The virtual terminal is switched off for this configuration.');
    }
    return {
      scope: { businessId: resolved.business.id, merchantId: resolved.merchant.id, partnerId: resolved.business.partnerId ?? null, configurationId },
      configuration,
    };
  }

  routes.get(`${base}/settings`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Settings.Read', 'Portal.Moto.Create']);
    const settings = await loadVirtualTerminalSettings(db, scope);
    if (!settings) throw notFound();
    return c.json(settings);
  });

  routes.put(`${base}/settings`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Settings.Update']);
    const body = await readBody(c, virtualTerminalSettingsBody);
    const settings = await db.transaction(async (tx) => {
      const current = await loadVirtualTerminalSettings(tx, scope);
      if (!current) throw notFound();
      if (body.defaultCurrency !== null && !current.currencies.includes(body.defaultCurrency)) {
        throw badRequest(`The default currency must be one this configuration offers: ${current.currencies.join(', ')}.`);
      }
      const [bumped] = await tx
        .update(configurations)
        .set({ version: sql`${configurations.version} + 1` })
        .where(and(eq(configurations.id, scope.configurationId), eq(configurations.version, body.version)))
        .returning({ version: configurations.version });
      if (!bumped) throw conflict();
      const { version: _version, ...values } = body;
      await tx
        .insert(virtualTerminalSettings)
        .values({ configurationId: scope.configurationId, ...values, updatedAt: new Date() })
        .onConflictDoUpdate({ target: virtualTerminalSettings.configurationId, set: { ...values, updatedAt: new Date() } });
      await recordAudit(
        tx,
        c.get('principal'),
        'VirtualTerminalSettingsUpdated',
        { businessId: scope.businessId, merchantId: scope.merchantId },
        { configurationId: scope.configurationId, version: bumped.version, ...values },
      );
      return loadVirtualTerminalSettings(tx, scope);
    });
    return c.json(settings);
  });

  routes.post(`${base}/orders`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Moto.Create'], { requireSwitch: true });
    const body = await readBody(c, virtualTerminalOrderBody);
    const key = idempotencyKeyOf(c);
    const actor = { userId: c.get('principal').userId };
    // The fingerprint never holds the card number or CVC, even hashed: the card stands as its keyed vault fingerprint.
    const card = body.card
      ? { ...body.card, cardNumber: cardFingerprints(cardKeys, scope.merchantId, cardDigits(body.card.cardNumber))[0], cvc: null }
      : body.card;
    // 'Send a payment link instead' mails the provider's email to the address typed: limited per user and per address.
    const linkRecipient = body.paymentLink ? body.billingIdentity.emailAddress?.trim() || null : null;
    let outcome: ActionOutcome;
    try {
      outcome = await runPaymentAction(database, { actor, idempotencyKey: key, fingerprint: { path: c.req.path, body: { ...body, card } } }, async (tx, at) => {
        if (linkRecipient !== null) await assertPaymentLinkMailAllowed(tx, actor.userId, linkRecipient, at);
        return createVirtualTerminalOrder(tx, { cardKeys, publicUrl }, actor, scope, body, at);
      });
    } catch (error) {
      if (!(error instanceof PaymentLinkMailLimited)) throw error;
      c.header('Retry-After', String(error.retryAfterSeconds));
      throw new ApiError(429, error.message);
    }
    return c.json(outcome.body, outcome.status);
  });

  // 'Try again' / 'Try another card' after a decline: a new payment on the declined job, never a new job.
  routes.post(`${base}/orders/:paymentJobReference/attempts`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Moto.Create'], { requireSwitch: true });
    const jobReference = c.req.param('paymentJobReference');
    if (!idPattern.test(jobReference)) throw notFound();
    const body = await readBody(c, virtualTerminalAttemptBody);
    const key = idempotencyKeyOf(c);
    const card = body.card
      ? { ...body.card, cardNumber: cardFingerprints(cardKeys, scope.merchantId, cardDigits(body.card.cardNumber))[0], cvc: null }
      : body.card;
    const outcome = await runPaymentAction(
      database,
      { actor: { userId: c.get('principal').userId }, idempotencyKey: key, fingerprint: { path: c.req.path, body: { ...body, card } } },
      (tx, at) => retryDeclinedOrder(tx, { cardKeys, publicUrl }, { userId: c.get('principal').userId }, scope, jobReference, body, at),
    );
    return c.json(outcome.body, outcome.status);
  });

  async function customerOf(merchantId: string, customerId: string) {
    if (!idPattern.test(customerId)) throw notFound();
    const [row] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchantId)));
    if (!row) throw notFound();
    return row;
  }

  routes.get(`${base}/customers/:customerId/saved-cards`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Moto.Create'], { requireSwitch: true });
    const customer = await customerOf(scope.merchantId, c.req.param('customerId'));
    const settings = await loadVirtualTerminalSettings(db, scope);
    return c.json({ results: await savedCardsOf(db, scope.merchantId, customer.id), savedCardLimit: settings?.savedCardLimit ?? 0 });
  });

  routes.delete(`${base}/customers/:customerId/saved-cards/:savedCardId`, async (c) => {
    const { scope } = await configurationOf(c, ['Portal.Moto.Create'], { requireSwitch: true });
    const customer = await customerOf(scope.merchantId, c.req.param('customerId'));
    const savedCardId = c.req.param('savedCardId');
    if (!idPattern.test(savedCardId)) throw notFound();
    await db.transaction(async (tx) => {
      const [item] = await tx
        .select()
        .from(customerData)
        .where(and(eq(customerData.id, savedCardId), eq(customerData.customerId, customer.id), eq(customerData.kind, 'savedCard')))
        .for('update');
      if (!item) throw notFound();
      const token = typeof item.value.cardToken === 'string' ? item.value.cardToken : null;
      // The vault row goes too unless a payment still refers to it (then the token stays for that payment's record).
      if (token) {
        const [used] = await tx.select({ reference: transactions.reference }).from(transactions).where(eq(transactions.cardToken, token)).limit(1);
        if (!used) await tx.delete(cardVault).where(and(eq(cardVault.token, token), eq(cardVault.merchantId, scope.merchantId)));
      }
      await tx.delete(customerData).where(eq(customerData.id, savedCardId));
      await recordAudit(
        tx,
        c.get('principal'),
        'SavedCardDeleted',
        { businessId: scope.businessId, merchantId: scope.merchantId },
        { customerId: customer.id, savedCardId, maskedCardNumber: item.value.maskedCardNumber ?? null },
      );
    });
    return c.body(null, 204);
  });

  return routes;
}
