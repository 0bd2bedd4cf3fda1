// Payment jobs (TkDodo-style query factory): the overview, a job's detail, a payment's trace and a job's audit
// events under the applied context ({context}); the actions, each with an Idempotency-Key the dialog keeps while it is
// open (a second press or a retry is the same request) and the job's version (stale → the 409 modal).
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { listRequestParams, type ListState } from '../../src/contract/list-state.ts';

export const paymentJobQueries = {
  all: ['paymentJobs'] as const,
  list: (contextPrefix: string, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...paymentJobQueries.all, contextPrefix, 'list', query] as const,
      queryFn: async ({ signal }) => validate('paymentJobList', await api.get<unknown>(`${contextPrefix}/payment-jobs`, { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  detail: (contextPrefix: string, reference: string) =>
    queryOptions({
      queryKey: [...paymentJobQueries.all, contextPrefix, 'detail', reference] as const,
      queryFn: async ({ signal }) =>
        validate('paymentJobDetail', await api.get<unknown>(`${contextPrefix}/payment-jobs/${encodeURIComponent(reference)}`, { signal })),
      staleTime: 10_000,
    }),
  trace: (contextPrefix: string, traceReference: string, advanced: boolean) =>
    queryOptions({
      queryKey: [...paymentJobQueries.all, contextPrefix, 'trace', traceReference, advanced] as const,
      queryFn: async ({ signal }) =>
        validate('paymentTrace', await api.get<unknown>(`${contextPrefix}/traces/${encodeURIComponent(traceReference)}`, { query: { advanced }, signal })),
      staleTime: 30_000,
    }),
  activity: (contextPrefix: string, reference: string) =>
    queryOptions({
      queryKey: [...paymentJobQueries.all, contextPrefix, 'activity', reference] as const,
      queryFn: async ({ signal }) =>
        validate(
          'auditEventList',
          await api.get<unknown>(`${contextPrefix}/audit-events`, { query: { paymentJobReference: reference, pagesize: 100 }, signal }),
        ),
      staleTime: 10_000,
    }),
};

export type PaymentAction =
  | { kind: 'capture'; paymentId: string; body: { amount: number; version: number } }
  | { kind: 'refund'; paymentId: string; body: { amount: number; reason: string; note?: string | null; notifyCustomer?: boolean; version: number } }
  | { kind: 'cancelRefund'; paymentId: string; refundId: string; body: { version: number } }
  | { kind: 'void'; paymentId: string; body: { reason?: string | null; version: number } }
  | { kind: 'cancel'; body: { confirmed: boolean; version: number } }
  | { kind: 'expire'; body: { version: number } }
  | { kind: 'mailPaymentLink'; paymentId: string; body: { emailAddress: string } };

export function actionPath(contextPrefix: string, reference: string, action: PaymentAction): string {
  const job = `${contextPrefix}/payment-jobs/${encodeURIComponent(reference)}`;
  switch (action.kind) {
    case 'cancel':
      return `${job}/actions/cancel`;
    case 'expire':
      return `${job}/actions/expire`;
    case 'cancelRefund':
      return `${job}/payments/${encodeURIComponent(action.paymentId)}/refunds/${encodeURIComponent(action.refundId)}/actions/cancel`;
    case 'mailPaymentLink':
      return `${job}/payments/${encodeURIComponent(action.paymentId)}/actions/mail-payment-link`;
    default:
      return `${job}/payments/${encodeURIComponent(action.paymentId)}/actions/${action.kind}`;
  }
}

/** Sends an action; a 400 (refused, with the reason) is the caller's to show in its dialog, a 409 opens the conflict modal. */
export async function sendPaymentAction(contextPrefix: string, reference: string, action: PaymentAction, idempotencyKey: string) {
  return validate(
    'paymentActionAnswer',
    await api.post<unknown>(actionPath(contextPrefix, reference, action), action.body, {
      headers: { 'Idempotency-Key': idempotencyKey },
      handleErrors: (status) => status !== 400 && status !== 422,
    }),
  );
}

/** After an action: the job, the overviews (payment jobs and transactions) and the dashboard show it without a reload. */
export async function invalidateAfterPaymentAction(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: paymentJobQueries.all }),
    queryClient.invalidateQueries({ queryKey: ['transactions'] }),
    queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  ]);
}

export const newIdempotencyKey = () => globalThis.crypto?.randomUUID?.() ?? `key-${Date.now()}-${Math.random().toString(36).slice(2)}`;
