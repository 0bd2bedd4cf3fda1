// The shopper's page of a payment job: GET /pay/{paymentJobReference} (public, no portal session) renders the
// configuration's hosted page design with the job's amount and order lines as plain server-side HTML that needs no
// JavaScript; POST pays it with a card (server/payments/shopper-payment.ts) and answers the receipt page. A job that
// is paid, cancelled or expired gets a clear page saying so (410), an unknown one a not-found page (404). The card
// number travels only in the POST body; it is never logged, echoed back or kept beyond the vault.
//
// A payment job's reference is all it takes to open its page, so guessing references is limited per client address:
// each request for a reference that does not exist is written down (a 'probe' row of sign_in_attempts, which every
// node shares and which is purged after a day), and an address with unknownReferencesPerAddress of them within
// probeWindowMinutes gets 429 with Retry-After for every /pay request, known references included (else the answer
// would still tell which references exist).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { and, asc, desc, eq, gt, lte } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { defaultHostedPageDesign, paymentMethodLabels, type HostedPageDesign } from '../../src/contract/configurations.ts';
import type { PaymentMethod } from '../../src/contract/enumerations.ts';
import {
  formatHostedPageMoney,
  hostedPageDocument,
  hostedPageMessageDocument,
  shopperPaymentOptions,
  type HostedPageOrderLine,
} from '../../src/contract/hosted-page-render.ts';
import { amountMilliOf } from '../../src/contract/transactions.ts';
import { clientAddressOf } from '../client-address.ts';
import { now } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { configurationPaymentMethods, configurations, hostedPages, merchants, paymentJobs, signInAttempts } from '../db/schema.ts';
import { cardProblem, jobState, payShopperJob, type JobState, type PaymentJobRow } from '../payments/shopper-payment.ts';
import type { Deps } from '../http/env.ts';

const referencePattern = /^[A-Z0-9]{4,40}$/;

/** Unknown references one client address may ask for within the window; past it, every /pay request answers 429. */
export const unknownReferencesPerAddress = 30;
export const probeWindowMinutes = 10;
const probeWindowMs = probeWindowMinutes * 60_000;

/**
 * When `address` may ask again, if it has asked for unknownReferencesPerAddress unknown references within the window
 * before `at` (up to and including the row `upToId` when given, so a burst sent at once is counted in full); null
 * when it may ask now.
 */
export async function probeLimitUntil(db: Db, address: string, at: Date, upToId?: number): Promise<Date | null> {
  const rows = await db
    .select({ at: signInAttempts.attemptedAt })
    .from(signInAttempts)
    .where(
      and(
        eq(signInAttempts.address, address),
        eq(signInAttempts.outcome, 'probe'),
        gt(signInAttempts.attemptedAt, new Date(at.getTime() - probeWindowMs)),
        upToId === undefined ? undefined : lte(signInAttempts.id, upToId),
      ),
    )
    .orderBy(desc(signInAttempts.attemptedAt), desc(signInAttempts.id))
    .limit(unknownReferencesPerAddress + 1);
  // With the row just written counted, the address may have one more than the limit (that row itself).
  if (rows.length < unknownReferencesPerAddress + (upToId === undefined ? 0 : 1)) return null;
  // The address may ask again once fewer than the limit are left in the window: when the limit-th newest leaves it.
  return new Date(rows[unknownReferencesPerAddress - 1]!.at.getTime() + probeWindowMs);
}

/**
 * Writes down one request for an unknown reference from `address` at `at`; answers the row's id. The reference is kept
 * only when it has the form of one (anything else, a NUL or an invalid byte included, stands as '?').
 */
export async function recordProbe(db: Db, address: string, reference: string, at: Date): Promise<number> {
  const [row] = await db
    .insert(signInAttempts)
    .values({ emailKey: `pay:${referencePattern.test(reference) ? reference : '?'}`, address, outcome: 'probe', attemptedAt: at })
    .returning({ id: signInAttempts.id });
  return row!.id;
}

/** The client's address of a shopper's request (the direct peer in tests that call app.request without one). */
function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return clientAddressOf(incoming).slice(0, 64);
}

/** The page's money, as the preview formats it (one formatter: src/contract/hosted-page-render.ts). */
export const formatAmount = formatHostedPageMoney;

