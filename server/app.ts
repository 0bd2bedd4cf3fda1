// The Hono app: Portal API under /api/portal, gateway base under /api/gateway, the built client elsewhere.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { serveStatic } from '@hono/node-server/serve-static';
import type { CardKeys } from './cards/card-keys.ts';
import type { Database } from './db/client.ts';
import { readConfig } from './config.ts';
import type { FileStore } from './files/file-store.ts';
import { openFileStore } from './files/open-file-store.ts';
import { loadPrincipal } from './policy/principal.ts';
import { ApiError, errorReport } from './http/errors.ts';
import { createAdmissionGate, GateRefused, type AdmissionOptions } from './api/admission-gate.ts';
import { strictTransportSecurity } from './http/security-headers.ts';
import { liveGrantChecker } from './api/live-grants.ts';
import { cachingVerifier, type AccessTokenVerifier } from './api/verified-tokens.ts';
import { createDpopVerifier, DpopError, dpopAlgorithms, parseAuthorization } from './http/dpop.ts';
import { grantIsLive as grantExists } from './identity/adapter.ts';
import type { AppEnv, Deps } from './http/env.ts';
import { healthRoutes } from './health.ts';
import { logger } from './log.ts';
import { userRoutes } from './api/user.ts';
import { userSettingRoutes } from './api/user-settings.ts';
import { enumerationRoutes } from './api/enumerations.ts';
import { auditEventRoutes } from './api/audit-events.ts';
import { contextRoutes } from './api/context.ts';
import { searchRoutes } from './api/search.ts';
import { recordContextRoutes } from './api/record-context.ts';
import { dashboardRoutes } from './api/dashboard.ts';
import { transactionRoutes } from './api/transactions.ts';
import { paymentJobRoutes } from './api/payment-jobs.ts';
import { reportRoutes } from './api/reports.ts';
import { reportScheduleRoutes } from './api/report-schedules.ts';
import { userNotificationRoutes } from './api/user-notifications.ts';
import { outboxRoutes } from './api/outbox.ts';
import { userAdministrationRoutes } from './api/users.ts';
import { ownAccountRoutes } from './api/own-account.ts';
import { partnerUserRoutes } from './api/partner-users.ts';
import { publicUserRoutes } from './api/public-users.ts';
import { ticketRoutes } from './api/tickets.ts';
import { notificationRoutes } from './api/notifications.ts';
import { eventRoutes } from './events/event-routes.ts';
import { bulkJobRoutes } from './api/bulk-jobs.ts';
import { maxAttachmentBytes, uploadMessages } from '../src/contract/tickets.ts';
import { businessRoutes } from './api/businesses.ts';
import { configurationRoutes } from './api/configurations.ts';
import { imageRoutes, maxImageBodyBytes, publicImageRoutes } from './api/images.ts';
import { apiKeyRoutes } from './api/api-keys.ts';
import { shopperPageRoutes } from './api/shopper-page.ts';
import { accountGroupRoutes } from './api/account-groups.ts';
import { customerRoutes } from './api/customers.ts';
import { contextLists } from './api/context-lists.ts';
import { contextListRoutes } from './http/context-list.ts';
import { gatewayRoutes } from './api/gateway.ts';
import { virtualTerminalRoutes } from './api/virtual-terminal.ts';
import { billingRoutes } from './api/billing.ts';
import { filterPresetRoutes } from './api/filter-presets.ts';
import { beneficiaryRoutes } from './api/beneficiaries.ts';
import { beneficiaryApprovalRoutes } from './api/beneficiary-approvals.ts';
import { watchListRoutes } from './api/watch-list.ts';
import { partnerRoutes } from './api/partners.ts';
import { stepUpRoutes } from './api/step-up.ts';
import { openApiRoutes } from './api/openapi.ts';

export type AppOptions = {
  database: Database;
  /** seal and open full card numbers (server/cards/) */
  cardKeys: CardKeys;
  /** verified tokens are remembered until their exp (see api/verified-tokens.ts) */
  verifyAccessToken: AccessTokenVerifier;
  /**
   * The FIFO gate for requests that use the database (api/admission-gate.ts). Default: on PGlite,
   * embeddedAdmission; on PostgreSQL none (the pool queues statements in order and runs them in parallel).
   */
  admission?: AdmissionOptions | null;
  /** folder of the built browser app; omitted in API tests */
  staticDir?: string;
  publicUrl?: string;
  /** Portal API requests one user may have in progress on this node; more answer 429 (default defaultPerUserInFlight) */
  perUserInFlight?: number;
  /** where files are kept and served from; default: the one the configuration names (files/open-file-store.ts) */
  files?: FileStore;
};

/**
 * Enough for the app's busiest moment (the first screen asks for about six things at once, the dashboard prefetches
 * two periods at a time) with room for a second tab; a script firing dozens at once is told to slow down.
 */
