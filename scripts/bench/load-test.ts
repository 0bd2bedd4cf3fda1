// autocannon in a Node process of its own (autocannon-run.ts), for the load rows of the benchmarks: in the measured
// server's process it would take the server's event loop for itself.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';

type AutocannonResult = Awaited<ReturnType<typeof autocannon>>;

/**
 * autocannon in its own Node process; its JSON summary is the result. headers: one set for every connection, or
 * one set per caller, handed to the connections in turn (many users, where one user's calls in progress are capped).
 */
export async function loadTest(options: {
  url: string;
  method: string;
  headers: Record<string, string> | Record<string, string>[];
  body?: string | undefined;
  connections: number;
  seconds: number;
}): Promise<AutocannonResult> {
  const { headers, ...rest } = options;
  const run = JSON.stringify({ ...rest, headerSets: Array.isArray(headers) ? headers : [headers] });
  const { stdout } = await promisify(execFile)(process.execPath, [resolve(import.meta.dirname, 'autocannon-run.ts'), run], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as AutocannonResult;
}

/** Errors (autocannon counts its 10 s timeouts among them) and non-2xx answers, with the timeouts named. */
export function failures(result: AutocannonResult): string {
  const total = result.errors + result.non2xx;
  return result.timeouts > 0 ? `${total} (${result.timeouts} timeouts)` : String(total);
}

/** The 1-minute load average now: printed before and after a set of load rows, it tells what else the machine ran. */
export const loadAverage = () => loadavg()[0]?.toFixed(1) ?? 'n/a';
