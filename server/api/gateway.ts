// The payment gateway API (spec section 7: base /api/gateway, bearer and Time-Zone headers), for a
// merchant's own systems. Authenticated by one of the configuration's API keys (Authorization: Bearer <key>), verified
// against the stored SHA-256 hashes (server/api/api-keys.ts verifyApiKey): an unknown, revoked or expired key is a 401.
// Every 4xx answers { errorReport: { errors: [{ message, translatedMessage }] } }.
//
// | method | path                                 | answer |
// |--------|--------------------------------------|--------|
// | POST   | /api/gateway/payment-jobs            | 201 { reference, status 'pending', amount, currency, merchantReference, paymentUrl, expirationDateTimeUtc }; Idempotency-Key as the payment actions |
// | GET    | /api/gateway/payment-jobs/{reference}| the job of the key's configuration (404 for any other): status, amounts, payments (masked card only) |
//
// A job made here is open: the shopper pays it on the hosted payment page (/pay/{reference}); it expires
// after expiresInHours (default 24, at most 720). Written through the one door for money (openPaymentJob, server/payments/):
// versioned, audited 'GatewayPaymentJobCreated' with the key's id, and announced to open panes.
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type } from 'arktype';
import { formatMoney } from '../../src/contract/payment-jobs.ts';
import { toMajorUnits } from '../../src/contract/transactions.ts';
import { lineAmounts, orderTotals, toMinor } from '../../src/contract/virtual-terminal.ts';
import { gatewayPaymentJobBody } from '../../src/contract/virtual-terminal-schemas.ts';
import { businesses, paymentJobs, transactions } from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { isPlausibleEmailAddress } from '../mail/outbox.ts';
import { openPaymentJob } from '../payments/payment-job-opening.ts';
import { runPaymentAction, type ActionOutcome } from '../payments/payment-operations.ts';
import { loadVirtualTerminalSettings } from '../payments/virtual-terminal.ts';
import { verifyApiKey } from './api-keys.ts';
import type { Deps } from '../http/env.ts';
import { errorReport, validationMessages } from '../http/errors.ts';
import { idempotencyKeyMessage, isIdempotencyKey } from '../http/idempotency-key.ts';

type GatewayKey = { id: string; configurationId: string; businessId: string; merchantId: string };
type GatewayEnv = { Variables: { apiKey: GatewayKey } };

const referencePattern = /^[A-Za-z0-9_-]{1,64}$/;
const fail = (c: Context<GatewayEnv>, status: 400 | 401 | 404 | 413 | 415, message: string) => c.json(errorReport([message]), status);