type OrderLineJson = { description?: unknown; quantity?: unknown; unitPriceInclVat?: unknown };

function orderLinesOf(order: unknown, currency: string): HostedPageOrderLine[] {
  const lines = (order as { orderLines?: unknown } | null)?.orderLines;
  if (!Array.isArray(lines)) return [];
  return lines.slice(0, 50).flatMap((line: OrderLineJson) => {
    const quantity = typeof line.quantity === 'number' ? line.quantity : 1;
    const unit = typeof line.unitPriceInclVat === 'number' ? line.unitPriceInclVat : null;
    if (typeof line.description !== 'string' || unit === null) return [];
    return [{ description: line.description.slice(0, 200), quantity, unitPriceMinor: unit, currency }];
  });
}

const stateTexts: Record<Exclude<JobState, 'open'> | 'notFound', { heading: string; text: string }> = {
  paid: { heading: 'This payment is complete', text: 'This order has already been paid. Nothing more is needed; you can close this page.' },
  cancelled: { heading: 'This payment link was cancelled', text: 'The shop has cancelled this payment. Contact the shop if you still want to pay.' },
  expired: { heading: 'This payment link has expired', text: 'Oops that link has expired. Ask the shop for a new payment link.' },
  notFound: { heading: 'Payment not found', text: 'There is no payment at this address. Check the link in your email.' },
};

