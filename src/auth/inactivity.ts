// Signs the user out after a stretch without activity, warning a while before. Activity is sampled, not
// counted: at most one check every 0.5 s for clicks and keys and every 1 s for mouse moves and scrolling.
// Every figure and the clock are injectable, so tests (and e2e) need not wait fifteen minutes.

export type InactivityTimings = {
  timeoutMs: number;
  warningMs: number;
  clickThrottleMs: number;
  moveThrottleMs: number;
};

export const defaultInactivityTimings: InactivityTimings = {
  timeoutMs: 15 * 60_000,
  warningMs: 60_000,
  clickThrottleMs: 500,
  moveThrottleMs: 1000,
};

export type InactivityMonitorOptions = InactivityTimings & {
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now?: () => number;
  /** the warning: time left until sign-out */
  onWarn: (remainingMs: number) => void;
  onTimeout: () => void;
  /** activity here (for the other tabs: activity in any tab keeps every tab signed in) */
  onActivity?: (at: number) => void;
  /** the warning ended by activity elsewhere (another tab) */
  onResume?: () => void;
};

export type InactivityMonitor = {
  /** the user chose to stay: the warning ends and the clock restarts */
  stayActive: () => void;
  stop: () => void;
  /** activity in another tab at that moment: counts as activity here */
  heard: (at: number) => void;
  /** the time without activity is up (whether or not the timer has fired yet) */
  timedOut: () => boolean;
};

const quickEvents = ['pointerdown', 'keydown'] as const;
const slowEvents = ['mousemove', 'wheel', 'touchmove', 'scroll'] as const;

export function startInactivityMonitor(options: InactivityMonitorOptions): InactivityMonitor {
  const now = options.now ?? (() => Date.now());
  const target = options.target ?? window;
  let lastActivity = now();
  let lastQuick = Number.NEGATIVE_INFINITY;
  let lastSlow = Number.NEGATIVE_INFINITY;
  let warned = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function schedule(at: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, Math.max(0, at - now()));
  }

  function check(): void {
    if (stopped) return;
    const idle = now() - lastActivity;
    if (idle >= options.timeoutMs) {
      stop();
      options.onTimeout();
      return;
    }
    const warnAt = options.timeoutMs - options.warningMs;
    if (idle >= warnAt) {
      if (!warned) {
        warned = true;
        options.onWarn(options.timeoutMs - idle);
      }
      schedule(lastActivity + options.timeoutMs);
      return;
    }
    schedule(lastActivity + warnAt);
  }

  // While the warning shows, only "Stay signed in" counts: a stray mouse move is not a person deciding.
  function onQuick(): void {
    const at = now();
    if (warned || at - lastQuick < options.clickThrottleMs) return;
    lastQuick = at;
    lastActivity = at;
    options.onActivity?.(at);
  }

  function onSlow(): void {
    const at = now();
    if (warned || at - lastSlow < options.moveThrottleMs) return;
    lastSlow = at;
    lastActivity = at;
    options.onActivity?.(at);
  }

  function onVisibility(): void {
    // Timers sleep with the laptop; look at the clock when the page is seen again.
    check();
  }

  for (const name of quickEvents) target.addEventListener(name, onQuick, { passive: true, capture: true });
  for (const name of slowEvents) target.addEventListener(name, onSlow, { passive: true, capture: true });
  target.addEventListener('visibilitychange', onVisibility);
  check();

  function stop(): void {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    for (const name of quickEvents) target.removeEventListener(name, onQuick, { capture: true });
    for (const name of slowEvents) target.removeEventListener(name, onSlow, { capture: true });
    target.removeEventListener('visibilitychange', onVisibility);
  }

  return {
    stayActive() {
      if (stopped) return;
      warned = false;
      lastActivity = now();
      options.onActivity?.(lastActivity);
      check();
    },
    stop,
    timedOut: () => now() - lastActivity >= options.timeoutMs,
    heard(at) {
      if (stopped || at <= lastActivity) return;
      lastActivity = at;
      if (warned) {
        warned = false;
        options.onResume?.();
      }
      check();
    },
  };
}
