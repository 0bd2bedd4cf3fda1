// Toasts: short messages in a stack. The HTTP client, the session and commands push; src/ui renders.
import { proxy } from 'valtio';

export type ToastKind = 'info' | 'success' | 'warning' | 'danger';
export type Toast = {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
  link?: { href: string; label: string };
};

export const toastDurations = { normal: 5000, long: 7500 } as const;
const maxToasts = 5;

export const toastStore = proxy<{ toasts: Toast[] }>({ toasts: [] });
let nextId = 1;

export type ToastInput = Omit<Toast, 'id' | 'durationMs'> & { durationMs?: number };

export function showToast(input: ToastInput): number {
  // The same message twice (four failing requests at once) is shown once.
  const same = toastStore.toasts.find((toast) => toast.kind === input.kind && toast.message === input.message && toast.link?.href === input.link?.href);
  if (same) dismissToast(same.id);
  const toast: Toast = { ...input, id: nextId++, durationMs: input.durationMs ?? toastDurations.normal };
  toastStore.toasts = [...toastStore.toasts, toast].slice(-maxToasts);
  return toast.id;
}

export function dismissToast(id: number): void {
  toastStore.toasts = toastStore.toasts.filter((toast) => toast.id !== id);
}

export function clearToasts(): void {
  toastStore.toasts = [];
}

/** Toasts that point at a place go once the user is there ('Open my report queue' once the queue is open). */
export function dismissToastsLinkingTo(href: string): void {
  if (toastStore.toasts.some((toast) => toast.link?.href === href)) toastStore.toasts = toastStore.toasts.filter((toast) => toast.link?.href !== href);
}
