// jsdom lacks layout APIs that cmdk and the virtualiser touch.
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor wait up to 10 s (the library's default is 1 s): a pane's first render in a file pays for its
// modules' first evaluation and the validation worker's start, which on a 2-core machine loaded by other work took 1.1–12 s. A passing
// wait returns as soon as its condition holds, so this costs nothing when things are quick.
configure({ asyncUtilTimeout: 10_000 });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => cleanup());
