// The XLSX writer's own thread: exceljs builds a row object and a cell object per value and renders each row to XML,
// and the zip compresses it. On the server's thread that work held the event loop for about 130 ms a batch of 5,000
// rows, and its garbage, promoted to the old generation batch by batch, raised the server's memory by 150 MB on a
// 1,000,000-row export before a full collection took it back. Here it runs on a thread of its own, with a small heap
// of its own (xlsx-remote.ts sets its limits), and the server's thread only sends each batch's cells and writes the
// bytes that come back. Messages: see XlsxRequest and XlsxAnswer.
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { openXlsxWriter, type ReportColumnSpec, type ReportRow, type XlsxWriter } from './writers.ts';

export type XlsxThreadOptions = { columns: ReportColumnSpec[]; sheetName: string; rowsPerSheet: number | undefined };

/**
 * rows: the cells of a batch, as the writer takes them; cells: the same as cell text (cell-text.ts); finish: the end
 * of the file. One request at a time.
 */
export type XlsxRequest = { op: 'rows'; rows: ReportRow[] } | { op: 'cells'; chunks: string[] } | { op: 'finish' };

/**
 * bytes: the next piece of the file, in order; written: the batch is in the zip; finished: every byte has been sent;
 * failed: the writer threw (the file is unusable).
 */
export type XlsxAnswer = { op: 'bytes'; bytes: Uint8Array } | { op: 'written' } | { op: 'finished' } | { op: 'failed'; message: string };

const port = parentPort;
if (port) {
  const options = workerData as XlsxThreadOptions;
  const answer = (message: XlsxAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  // Each piece is copied into a buffer of its own and handed over (not cloned): zlib's pieces are views of a larger
  // buffer it reuses, which a clone would copy whole.
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const bytes = new Uint8Array(chunk);
      answer({ op: 'bytes', bytes }, [bytes.buffer]);
      done();
    },
  });
  const opened: Promise<XlsxWriter> = openXlsxWriter(output, options.columns, options.sheetName, { rowsPerSheet: options.rowsPerSheet });
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: XlsxRequest) => {
    queue = queue.then(async () => {
      try {
        const writer = await opened;
        if (request.op !== 'finish') {
          await (request.op === 'cells' ? writer.writeCells(request.chunks) : writer.writeBatch(request.rows));
          answer({ op: 'written' });
        } else {
          await writer.finish();
          answer({ op: 'finished' });
        }
      } catch (error) {
        answer({ op: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
}
