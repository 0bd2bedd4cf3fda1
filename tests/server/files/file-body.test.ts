// A stored file as a response body (server/http/file-body.ts), through a real Node HTTP server: a file of the folder
// store is written from reused buffers, byte for byte, with the headers the middleware set before it; a client that
// goes away closes the file; without a Node connection (app.request) the same bytes are streamed.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredFile } from '../../../server/files/file-store.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { fileBody } from '../../../server/http/file-body.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('a stored file as a response body', () => {
  // 3 MB and a bit: twelve full buffers and a short last one.
  const content = randomBytes(3 * 1024 * 1024 + 12_345);
  const store = createFolderStore(mkdtempSync(join(tmpdir(), 'portal-file-body-')));
  const served: StoredFile[] = [];
  const app = new Hono();
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
    // As the HSTS middleware does: Hono then wraps the handler's answer again, and the server must still not answer twice.
    c.header('X-Set-After', 'yes');
  });
  app.get('/file', async (c) => {
    const file = await store.get('reports/big.csv');
    if (!file) return c.notFound();
    served.push(file);
    return fileBody(c, file, { 'Content-Type': 'text/csv; charset=utf-8' });
  });
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    await store.put('reports/big.csv', Readable.from([content]), { contentType: 'text/csv' });
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is written whole from the file, with its length and the headers set before it, and the file is closed', async () => {
    const errors = vi.spyOn(console, 'error');
    const response = await fetch(`${origin}/file`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(content.length));
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(content.length);
    expect(sha(body)).toBe(sha(content));
    const file = served.at(-1) as StoredFile;
    // The written path (not the stream): the handle was read by position and closed with the unread stream.
    expect(file.handle).toBeDefined();
    await expect.poll(() => file.handle?.fd).toBe(-1);
    // The server did not try to answer again (it would log ERR_HTTP_HEADERS_SENT), and the connection serves the next call.
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect((await fetch(`${origin}/file`)).status).toBe(200);
  });

  it('stops reading and closes the file when the client goes away', async () => {
    const before = served.length;
    await new Promise<void>((resolve, reject) => {
      const call = httpRequest(`${origin}/file`, (response) => {
        response.once('data', () => {
          call.destroy();
          resolve();
        });
      });
      call.once('error', (error) => (call.destroyed ? resolve() : reject(error)));
      call.end();
    });
    await expect.poll(() => served.length).toBe(before + 1);
    await expect.poll(() => served.at(-1)?.handle?.fd, { timeout: 5000 }).toBe(-1);
    // The server answers the next call as before.
    expect(sha(new Uint8Array(await (await fetch(`${origin}/file`)).arrayBuffer()))).toBe(sha(content));
  });

  it('is streamed, the same bytes, where there is no Node connection', async () => {
    const response = await app.request('/file');
    expect(response.headers.get('content-length')).toBe(String(content.length));
    expect(sha(new Uint8Array(await response.arrayBuffer()))).toBe(sha(content));
  });
});
