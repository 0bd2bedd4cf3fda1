// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs every statement on the
// thread that holds it, without waiting on I/O. On the server's thread, a busy database kept that thread from
// accepting connections and reading sockets (under 200 connections, up to 222 of them waited in the accept queue
// and timed out). Here it runs on a worker thread of its own; the server's thread only sends statements and reads
// answers (pglite-remote.ts). Messages: see PgliteRequest and PgliteAnswer.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { asText, textTypeIds } from './text-types.ts';

export type PgliteThreadOptions = {
  dataDir: string | undefined;
  /** a tarball of a data directory (PGlite's dumpDataDir) to start from instead of a new cluster: tests' migrated template */
  template?: string | undefined;
};

export type PgliteRequest =
  | { id: number; op: 'query'; text: string; params: unknown[] | undefined; rowMode: 'array' | 'object' | undefined; transaction: number | undefined }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; transaction: number; commit: boolean }
  | { id: number; op: 'close' };

/** An error as it crosses threads: its message and PostgreSQL's fields (code, detail, constraint…). */
export type SerialisedError = { message: string; name: string; fields: Record<string, string | number | boolean> };

export type PgliteAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerialisedError }
  | { id: 0; ok: true; value: 'ready' }
  | { id: 0; ok: false; error: SerialisedError };

const textParsers = Object.fromEntries(textTypeIds.map((id) => [id, asText]));

function serialiseError(error: unknown): SerialisedError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { message: error.message, name: error.name, fields };
}

/** Thrown into a transaction's callback to roll it back; never leaves this thread. */
class RollBack extends Error {}

type OpenTransaction = { tx: Transaction; finish: (commit: boolean) => Promise<void> };

async function serve(port: NonNullable<typeof parentPort>, options: PgliteThreadOptions) {
  let client: PGlite;
  try {
    const loadDataDir = options.template ? new Blob([readFileSync(options.template)]) : undefined;
    client = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm }, parsers: textParsers, ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: serialiseError(error) } satisfies PgliteAnswer);
    return;
  }
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  const begin = () =>
    new Promise<number>((opened, failed) => {
      const number = nextTransaction++;
      let decide: (commit: boolean) => void = () => undefined;
      const decided = new Promise<boolean>((resolve) => {
        decide = resolve;
      });
      const run = client.transaction(async (tx) => {
        transactions.set(number, { tx, finish });
        opened(number);
        if (!(await decided)) throw new RollBack();
      });
      async function finish(commit: boolean) {
        decide(commit);
        try {
          await run;
        } catch (error) {
          if (!(error instanceof RollBack)) throw error;
        } finally {
          transactions.delete(number);
        }
      }
      // BEGIN itself failed (the callback never ran). Once opened, the promise is settled and this does nothing;
      // finish() reports what COMMIT or ROLLBACK says.
      run.catch(failed);
    });

  async function answer(request: PgliteRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const runner = request.transaction === undefined ? client : transactions.get(request.transaction)?.tx;
        if (!runner) throw new Error(`transaction ${request.transaction} is not open`);
        return runner.query(request.text, request.params, request.rowMode ? { rowMode: request.rowMode } : undefined);
      }
      case 'begin':
        return begin();
      case 'end': {
        const open = transactions.get(request.transaction);
        if (!open) throw new Error(`transaction ${request.transaction} is not open`);
        await open.finish(request.commit);
        return null;
      }
      case 'close':
        await client.close();
        return null;
    }
  }

  port.on('message', (request: PgliteRequest) => {
    answer(request).then(
      (value) => {
        port.postMessage({ id: request.id, ok: true, value } satisfies PgliteAnswer);
        if (request.op === 'close') port.close();
      },
      (error: unknown) => port.postMessage({ id: request.id, ok: false, error: serialiseError(error) } satisfies PgliteAnswer),
    );
  });
  port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies PgliteAnswer);
}

if (parentPort) await serve(parentPort, workerData as PgliteThreadOptions);
