// A stored file as a response body (report and bulk-job downloads, attachments, statements).
//
// A file on this node's disk (the folder store) is written to the connection from four 256 KB buffers used over and
// over: each is read into again only once the connection has taken what it held. A stream would read every chunk
// into a new buffer, and the garbage of a 200 MB download (V8 collects such memory only after 64 MB of it) raised the
// server's resident memory by about 100 MB; the buffers keep it at about 1 MB, and the download runs as fast.
// Anything else (an S3 object, or a call without a Node connection, as in the tests' app.request) is streamed.
import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { StoredFile } from '../files/file-store.ts';
import { logger } from '../log.ts';

const bufferBytes = 256 * 1024;
const buffers = 4;

/** The response of a stored file with these headers (Content-Length is the file's size). */
export async function fileBody(c: Context, file: StoredFile, headers: Record<string, string>): Promise<Response> {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  const all = { ...headers, 'Content-Length': String(file.size) };
  if (!file.handle || !outgoing || outgoing.headersSent) return c.body(Readable.toWeb(file.stream) as ReadableStream, 200, all);
  // What the middleware set before this answer (no-store, nosniff, HSTS), then this answer's own headers.
  const head = new Headers(c.newResponse(null).headers);
  for (const [name, value] of Object.entries(all)) head.set(name, value);
  outgoing.writeHead(200, Object.fromEntries(head));
  try {
    await writeFile(file.handle, file.size, outgoing);
  } finally {
    // The stream was never read: destroying it closes the file.
    file.stream.destroy();
  }
  // @hono/node-server then writes the handler's answer: it skips one marked as sent, but not once Hono has wrapped
  // it again (a header set after the handler), so this answer, sent whole, takes no second head either way.
  outgoing.writeHead = (() => outgoing) as unknown as ServerResponse['writeHead'];
  return new Response(null, { headers: { 'x-hono-already-sent': 'true' } });
}

/** Writes `size` bytes of the file to the connection and ends it; a client that goes away stops the reading. */
async function writeFile(handle: FileHandle, size: number, outgoing: ServerResponse): Promise<void> {
  const closed = new Promise<'closed'>((resolve) => outgoing.once('close', () => resolve('closed')));
  const ring = Array.from({ length: buffers }, () => Buffer.allocUnsafe(bufferBytes));
  /** per buffer: settles once the connection has taken its last chunk (with the write's error, if any) */
  const taken: (Promise<Error | null | undefined> | null)[] = ring.map(() => null);
  let position = 0;
  try {
    for (let slot = 0; position < size; slot = (slot + 1) % buffers) {
      // Until the connection has taken this buffer's last chunk (or has closed: its write may never call back).
      const previous = await Promise.race([taken[slot], closed]);
      if (previous === 'closed') return;
      if (previous) throw previous;
      const buffer = ring[slot] as Buffer;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(bufferBytes, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      taken[slot] = new Promise((resolve) => outgoing.write(buffer.subarray(0, bytesRead), resolve));
    }
    const last = await Promise.race([Promise.all(taken), closed]);
    if (last === 'closed') return;
    const failed = last.find((error) => error);
    if (failed) throw failed;
    // A file shorter than its size (cut while being read): the client must not take it for whole.
    if (position < size) throw new Error(`the file ended at ${position} of ${size} bytes`);
    outgoing.end();
  } catch (error) {
    // A client that went away (the connection reset) is no fault of the node's.
    const code = (error as { code?: string }).code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE' && code !== 'ERR_STREAM_DESTROYED') logger.warn({ component: 'files', err: error }, 'download broken off');
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
