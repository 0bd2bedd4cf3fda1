// Every 4xx carries an errorReport; handlers throw ApiError and the app's error handler answers.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorReport } from '../../src/contract/errors.ts';

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly messages: string[];
  constructor(status: ContentfulStatusCode, messages: string | string[]) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.status = status;
    this.messages = list;
  }
}

export function errorReport(messages: string[]): ErrorReport {
  return { errorReport: { errors: messages.map((message) => ({ message, translatedMessage: message })) } };
}

export const notFoundMessage = 'The requested record was not found.';
export const noPermissionMessage = 'You do not have the correct permissions.';

export const badRequest = (messages: string | string[]) => new ApiError(400, messages);
export const notFound = () => new ApiError(404, notFoundMessage);
export const forbidden = () => new ApiError(403, noPermissionMessage);
export const conflict = () => new ApiError(409, 'Someone updated this view');
