// The server's one logger: JSON lines on standard output (pino), each carrying the request id of the request it
// was written for, found through AsyncLocalStorage, so every line of one request can be found by that id on any node.
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

export type RequestScope = { requestId: string };

const requestScope = new AsyncLocalStorage<RequestScope>();

/** A logger of this shape writing elsewhere (tests read the lines); the server uses `logger`. */
export function createLogger(destination?: DestinationStream): Logger {
  const options = {
    base: { pid: process.pid },
    level: process.env.LOG_LEVEL ?? 'info',
    timestamp: stdTimeFunctions.isoTime,
    mixin: () => {
      const scope = requestScope.getStore();
      return scope ? { requestId: scope.requestId } : {};
    },
  };
  return pino(options, destination ?? standardOutput);
}

/**
 * Lines go through process.stdout (synchronous for files and pipes on Linux, so a line written before a kill -9 is
 * kept), where anything that watches the process's output, a test included, sees them.
 */
const standardOutput: DestinationStream = { write: (line: string) => void process.stdout.write(line) };

export const logger: Logger = createLogger();

/** Runs `work` (and everything it sets off) as part of the request `requestId`. */
export function inRequestScope<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work);
}

/**
 * A `(line) => void` for modules that take a plain log function (workers, seed, purge), writing under a component
 * name: `logLine('reports')('generated …')` → {"component":"reports","msg":"generated …"}.
 */
export function logLine(component: string, level: 'info' | 'warn' | 'error' = 'info'): (line: string) => void {
  const child = logger.child({ component });
  return (line) => child[level](line);
}