export function gatewayRoutes({ database, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<GatewayEnv>();
  routes.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    const match = /^Bearer ([\x21-\x7e]{1,200})$/.exec(c.req.header('authorization') ?? '');
    if (!match?.[1]) return fail(c, 401, 'An API key is required: send it as Authorization: Bearer <key>.');
    const key = await verifyApiKey(database, match[1]);
    if (!key) return fail(c, 401, 'The API key is unknown, revoked or expired.');
    c.set('apiKey', key);
    await next();
    return undefined;
  });
  routes.use('*', bodyLimit({ maxSize: 256 * 1024, onError: (c) => c.json(errorReport(['The request body may have 262144 bytes maximum.']), 413) }));

  routes.post('/payment-jobs', async (c) => {
    const key = c.get('apiKey');
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return fail(c, 415, 'The request body must be application/json.');
    let input: unknown;
    try {
      input = await c.req.json();
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.');
    }
    if (JSON.stringify(input).includes('\\u0000')) return fail(c, 400, 'The request body may not contain NUL characters.');
    const body = gatewayPaymentJobBody(input);
    if (body instanceof type.errors) return c.json(errorReport(validationMessages(body)), 400);
    const idempotencyKey = c.req.header('idempotency-key');
    if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) return fail(c, 400, idempotencyKeyMessage);
    const actor = { userId: `apikey:${key.id}` };
    const outcome = await runPaymentAction(
      database,
      { actor, idempotencyKey: idempotencyKey ?? null, fingerprint: { path: c.req.path, body } },
      async (tx, at): Promise<ActionOutcome> => {
        const refuse = (message: string): ActionOutcome => ({ status: 400, body: errorReport([message]) });
        const settings = await loadVirtualTerminalSettings(tx, key);
        if (!settings) return { status: 404, body: errorReport(['The requested record was not found.']) };
        if (!settings.currencies.includes(body.currency))
          return refuse(`This configuration does not offer ${body.currency}; choose one of ${settings.currencies.join(', ')}.`);
        const amountMinor = toMinor(body.amount, body.currency);
        if (Math.abs(body.amount * 10 ** 3 - Math.round(body.amount * 10 ** 3)) > 1e-6 || toMajorUnits(amountMinor, body.currency) !== body.amount) {
          return refuse(`The amount has more decimals than ${body.currency} allows.`);
        }
        const lines = body.orderLines ?? [];
        if (lines.length > 0 && orderTotals(lines, body.currency).inclMinor !== amountMinor) {
          return refuse(
            `The order lines add up to ${formatMoney(orderTotals(lines, body.currency).inclMinor, body.currency)}, not ${formatMoney(amountMinor, body.currency)}.`,
          );
        }
        const email = body.emailAddress?.trim() || null;
        if (email !== null && !isPlausibleEmailAddress(email)) return refuse('Enter a valid email address.');
        const [business] = await tx.select({ partnerId: businesses.partnerId }).from(businesses).where(eq(businesses.id, key.businessId));
        const reference = `PJ${randomBytes(5).toString('hex').toUpperCase()}`;
        const expires = new Date(at.getTime() + (body.expiresInHours ?? 24) * 3_600_000);
        // Through the one door for money: the job, its version, its audit event and the live event of open panes.
        await openPaymentJob(tx, {
          actor,
          at,
          job: {
            reference,
            partnerId: business?.partnerId ?? null,
            businessId: key.businessId,
            merchantId: key.merchantId,
            configurationId: key.configurationId,
            createDateTimeUtc: at,
            expirationDateTimeUtc: expires,
            orderNumber: body.merchantReference.trim(),
            amountMinor,
            currency: body.currency,
            status: 'pending',
            order: {
              channel: 'gateway',
              billingIdentity: { emailAddress: email ?? undefined },
              orderLines: lines.map((line) => {
                const amounts = lineAmounts(line, body.currency);
                return {
                  type: line.type,
                  description: line.description,
                  quantity: line.quantity,
                  vatPercentage: line.vatPercentage,
                  unitPriceInclVat: amounts.sign * amounts.unitInclMinor,
                  unitPriceExclVat: amounts.sign * amounts.unitExclMinor,
                };
              }),
            },
          },
          audit: {
            event: 'GatewayPaymentJobCreated',
            metaData: {
              paymentJobReference: reference,
              apiKeyId: key.id,
              configurationId: key.configurationId,
              amount: body.amount,
              currency: body.currency,
              merchantReference: body.merchantReference,
            },
          },
        });
        return {
          status: 201,
          body: {
            reference,
            status: 'pending',
            amount: body.amount,
            currency: body.currency,
            merchantReference: body.merchantReference.trim(),
            paymentUrl: portalLink(publicUrl, `/pay/${reference}`),
            expirationDateTimeUtc: expires.toISOString(),
          },
        };
      },
    );
    return c.json(outcome.body, outcome.status);
  });

  routes.get('/payment-jobs/:reference', async (c) => {
    const key = c.get('apiKey');
    const reference = c.req.param('reference');
    if (!referencePattern.test(reference)) return fail(c, 404, 'The requested record was not found.');
    const [job] = await db
      .select()
      .from(paymentJobs)
      .where(and(eq(paymentJobs.reference, reference), eq(paymentJobs.configurationId, key.configurationId), eq(paymentJobs.merchantId, key.merchantId)));
    if (!job) return fail(c, 404, 'The requested record was not found.');
    const payments = await db
      .select()
      .from(transactions)
      .where(and(eq(transactions.paymentJobReference, reference), eq(transactions.kind, 'payment')))
      .orderBy(asc(transactions.createdAt));
    return c.json({
      reference: job.reference,
      merchantReference: job.orderNumber,
      status: job.status,
      amount: toMajorUnits(job.amountMinor, job.currency),
      currency: job.currency,
      createDateTimeUtc: job.createDateTimeUtc.toISOString(),
      expirationDateTimeUtc: job.expirationDateTimeUtc?.toISOString() ?? null,
      paidDateTimeUtc: job.paidDateTimeUtc?.toISOString() ?? null,
      paymentUrl: portalLink(publicUrl, `/pay/${job.reference}`),
      payments: payments.map((payment) => ({
        paymentId: payment.reference,
        status: payment.status,
        amount: toMajorUnits(payment.amountMinor, payment.currency),
        currency: payment.currency,
        paymentMethod: payment.paymentMethod,
        maskedCardNumber: payment.cardMasked,
        declineReason: payment.declineReason,
        createdDateTimeUtc: payment.createdAt.toISOString(),
      })),
    });
  });

  routes.all('*', (c) => fail(c, 404, 'The requested record was not found.'));
  return routes;
}
