// The toast stack: danger toasts are alerts, the rest status messages. Each hides after its time (5 s or
// 7.5 s), paused while hovered or focused, and can be dismissed. The shell passes the toasts in.
import { useEffect, useRef, useState } from 'react';
import { CloseIcon } from './icons.tsx';

export type ToastView = {
  id: number;
  kind: 'info' | 'success' | 'warning' | 'danger';
  message: string;
  durationMs: number;
  link?: { href: string; label: string };
};

function ToastItem({ toast, onDismiss }: { toast: ToastView; onDismiss: (id: number) => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.durationMs);
  const startedAt = useRef(Date.now());

  useEffect(() => {
    if (paused) return undefined;
    startedAt.current = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
    };
  }, [paused, toast.id, onDismiss]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a status or alert: pointing at it or focusing a control inside pauses its timer (WCAG 2.2.2)
    <div
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'danger' ? 'alert' : 'status'}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <p className="toast-message">{toast.message}</p>
      {toast.link ? (
        <a className="toast-link" href={toast.link.href}>
          {toast.link.label}
        </a>
      ) : null}
      <button type="button" className="icon-button toast-dismiss" aria-label="Dismiss message" onClick={() => onDismiss(toast.id)}>
        <CloseIcon />
      </button>
    </div>
  );
}

export function ToastRegion({ toasts, onDismiss }: { toasts: readonly ToastView[]; onDismiss: (id: number) => void }) {
  return (
    <section className="toast-region" aria-label="Messages">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </section>
  );
}
