// DPoP proofs are dated by the server's clock as the tab learns it from answers' Date headers, so a tab whose clock
// is off (by minutes, or a test's fake clock) still makes proofs the API and the provider accept.
import { expect, it } from 'vitest';
import { noteServerDate, serverClockSkewSeconds } from '../../src/api/dpop.ts';

it('learns how far the server clock is from the tab’s, ignoring whole-second noise', () => {
  const ahead = new Date(Date.now() + 30 * 60_000).toUTCString();
  expect(noteServerDate(ahead)).toBe(true);
  expect(serverClockSkewSeconds()).toBeGreaterThanOrEqual(30 * 60 - 2);
  expect(serverClockSkewSeconds()).toBeLessThanOrEqual(30 * 60 + 1);
  // The same again (a second's rounding) is no change; a missing or broken header is ignored.
  expect(noteServerDate(ahead)).toBe(false);
  expect(noteServerDate(null)).toBe(false);
  expect(noteServerDate('not a date')).toBe(false);
  // Back in step: within 5 s counts as none.
  expect(noteServerDate(new Date(Date.now() + 2_000).toUTCString())).toBe(true);
  expect(serverClockSkewSeconds()).toBe(0);
});
