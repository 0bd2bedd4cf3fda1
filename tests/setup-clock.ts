// The suite's one clock setting: with TEST_CLOCK set (an ISO instant, e.g. 2027-03-28T00:30:00Z), every `Date` in
// the test process starts at that instant and runs on from there at the real pace. Only `Date` moves: timers, the
// databases and performance.now() keep real time, so leases and timeouts behave as they do in production. npm test
// runs the files that decide by time a second time under such dates (scripts/test-all.ts), so a test that passes
// only on the day it was written fails there.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, expect, vi } from 'vitest';

const setting = process.env.TEST_CLOCK;

// The web project runs its files one after another in the same worker (isolate: false), each running this file again:
// every file's clock starts at the setting as in a fresh worker, moved from the real Date and the real writeHead kept
// by the first run, not from the previous file's moved ones.
const kept = globalThis as typeof globalThis & {
  realDateBeforeTestClock?: DateConstructor;
  realWriteHeadBeforeTestClock?: typeof http.ServerResponse.prototype.writeHead;
};

if (setting) {
  kept.realDateBeforeTestClock ??= Date;
  const RealDate = kept.realDateBeforeTestClock;
  const target = RealDate.parse(setting);
  if (Number.isNaN(target)) throw new Error(`TEST_CLOCK is not a date: ${setting}`);
  const offset = target - RealDate.now();
  const shiftedNow = () => RealDate.now() + offset;
  const ShiftedDate = new Proxy(RealDate, {
    construct: (real, args: unknown[], newTarget) => Reflect.construct(real, args.length === 0 ? [shiftedNow()] : args, newTarget) as object,
    apply: () => new RealDate(shiftedNow()).toString(),
    get: (real, property, receiver) => (property === 'now' ? shiftedNow : (Reflect.get(real, property, receiver) as unknown)),
  });
  globalThis.Date = ShiftedDate;
  // Node's HTTP servers stamp responses with the real time (internal code keeps the original Date). A client that
  // corrects its clock by that header (the AWS SDK against the in-process S3 server) would then disagree with the
  // server's own checks: the test process's servers tell the moved time too.
  kept.realWriteHeadBeforeTestClock ??= http.ServerResponse.prototype.writeHead;
  const writeHead = kept.realWriteHeadBeforeTestClock;
  http.ServerResponse.prototype.writeHead = function writeHeadWithMovedDate(this: http.ServerResponse, ...args: unknown[]) {
    if (this.sendDate && !this.headersSent && !this.hasHeader('date')) this.setHeader('Date', new Date().toUTCString());
    return (writeHead as (...rest: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof writeHead;
}

// The server project also runs its files one after another in the same module graph (isolate: false). A file that
// replaces a module with vi.mock (the application's clock, server/clock.ts) must build its own graph, or it would get
// the app already imported with the real module; and the files after it must build theirs again, or they would get
// the mocked one. Such a file starts and ends with a fresh graph.
const testPath = expect.getState().testPath ?? '';
if (/\/tests\/(server|contract)\//.test(testPath) && /\bvi\.(mock|doMock)\(/.test(readFileSync(testPath, 'utf8'))) {
  vi.resetModules();
  afterAll(() => {
    vi.resetModules();
  });
}