export const defaultPerUserInFlight = 10;

export const maxBodyBytes = 1024 * 1024;

/**
 * PGlite: two requests at a time (one runs statements while the next is ready), up to 2,000 waiting in arrival
 * order; at ~130 requests a second that is a wait of ~15 s at worst before a 503 would be kinder.
 */
export const embeddedAdmission: AdmissionOptions = { concurrent: 2, maxQueued: 2000 };

/** What a request whose client has gone is answered: nobody reads it (499 is nginx's 'client closed request'). */
const clientGone = () => new Response(null, { status: 499 });
const unavailable = (c: { header: (name: string, value: string) => void; json: (body: unknown, status: 503) => Response }) => {
  c.header('Retry-After', '2');
  return c.json(errorReport(['The service is temporarily unavailable. Please try again shortly.']), 503);
};

/** Connection-level failures of the database become 503s: the request can be retried, nothing was half-written. */
/** The error and what it wraps: the ORM wraps driver errors, so what matters is somewhere down the cause chain. */
function* causes(error: unknown): Generator<unknown> {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) yield current;
}

function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of causes(error)) {
    const code = (current as { code?: string }).code ?? '';
    const message = current instanceof Error ? current.message : '';
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08006', '08001', '08003', '08004'].includes(code)) return true;
    if (
      /Connection terminated|connect ECONNREFUSED|database system is (shutting down|starting up|in recovery mode)|terminating connection|Client has encountered a connection error/.test(
        message,
      )
    )
      return true;
  }
  return false;
}

