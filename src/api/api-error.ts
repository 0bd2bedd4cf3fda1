// What a failed Portal API call rejects with. `handled` says the user has already been told (toast, modal or
// the session's own message), so callers only need to restore their own state.

export type ApiErrorKind = 'http' | 'network' | 'aborted' | 'session' | 'conflictKept' | 'conflictDiscarded' | 'drift';

export class ApiError extends Error {
  readonly status: number;
  readonly messages: readonly string[];
  readonly kind: ApiErrorKind;
  readonly handled: boolean;
  constructor(init: { status: number; messages: readonly string[]; kind: ApiErrorKind; handled: boolean }) {
    super(init.messages.join(' ') || `Request failed (${init.kind}${init.status ? ` ${init.status}` : ''}).`);
    this.name = 'ApiError';
    this.status = init.status;
    this.messages = init.messages;
    this.kind = init.kind;
    this.handled = init.handled;
  }
}

/** Thrown by the session when it cannot give the client a token (the session has told the user already). */
export class SessionUnavailableError extends Error {
  constructor(message = 'The session has ended.') {
    super(message);
    this.name = 'SessionUnavailableError';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** errorReport.errors → their translated messages (or messages); [] when the body is not an error report. */
export function errorReportMessages(body: unknown): string[] {
  const errors = (body as { errorReport?: { errors?: unknown } } | null)?.errorReport?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .map((error: unknown) => {
      const { translatedMessage, message } = (error ?? {}) as { translatedMessage?: unknown; message?: unknown };
      if (typeof translatedMessage === 'string' && translatedMessage.trim()) return translatedMessage;
      return typeof message === 'string' ? message : '';
    })
    .filter((message) => message.trim().length > 0);
}