export function shopperPageRoutes({ database, cardKeys }: Pick<Deps, 'database' | 'cardKeys'>) {
  const routes = new Hono();
  const { db } = database;

  const answer = (c: Context, html: string, nonce: string, status: 200 | 404 | 410 | 400 | 429 = 200) => {
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(html, status);
  };

  async function pageOf(job: PaymentJobRow) {
    const [merchant] = await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, job.merchantId));
    const [configuration] = await db.select({ tradeName: configurations.tradeName }).from(configurations).where(eq(configurations.id, job.configurationId));
    const [page] = await db
      .select({ design: hostedPages.design })
      .from(hostedPages)
      .where(eq(hostedPages.configurationId, job.configurationId))
      .orderBy(asc(hostedPages.name), asc(hostedPages.reference))
      .limit(1);
    const methods = await db.select().from(configurationPaymentMethods).where(eq(configurationPaymentMethods.configurationId, job.configurationId));
    const design = (page?.design ?? defaultHostedPageDesign) as HostedPageDesign;
    // Only what can really be paid here (a card, within its setting's currencies and limits) is offered; the other
    // switched-on methods are named as not available on this page (the preview shows the same, hosted-page-render.ts).
    const options = shopperPaymentOptions(
      design.paymentMethodOrder,
      methods.map((row) => ({
        method: row.paymentMethod as PaymentMethod,
        enabled: row.enabled,
        displayName: row.displayName,
        minimumAmountMilli: row.minimumAmountMilli,
        maximumAmountMilli: row.maximumAmountMilli,
        currencies: row.currencies,
      })),
      { amountMilli: amountMilliOf(job.amountMinor, job.currency), currency: job.currency },
    );
    return { design, merchantName: configuration?.tradeName ?? merchant?.name ?? 'Payment', options };
  }

  async function findJob(reference: string) {
    if (!referencePattern.test(reference)) return null;
    const [job] = await db.select().from(paymentJobs).where(eq(paymentJobs.reference, reference));
    return job ?? null;
  }

  function tooManyProbes(c: Context, until: Date, at: Date) {
    const seconds = Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    c.header('Retry-After', String(seconds));
    const nonce = randomBytes(16).toString('base64');
    const heading = 'Too many payment pages asked for';
    const text = `This connection asked for too many payment pages that do not exist. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, using the link in your email exactly as it was sent.`;
    return answer(
      c,
      hostedPageMessageDocument(defaultHostedPageDesign, { nonce, title: `${heading} – Payment`, heading, text, merchantName: 'Payment' }),
      nonce,
      429,
    );
  }

  /**
   * The job a /pay request names, or the answer to give instead: 429 while the client's address is over the limit of
   * unknown references, the not-found page for an unknown one (written down, and 429 when it is one too many).
   */
  async function jobOrRefusal(c: Context): Promise<{ job: PaymentJobRow } | { response: Response }> {
    const address = clientAddress(c);
    const at = now();
    const limited = await probeLimitUntil(db, address, at);
    if (limited) return { response: tooManyProbes(c, limited, at) };
    const reference = c.req.param('paymentJobReference') ?? '';
    const job = await findJob(reference);
    if (job) return { job };
    const id = await recordProbe(db, address, reference, at);
    const over = await probeLimitUntil(db, address, at, id);
    if (over) return { response: tooManyProbes(c, over, at) };
    return { response: refusal(c, 'notFound', defaultHostedPageDesign, 'Payment') };
  }

  function refusal(c: Context, state: keyof typeof stateTexts, design: HostedPageDesign, merchantName: string) {
    const nonce = randomBytes(16).toString('base64');
    const texts = stateTexts[state];
    return answer(
      c,
      hostedPageMessageDocument(design, { nonce, title: `${texts.heading} – ${merchantName}`, heading: texts.heading, text: texts.text, merchantName }),
      nonce,
      state === 'notFound' ? 404 : 410,
    );
  }

  async function render(c: Context, job: PaymentJobRow, error: string | null, values: { cardholderName?: string; expiry?: string } = {}) {
    const page = await pageOf(job);
    const state = jobState(job, new Date());
    if (state !== 'open') return refusal(c, state, page.design, page.merchantName);
    const nonce = randomBytes(16).toString('base64');
    const amount = formatAmount(job.amountMinor, job.currency);
    const html = hostedPageDocument(
      {
        design: page.design,
        merchantName: page.merchantName,
        amount,
        orderNumber: job.orderNumber,
        orderLines: orderLinesOf(job.order, job.currency),
        paymentMethods: page.options.payable,
        unavailableMethods: page.options.unavailable,
        ...(page.options.reason ? { unpayableReason: page.options.reason } : {}),
        mode: 'live',
        formAction: `/pay/${job.reference}`,
        error,
        values,
      },
      { nonce, title: `Pay ${amount} to ${page.merchantName}` },
    );
    return answer(c, html, nonce, error ? 400 : 200);
  }

  routes.get('/pay/:paymentJobReference', async (c) => {
    const found = await jobOrRefusal(c);
    if ('response' in found) return found.response;
    return render(c, found.job, null);
  });

  routes.post('/pay/:paymentJobReference', bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.text('The request is too large.', 413) }), async (c) => {
    const found = await jobOrRefusal(c);
    if ('response' in found) return found.response;
    const { job } = found;
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody();
    } catch {
      return render(c, job, 'The form could not be read. Please try again.');
    }
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '').slice(0, 200);
    const card = { cardholderName: text('cardholderName'), cardNumber: text('cardNumber'), expiry: text('expiry'), cvc: text('cvc') };
    const keep = { cardholderName: card.cardholderName, expiry: card.expiry };
    const page = await pageOf(job);
    // The form offers only what can be paid here; a posted method that is not one of them is refused plainly.
    const chosen = text('paymentMethod') || 'card';
    if (!page.options.payable.some((option) => option.method === chosen)) {
      const label = Object.hasOwn(paymentMethodLabels, chosen) ? paymentMethodLabels[chosen as PaymentMethod] : 'This payment method';
      return render(
        c,
        job,
        page.options.payable.length === 0 ? 'This payment cannot be made on this page.' : `${label} cannot be paid on this page. Pay by card instead.`,
        keep,
      );
    }
    const problem = cardProblem(card, new Date());
    if (problem) return render(c, job, problem, keep);
    const result = await payShopperJob(database, cardKeys, job.reference, card);
    if (!result.ok) return refusal(c, result.state, page.design, page.merchantName);
    const nonce = randomBytes(16).toString('base64');
    const amount = formatAmount(job.amountMinor, job.currency);
    return answer(
      c,
      hostedPageMessageDocument(page.design, {
        nonce,
        title: `Payment received – ${page.merchantName}`,
        heading: 'Thank you, your payment was received',
        text: `${amount} was paid to ${page.merchantName} for order ${job.orderNumber}. Your reference is ${result.transactionReference}.`,
        merchantName: page.merchantName,
      }),
      nonce,
    );
  });

  return routes;
}
