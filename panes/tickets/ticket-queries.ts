// Tickets (TkDodo-style query factory): keys from generic to specific, fetchers beside their keys, answers checked
// against the contract in the validation worker. A ticket itself is always read through the context-free path
// (/tickets/{id}): the server scopes it to what the caller may reach, whichever context is applied.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { listRequestParams, type ListState } from '../../src/contract/list-state.ts';
import type { TicketBody, TicketCommentBody, TicketCommentUpdateBody, TicketDetail, TicketUpdateBody } from '../../src/contract/ticket-schemas.ts';

export const ticketPath = (ticketId: string) => `/tickets/${encodeURIComponent(ticketId)}`;

export const ticketQueries = {
  all: ['tickets'] as const,
  list: (contextPrefix: string, state: ListState) => {
    const query = listRequestParams(state);
    return queryOptions({
      queryKey: [...ticketQueries.all, contextPrefix, 'list', query] as const,
      queryFn: async ({ signal }) => validate('ticketList', await api.get<unknown>(`${contextPrefix}/tickets`, { query, signal })),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
    });
  },
  detail: (ticketId: string) =>
    queryOptions({
      queryKey: [...ticketQueries.all, 'detail', ticketId] as const,
      queryFn: async ({ signal }) => validate('ticketDetail', await api.get<unknown>(ticketPath(ticketId), { signal })),
      staleTime: 10_000,
    }),
  /** one batch of comments: the latest (before = null) or the 20 before a comment */
  comments: (ticketId: string, before: string | null) =>
    queryOptions({
      queryKey: [...ticketQueries.all, 'detail', ticketId, 'comments', before] as const,
      queryFn: async ({ signal }) =>
        validate('ticketCommentPage', await api.get<unknown>(`${ticketPath(ticketId)}/comments`, { query: before ? { before } : {}, signal })),
      staleTime: 10_000,
    }),
  assignees: () =>
    queryOptions({
      queryKey: [...ticketQueries.all, 'assignees'] as const,
      queryFn: async ({ signal }) => validate('ticketAssignees', await api.get<unknown>('/ticket-assignees', { signal })),
      staleTime: 300_000,
    }),
};

export async function createTicket(contextPrefix: string, body: TicketBody) {
  return validate('createdTicket', await api.post<unknown>(`${contextPrefix}/tickets`, body));
}

export async function updateTicket(ticketId: string, body: TicketUpdateBody) {
  return validate('ticketDetail', await api.put<unknown>(ticketPath(ticketId), body));
}

/** The update body of a ticket as it is, with a change applied (commands change one field at a time). */
export function ticketUpdateOf(ticket: TicketDetail, change: Partial<TicketUpdateBody>): TicketUpdateBody {
  return {
    type: ticket.type,
    priority: ticket.priority,
    status: ticket.status,
    subject: ticket.subject,
    description: ticket.description,
    assigneeId: ticket.assignee?.userId ?? null,
    version: ticket.version,
    ...change,
  };
}

export async function deleteTicket(ticketId: string) {
  await api.delete<unknown>(ticketPath(ticketId));
}

export async function postComment(ticketId: string, body: TicketCommentBody) {
  return validate('createdComment', await api.post<unknown>(`${ticketPath(ticketId)}/comments`, body));
}

export async function updateComment(ticketId: string, commentId: string, body: TicketCommentUpdateBody) {
  return validate('ticketComment', await api.put<unknown>(`${ticketPath(ticketId)}/comments/${encodeURIComponent(commentId)}`, body));
}

export async function deleteComment(ticketId: string, commentId: string) {
  await api.delete<unknown>(`${ticketPath(ticketId)}/comments/${encodeURIComponent(commentId)}`);
}

const attachmentsPath = (ticketId: string, commentId: string | null) =>
  `${ticketPath(ticketId)}${commentId ? `/comments/${encodeURIComponent(commentId)}` : ''}/attachments`;

export async function uploadAttachment(ticketId: string, commentId: string | null, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return validate('ticketAttachment', await api.post<unknown>(attachmentsPath(ticketId, commentId), form));
}

export async function removeAttachment(ticketId: string, commentId: string | null, attachmentId: string) {
  await api.delete<unknown>(`${attachmentsPath(ticketId, commentId)}/${encodeURIComponent(attachmentId)}`);
}

/** Downloads a file under the name the server gave it (the spec's fallback: 'unknown'). */
export async function downloadAttachment(ticketId: string, commentId: string | null, attachmentId: string, fileName: string | null) {
  const blob = await api.get<Blob>(`${attachmentsPath(ticketId, commentId)}/${encodeURIComponent(attachmentId)}`, {
    responseType: 'blob',
    headers: { Accept: '*/*' },
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName && fileName.trim() !== '' ? fileName : 'unknown';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
