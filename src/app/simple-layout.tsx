// The simple layout: signed-out pages, sign-in in progress, not-found without a session.
import type { ReactNode } from 'react';

export function SimpleLayout({ children }: { children: ReactNode }) {
  return (
    <div className="simple-layout">
      <header className="simple-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Payments portal</span>
        </span>
      </header>
      <main className="simple-main">{children}</main>
    </div>
  );
}

/** A status line shown only after a short delay, so fast sign-ins do not flash it (250 ms, spec). */
export function DelayedStatus({ text }: { text: string }) {
  return (
    <div className="delayed-status" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
