// Every HTTP request the node answers (API, identity provider, app) gets a request id — the caller's X-Request-Id
// when it is a plain token, else a new UUID — echoed in the response and carried by every log line written while
// the request is handled (log.ts), and one JSON line when it ends: method, path (never the query, which can hold
// codes and tokens), status, duration and size.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { clientAddressOf, plainAddress } from './client-address.ts';
import { inRequestScope, logger } from './log.ts';

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** What a caller may send as its own id: a load balancer's or a tracing system's token, nothing that could forge a log line. */
const acceptedRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && acceptedRequestId.test(value) ? value : randomUUID();
}

export function withRequestLog(listener: Listener, parent: Logger = logger): Listener {
  const requestLog = parent.child({ component: 'http' });
  return (request, response) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers['x-request-id']);
    // Handlers that read the header see the id that is used, whether the caller's or ours.
    request.headers['x-request-id'] = requestId;
    response.setHeader('X-Request-Id', requestId);
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const line = () => ({
      method: request.method,
      path: queryAt === -1 ? url : url.slice(0, queryAt),
      status: response.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      bytes: Number(response.getHeader('content-length') ?? 0) || undefined,
      // the client behind trusted proxies (client-address.ts), and the direct peer when that is another machine
      clientAddress: clientAddressOf(request),
      ...(request.socket.remoteAddress && plainAddress(request.socket.remoteAddress) !== clientAddressOf(request)
        ? { peerAddress: request.socket.remoteAddress }
        : {}),
    });
    inRequestScope(requestId, () => {
      response.once('finish', () => {
        const fields = line();
        if (fields.status >= 500) requestLog.error(fields, 'request');
        else requestLog.info(fields, 'request');
      });
      // Closed before the answer was sent: the client went away (or the node is stopping).
      response.once('close', () => {
        if (!response.writableFinished) requestLog.warn({ ...line(), aborted: true }, 'request');
      });
      listener(request, response);
    });
  };
}