/** The driver's SQLSTATE, looked up through the ORM's wrapping. */
function sqlState(error: unknown): string | undefined {
  for (const current of causes(error)) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Zones already accepted: building an Intl.DateTimeFormat to test one costs more than the rest of a small call. */
const acceptedTimeZones = new Set<string>();

export function validTimeZone(value: string | undefined): string {
  if (!value) return 'UTC';
  if (acceptedTimeZones.has(value)) return value;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: value });
    // IANA has about 600 names (and their case variants): a bound only against a caller inventing valid spellings.
    if (acceptedTimeZones.size < 4096) acceptedTimeZones.add(value);
    return value;
  } catch {
    throw new ApiError(400, `Time-Zone '${value.slice(0, 64)}' is not an IANA time zone.`);
  }
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const { database } = options;
  const app = new Hono<AppEnv>();

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(errorReport(error.messages), error.status);
    if (error instanceof HTTPException) {
      const status = error.status;
      return c.json(errorReport([error.message || 'The request could not be handled.']), status);
    }
    // Input the database cannot represent (a NUL or an invalid byte sequence that slipped past validation).
    const code = sqlState(error);
    if (code === '22021' || code === '22P05' || code === '22P02')
      return c.json(errorReport(['The request contains characters or values that cannot be stored.']), 400);
    if (isDatabaseUnavailable(error)) return unavailable(c);
    logger.error({ component: 'api', method: c.req.method, path: c.req.path, err: error }, 'unhandled error');
    return c.json(errorReport(['Whoops! Something went wrong.']), 500);
  });

  if (options.publicUrl?.startsWith('https://')) {
    app.use('*', async (c, next) => {
      // Before: an answer written straight to the connection (http/file-body.ts) takes the headers set so far; after:
      // a handler's own Response does not.
      c.header('Strict-Transport-Security', strictTransportSecurity);
      await next();
      c.header('Strict-Transport-Security', strictTransportSecurity);
    });
  }

  app.route('/', healthRoutes(database));

  const api = new Hono<AppEnv>();
  // Every signed-in call passes these, in order: headers, body limits, the address check, then the bearer token and
  // the user's principal (also the virtual terminal's calls through the gateway base, below).
  const signedInMiddleware: MiddlewareHandler<AppEnv>[] = [];
  signedInMiddleware.push(async (c, next) => {
    c.header('Cache-Control', 'no-store');
    // Answers are JSON or files with their own type: a browser must never guess another (a download read as HTML).
    c.header('X-Content-Type-Options', 'nosniff');
    await next();
  });
  const limitBody = bodyLimit({
    maxSize: maxBodyBytes,
    // Answered before the body is read: the rest of it is still on the connection, so the connection ends with
    // this answer and a keep-alive client sends its next request on a new one (else it meets a closed socket).
    onError: (c) => {
      c.header('Connection', 'close');
      return c.json(errorReport([`The request body may have ${maxBodyBytes} bytes maximum.`]), 413);
    },
  });
  // A file upload (multipart POST to …/attachments) may carry one attachment of up to maxAttachmentBytes.
  const limitUpload = bodyLimit({
    maxSize: maxAttachmentBytes + 64 * 1024,
    onError: (c) => {
      c.header('Connection', 'close');
      return c.json(errorReport([uploadMessages.tooLarge]), 413);
    },
  });
  const isUpload = (c: { req: { method: string; path: string; header: (name: string) => string | undefined } }) =>
    c.req.method === 'POST' && c.req.path.endsWith('/attachments') && /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '');
  // Image uploads carry up to 5 MB as base64: their own, larger limit.
  const limitImageBody = bodyLimit({
    maxSize: maxImageBodyBytes,
    onError: (c) => {
      c.header('Connection', 'close');
      return c.json(errorReport(['The file exceeded the maximum file size of 5 MB']), 413);
    },
  });
  const isImageUpload = (c: { req: { method: string; path: string } }) => c.req.method === 'POST' && c.req.path.endsWith('/images');
  // No GET or HEAD handler reads a body; asking for one would build a whole fetch Request for each call.
  signedInMiddleware.push((c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? next()
      : isUpload(c)
        ? limitUpload(c, next)
        : isImageUpload(c)
          ? limitImageBody(c, next)
          : limitBody(c, next),
  );
  signedInMiddleware.push(async (c, next) => {
    // PostgreSQL text cannot hold NUL; refuse it at the door rather than deep in a query.
    let decoded: string;
    try {
      decoded = decodeURIComponent(c.req.url);
    } catch {
      throw new ApiError(400, 'The request address is not valid UTF-8.');
    }
    if (decoded.includes('\u0000')) throw new ApiError(400, 'The request address may not contain NUL characters.');
    await next();
  });
  const verifyAccessToken = cachingVerifier(options.verifyAccessToken);
  const checkDpop = createDpopVerifier();
  const publicOrigin = new URL(options.publicUrl ?? readConfig().publicUrl).origin;
  const grantIsLive = liveGrantChecker((grantId) => grantExists(database, grantId));
  const admission = options.admission === undefined ? (database.kind === 'pglite' ? embeddedAdmission : null) : options.admission;
  const gate = admission ? createAdmissionGate(admission) : null;
  const perUserInFlight = options.perUserInFlight ?? defaultPerUserInFlight;
  const inFlightByUser = new Map<string, number>();
  signedInMiddleware.push(async (c, next) => {
    const authorization = parseAuthorization(c.req.header('authorization'));
    if (!authorization) throw new ApiError(401, 'Authentication is required.');
    let userId: string;
    let grantId: string | undefined;
    let jkt: string | undefined;
    let amr: string[] | undefined;
    try {
      ({ userId, grantId, jkt, amr } = await verifyAccessToken(authorization.token));
    } catch {
      throw new ApiError(401, 'The access token is invalid or has expired.');
    }
    // A DPoP-bound token (api/dpop.ts) needs the DPoP scheme and a proof by its key for this request; an unbound
    // token may not pose as one. A copied bound token without the browser's key is refused here.
    if (jkt !== undefined || authorization.scheme === 'DPoP') {
      try {
        if (jkt === undefined || authorization.scheme !== 'DPoP')
          throw new DpopError('The access token is bound to a DPoP key: send it with the DPoP scheme and a proof.');
        await checkDpop({
          method: c.req.method,
          url: `${publicOrigin}${new URL(c.req.url).pathname}`,
          accessToken: authorization.token,
          proof: c.req.header('dpop'),
          jkt,
        });
      } catch (error) {
        if (!(error instanceof DpopError)) throw error;
        c.header('WWW-Authenticate', `DPoP error="invalid_dpop_proof", algs="${dpopAlgorithms.join(' ')}"`);
        throw new ApiError(401, error.message);
      }
    }
    // One user's burst (twenty slow pages at once) must not become everyone's wait: past the cap, 429 at once.
    const inFlight = inFlightByUser.get(userId) ?? 0;
    if (inFlight >= perUserInFlight) {
      c.header('Retry-After', '1');
      return c.json(errorReport([`You have ${perUserInFlight} requests in progress: wait for them to finish, then try again.`]), 429);
    }
    inFlightByUser.set(userId, inFlight + 1);
    const signal = c.req.raw.signal;
    // Everything from here reads the database: the principal, then the handler.
    const handle = async () => {
      if (signal.aborted) return clientGone();
      if (grantId !== undefined && !(await grantIsLive(grantId))) throw new ApiError(401, 'The access token is invalid or has expired.');
      const principal = await loadPrincipal(database, userId);
      if (!principal) throw new ApiError(401, 'The access token is invalid or has expired.');
      if (signal.aborted) return clientGone();
      c.set('principal', principal);
      c.set('sessionKey', grantId ?? '');
      c.set('amr', amr ?? []);
      c.set('timeZone', validTimeZone(c.req.header('time-zone')));
      await next();
      return undefined;
    };
    try {
      if (!gate) return await handle();
      return await gate.run(signal, handle, userId);
    } catch (error) {
      if (error instanceof GateRefused) return unavailable(c);
      if (signal.aborted) return clientGone();
      throw error;
    } finally {
      const left = (inFlightByUser.get(userId) ?? 1) - 1;
      if (left > 0) inFlightByUser.set(userId, left);
      else inFlightByUser.delete(userId);
    }
  });

  for (const middleware of signedInMiddleware) api.use('*', middleware);

  // What every router may need: the database, the card keys, the one FileStore, and PUBLIC_URL for links in emails.
  const deps: Deps = {
    database,
    cardKeys: options.cardKeys,
    files: options.files ?? openFileStore(readConfig()),
    publicUrl: options.publicUrl ?? readConfig().publicUrl,
  };
  api.route('/', userRoutes(deps));
  api.route('/', userSettingRoutes(deps));
  api.route('/', enumerationRoutes(deps));
  api.route('/', auditEventRoutes(deps));
  api.route('/', contextRoutes(deps));
  api.route('/', recordContextRoutes(deps));
  api.route('/', searchRoutes(deps));
  api.route('/', dashboardRoutes(deps));
  api.route('/', transactionRoutes(deps));
  api.route('/', paymentJobRoutes(deps));
  api.route('/', reportRoutes(deps));
  api.route('/', reportScheduleRoutes(deps));
  api.route('/', userNotificationRoutes(deps));
  api.route('/', outboxRoutes(deps));
  api.route('/', userAdministrationRoutes(deps));
  api.route('/', ownAccountRoutes(deps));
  api.route('/', partnerUserRoutes(deps));
  api.route('/', ticketRoutes(deps));
  api.route('/', businessRoutes(deps));
  api.route('/', configurationRoutes(deps));
  api.route('/', imageRoutes(deps));
  api.route('/', apiKeyRoutes(deps));
  api.route('/', accountGroupRoutes(deps));
  api.route('/', customerRoutes(deps));
  api.route('/', contextListRoutes(deps.database, contextLists));
  api.route('/', beneficiaryRoutes(deps));
  api.route('/', beneficiaryApprovalRoutes(deps));
  api.route('/', watchListRoutes(deps));
  api.route('/', notificationRoutes(deps));
  api.route('/', eventRoutes(deps));
  api.route('/', virtualTerminalRoutes(deps));
  api.route('/', partnerRoutes(deps));
  api.route('/', billingRoutes(deps));
  api.route('/', stepUpRoutes(deps));
  api.route('/', bulkJobRoutes(deps));
  api.route('/', openApiRoutes(deps));
  api.route('/', filterPresetRoutes(deps));
  api.notFound((c) => c.json(errorReport(['The requested record was not found.']), 404));

  // The payment gateway API: authenticated by the configuration's API keys, not by a portal sign-in.
  const gateway = gatewayRoutes(deps);
  // The virtual terminal submits through the gateway base (spec section 7: {host}/api/gateway with the Time-Zone
  // header): its orders and saved cards under /api/gateway/businesses/…, signed in as for the Portal API and
  // answered by the same handlers with the same checks (permission, context, the configuration's switch). Mounted
  // before the API-key routes, which never see these paths.
  const gatewayPortal = new Hono<AppEnv>();
  for (const middleware of signedInMiddleware) gatewayPortal.use('/businesses/*', middleware);
  gatewayPortal.route('/', virtualTerminalRoutes(deps));
  gatewayPortal.all('/businesses/*', (c) => c.json(errorReport(['The requested record was not found.']), 404));

  // Public before the signed-in API: an <img> and the shopper's page send no bearer.
  app.route('/', publicImageRoutes(deps));
  app.route('/', shopperPageRoutes(deps));
  app.route('/api/portal', api);
  app.route('/api/gateway', gatewayPortal);
  app.route('/api/gateway', gateway);
  // Public calls of the invitation and password reset pages (no sign-in; body limit as the Portal API).
  app.use('/api/public/*', limitBody);
  app.route('/api/public', publicUserRoutes(deps));
  app.all('/api/*', (c) => c.json(errorReport(['The requested record was not found.']), 404));

  if (options.staticDir && existsSync(join(options.staticDir, 'index.html'))) {
    const staticDir = options.staticDir;
    const indexHtml = readFileSync(join(staticDir, 'index.html'), 'utf8');
    const csp = [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; ');
    app.use('*', async (c, next) => {
      await next();
      c.header('Content-Security-Policy', csp);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Referrer-Policy', 'same-origin');
    });
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    });
    app.use('*', serveStatic({ root: staticDir, precompressed: true }));
    // Every other path is a client route: the app decides between a screen and not-found.
    app.get('*', (c) => c.html(indexHtml));
  }
  return app;
}
