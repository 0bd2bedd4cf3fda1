// Work that can wait for the browser to be idle: after the frames and input of now, within a second at the latest.

/** Calls `work` when the browser is idle (within a second at the latest), with the idle period's deadline where the
 *  browser gives one. Returns a cancel function. */
export function whenIdle(work: (deadline?: IdleDeadline) => void): () => void {
  if (window.requestIdleCallback) {
    const handle = window.requestIdleCallback((deadline) => work(deadline), { timeout: 1_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(() => work(), 0);
  return () => window.clearTimeout(timer);
}

/** Time an idle period must have left for one more step to start in it. */
const stepBudgetMs = 4;

/** Runs `steps` in order in idle periods, as many in each as fit (at least one, at most `maxPerSlice`: what a step
 *  sets off in promises runs after the idle callback, in the same task, unseen by the deadline). Returns a cancel
 *  function (the steps not yet run do not run). */
export function eachWhenIdle(steps: readonly (() => void)[], { maxPerSlice = Number.POSITIVE_INFINITY } = {}): () => void {
  let index = 0;
  let cancelled = false;
  let cancel: () => void = () => undefined;
  const slice = (deadline?: IdleDeadline) => {
    if (cancelled) return;
    let ran = 0;
    do {
      steps[index++]?.();
      ran += 1;
    } while (index < steps.length && ran < maxPerSlice && deadline !== undefined && !deadline.didTimeout && deadline.timeRemaining() > stepBudgetMs);
    if (index < steps.length) cancel = whenIdle(slice);
  };
  if (steps.length > 0) cancel = whenIdle(slice);
  return () => {
    cancelled = true;
    cancel();
  };
}
