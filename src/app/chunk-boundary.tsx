// Lazy screens: a skeleton while the chunk loads, a plain message when it cannot be loaded (an error, or
// nothing after 120 s, spec) with a way to try again.
import { Component, type ReactNode, Suspense, useEffect, useState } from 'react';
import { messages } from '../contract/messages.ts';
import { Skeleton } from '../ui/skeleton.tsx';

export const chunkTimeoutMs = 120_000;

function ChunkFailed() {
  return (
    <div className="pane-error" role="alert">
      <p>{messages.chunkLoadFailed}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}

function LoadingWithTimeout({ label }: { label: string }) {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), chunkTimeoutMs);
    return () => clearTimeout(timer);
  }, []);
  return timedOut ? (
    <ChunkFailed />
  ) : (
    <div className="pane-loading">
      <Skeleton lines={4} label={label} />
    </div>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean; resetKey: string }> {
  constructor(props: { children: ReactNode; resetKey: string }) {
    super(props);
    this.state = { failed: false, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    console.error('[shell] a screen failed', error);
  }

  override render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

export function ChunkBoundary({ children, resetKey, label = 'Loading' }: { children: ReactNode; resetKey: string; label?: string }) {
  return (
    <ErrorBoundary resetKey={resetKey}>
      <Suspense fallback={<LoadingWithTimeout label={label} />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
