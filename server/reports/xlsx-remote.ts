// The server's side of the XLSX writer's thread (xlsx-thread.ts): a ReportWriter whose batches are sent to the
// thread and whose file comes back in pieces, written to the stream in order. One thread per file, ended with it.
// A batch is handed over while the thread still writes the one before (at most one waits), so the next batch is
// read from the database while the thread works.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ReportColumnSpec, ReportRow, ReportWriter } from './writers.ts';
import type { XlsxAnswer, XlsxRequest, XlsxThreadOptions } from './xlsx-thread.ts';

/**
 * The thread's heap. What it keeps is small (a batch's cells, the workbook's styles, the zip's window); the rest is
 * garbage from each row, and a small old generation makes it collected often instead of piling up.
 */
const threadLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/** Rows the single-row write gathers before it sends them (the export loop sends whole batches). */
const gatheredRows = 1000;

/**
 * The most text one message to the thread carries (characters of cell values or cell text): a batch is sent in parts
 * of about this size, so the thread's heap holds one part, whatever the rows' widths. A batch of 10,000 rows of 17
 * columns of 200 characters (34 MB in one message) ran the thread out of heap; a transactions batch of 10,000 rows
 * with every column is about 2 MB, one message as before.
 */
const messageChars = 4_000_000;

/** Items in parts of about messageChars characters by `sizeOf` (at least one item each). */
function partsOf<Item>(items: readonly Item[], sizeOf: (item: Item) => number): Item[][] {
  const parts: Item[][] = [];
  let part: Item[] = [];
  let chars = 0;
  for (const item of items) {
    part.push(item);
    chars += sizeOf(item);
    if (chars >= messageChars) {
      parts.push(part);
      part = [];
      chars = 0;
    }
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

const rowChars = (row: ReportRow) => {
  let chars = 0;
  for (const cell of row) chars += cell?.length ?? 0;
  return chars;
};

export async function openXlsxThreadWriter(
  stream: Writable,
  columns: readonly ReportColumnSpec[],
  sheetName: string,
  options: { rowsPerSheet?: number } = {},
): Promise<ReportWriter> {
  const workerData: XlsxThreadOptions = { columns: [...columns], sheetName, rowsPerSheet: options.rowsPerSheet };
  const thread = new Worker(new URL('./xlsx-thread.ts', import.meta.url), { workerData, resourceLimits: threadLimits });
  let failure: Error | null = null;
  let ended = false;
  // The answers the thread owes, in the order of the requests (it takes them one at a time).
  const owed: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of owed.splice(0)) waiter.reject(failure);
  };
  stream.on('error', fail);
  thread.on('message', (answer: XlsxAnswer) => {
    if (answer.op === 'bytes') {
      if (!stream.destroyed) stream.write(answer.bytes);
    } else if (answer.op === 'failed') {
      fail(new Error(`The workbook could not be written: ${answer.message}`));
    } else {
      owed.shift()?.resolve();
    }
  });
  thread.on('error', (error: unknown) =>
    fail(new Error(`The workbook's thread stopped: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
  );
  thread.on('exit', (code) => {
    if (!ended) fail(new Error(`The workbook's thread exited with code ${code}.`));
  });
  const ask = (request: XlsxRequest) =>
    new Promise<void>((resolve, reject) => {
      if (failure || ended) {
        reject(failure ?? new Error('The workbook has been finished or abandoned.'));
        return;
      }
      owed.push({ resolve, reject });
      thread.postMessage(request);
    });
  // The batch the thread is writing: the next one is sent once it is written (or at once, when none is).
  let writing: Promise<void> = Promise.resolve();
  const send = async (request: XlsxRequest) => {
    await writing;
    writing = ask(request);
    // Heard by the next send or by finish; never an unhandled rejection in between.
    writing.catch(() => undefined);
  };
  const stop = async () => {
    ended = true;
    for (const waiter of owed.splice(0)) waiter.reject(new Error('The workbook was abandoned.'));
    await thread.terminate();
  };
  let gathered: ReportRow[] = [];
  const sendGathered = async () => {
    if (gathered.length === 0) return;
    const rows = gathered;
    gathered = [];
    await send({ op: 'rows', rows });
  };
  return {
    write: async (row) => {
      gathered.push(row);
      if (gathered.length >= gatheredRows) await sendGathered();
    },
    writeBatch: async (rows) => {
      await sendGathered();
      for (const part of partsOf(rows, rowChars)) await send({ op: 'rows', rows: part });
    },
    writeCells: async (chunks) => {
      await sendGathered();
      for (const part of partsOf(chunks, (chunk) => chunk.length)) await send({ op: 'cells', chunks: part });
    },
    finish: async () => {
      try {
        await sendGathered();
        await send({ op: 'finish' });
        await writing;
      } finally {
        await stop();
      }
      // Every piece has been written to the stream (the thread's answers arrive in order): end it and wait.
      if (failure) throw failure;
      const finished = once(stream, 'finish');
      stream.end();
      await finished;
    },
    abort: async () => {
      await stop();
      stream.destroy();
    },
  };
}
