// Reading Chromium traces (CDP Tracing, devtools.timeline with the sampling profiler) for the bench's tools: what a
// task spent its time on, by trace event and by script function.

export type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: { nodes?: { id: number; callFrame?: { functionName?: string; url?: string; lineNumber?: number } }[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
};

/** Time (µs) per name of the outermost events inside `task` (an event nested in another is not counted again), longest first. */
export function eventsInside(events: readonly TraceEvent[], task: TraceEvent): [string, number][] {
  const end = task.ts + (task.dur ?? 0);
  const inside = events.filter((event) => event !== task && event.name !== 'RunTask' && event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end);
  const byName = new Map<string, number>();
  let covered = 0;
  for (const event of inside.sort((a, b) => a.ts - b.ts)) {
    if (event.ts < covered) continue;
    covered = event.ts + (event.dur ?? 0);
    byName.set(event.name, (byName.get(event.name) ?? 0) + (event.dur ?? 0));
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}

/**
 * Self time (µs) per script function from the sampled profile, longest first: of one process where `pid` is given,
 * and only of the samples taken between `from` and `to` (trace timestamps) where those are given.
 */
export function selfTimeByFunction(events: readonly TraceEvent[], window: { pid?: number; from?: number; to?: number } = {}): [string, number][] {
  const nodes = new Map<string, string>();
  const clocks = new Map<number, number>();
  const self = new Map<string, number>();
  const profileEvents = events.filter(
    (event) => (event.name === 'Profile' || event.name === 'ProfileChunk') && (window.pid === undefined || event.pid === window.pid),
  );
  for (const event of profileEvents.sort((a, b) => a.ts - b.ts)) {
    if (event.name === 'Profile') {
      clocks.set(event.pid, event.args?.data?.startTime ?? clocks.get(event.pid) ?? 0);
      continue;
    }
    const profile = event.args?.data?.cpuProfile;
    for (const node of profile?.nodes ?? [])
      nodes.set(
        `${event.pid}:${node.id}`,
        `${node.callFrame?.functionName || '(anonymous)'} ${node.callFrame?.url?.split('/').pop() ?? ''}:${node.callFrame?.lineNumber ?? ''}`,
      );
    (profile?.samples ?? []).forEach((sample, index) => {
      const delta = event.args?.data?.timeDeltas?.[index] ?? 0;
      const clock = (clocks.get(event.pid) ?? 0) + delta;
      clocks.set(event.pid, clock);
      if ((window.from !== undefined && clock < window.from) || (window.to !== undefined && clock > window.to)) return;
      const name = nodes.get(`${event.pid}:${sample}`) ?? String(sample);
      self.set(name, (self.get(name) ?? 0) + delta);
    });
  }
  return [...self].sort((a, b) => b[1] - a[1]);
}

/** The first `count` entries as "name 12.3" (µs shown as ms), joined by `separator`. */
export function formatTimes(entries: readonly [string, number][], count: number, separator = ', '): string {
  return entries
    .slice(0, count)
    .map(([name, time]) => `${name} ${(time / 1000).toFixed(1)}`)
    .join(separator);
}
