// The application's one clock. Code that decides by time (leases, back-offs, expiries, schedules, lockouts, cut-offs)
// reads it here, and a statement that decides by time gets this instant as a parameter instead of calling the
// database's now(): the database's clock is not the application's (the test suite moves the application's with
// TEST_CLOCK, and several nodes may disagree with the database by a little), and one statement must not mix the two.
import { sql, type SQL } from 'drizzle-orm';

export function now(): Date {
  return new Date();
}

/**
 * The operating system's wall clock: the one that stamps stored files (a folder's modification times; the local S3
 * server's LastModified). In production it reads as now(); TEST_CLOCK moves now() and not this, so a file's age is
 * always told by the clock that stamped it.
 */
export function systemNow(): Date {
  return new Date(performance.timeOrigin + performance.now());
}

/** The application's time as a SQL value, optionally `ms` milliseconds later (a lease's end, a back-off). */
export function sqlNow(ms = 0): SQL<Date> {
  return sql<Date>`${new Date(now().getTime() + ms).toISOString()}::timestamptz`;
}
