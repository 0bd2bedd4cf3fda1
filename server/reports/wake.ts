// A report queued on this node wakes this node's report worker at once, instead of at the worker's next poll (a
// second, when idle). Other nodes still find the report at their next poll. A wake that comes while the worker is
// busy, or before the queueing transaction has committed, costs nothing: the worker looks again once it is free, and
// polls as before when it finds nothing.
const listeners = new Set<() => void>();

/** Calls `wake` whenever a report is queued in this process, until the returned function is called. */
export function onReportQueued(wake: () => void): () => void {
  listeners.add(wake);
  return () => {
    listeners.delete(wake);
  };
}

/** Says that a report has been queued (committed). */
export function reportQueued(): void {
  for (const wake of listeners) wake();
}
