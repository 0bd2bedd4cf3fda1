// Request ids and request logs, over a real HTTP server: the caller's X-Request-Id is kept when it is a plain
// token, replaced otherwise, echoed in the answer and carried by every line logged while the request is handled.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/log.ts';
import { requestIdOf, withRequestLog } from '../../../server/request-log.ts';

type Line = Record<string, unknown>;

function collectingLogger() {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { logger: createLogger(destination), lines };
}

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  if (server) await once(server, 'close');
  server = undefined;
});

async function serve(logger: ReturnType<typeof createLogger>): Promise<string> {
  server = createServer(
    withRequestLog((request, response) => {
      // A line written deep inside the handling, after an await, by a logger that knows nothing of the request.
      void Promise.resolve().then(() => {
        logger.info({ component: 'handler' }, 'working');
        response.writeHead(request.url?.startsWith('/fail') ? 500 : 200, { 'content-type': 'text/plain', 'content-length': '2' });
        response.end('ok');
      });
    }, logger),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const settle = () => new Promise((done) => setTimeout(done, 20));

describe('request ids', () => {
  it('keeps a plain token and replaces anything else with a UUID', () => {
    expect(requestIdOf('lb-7f3a.19:abc')).toBe('lb-7f3a.19:abc');
    expect(requestIdOf(['first', 'second'])).toBe('first');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(requestIdOf(undefined)).toMatch(uuid);
    expect(requestIdOf('')).toMatch(uuid);
    expect(requestIdOf('forged\n{"level":60}')).toMatch(uuid);
    expect(requestIdOf('x'.repeat(129))).toMatch(uuid);
  });

  it('echoes the id and writes it on every line of the request, with one request line without the query', async () => {
    const { logger, lines } = collectingLogger();
    const url = await serve(logger);
    const response = await fetch(`${url}/api/portal/transactions?code=secret-code`, { headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    await response.text();
    await settle();
    const ofRequest = lines.filter((line) => line.requestId === 'trace-123');
    expect(ofRequest.map((line) => line.component)).toEqual(['handler', 'http']);
    expect(ofRequest[1]).toMatchObject({ msg: 'request', method: 'GET', path: '/api/portal/transactions', status: 200, bytes: 2, level: 30 });
    expect(typeof ofRequest[1]?.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-code');
  });

  it('generates an id when none is sent, a different one per request, and logs server errors as errors', async () => {
    const { logger, lines } = collectingLogger();
    const url = await serve(logger);
    const first = await fetch(`${url}/fail`);
    const second = await fetch(`${url}/`);
    await Promise.all([first.text(), second.text()]);
    await settle();
    const firstId = first.headers.get('x-request-id');
    const secondId = second.headers.get('x-request-id');
    expect(firstId).toBeTruthy();
    expect(secondId).toBeTruthy();
    expect(firstId).not.toBe(secondId);
    const failed = lines.find((line) => line.component === 'http' && line.requestId === firstId);
    expect(failed).toMatchObject({ status: 500, level: 50 });
    expect(lines.filter((line) => line.requestId === secondId)).toHaveLength(2);
  });
});
