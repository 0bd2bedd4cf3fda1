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

/**
 * Field names whose values are card data or secrets: a validation message about one says what is wrong and never
 * what was sent (a mistyped card number is still most of a card number).
 */
const secretFieldName = /card.?number|^pan$|cvc|cvv|cv2|security.?code|expiry|password|secret|token|^code$/i;

/** Twelve or more digits in a row (spaces or dashes between them allowed): what could be most of a card number. */
const longDigitRun = /[0-9](?:[ -]?[0-9]){11,}/g;

/** What a validation message may show of a value: never a run of digits that could be a card number. */
export function withoutCardNumbers(message: string): string {
  return message.replace(longDigitRun, '[redacted]');
}

/** The part of a validation problem arktype would write as "(was …)": the value or a description of it. */
type ValidationProblem = { readonly path: readonly PropertyKey[]; readonly propString: string; readonly expected: string; readonly message: string };

/**
 * The messages of a failed schema check (arktype's errors), for an errorReport: a problem of a secret field (or under
 * one) names the field and what it must be, without the value; every message loses runs of digits that could be a
 * card number (they could arrive in a field of any name, or as an unexpected key).
 */
export function validationMessages(problems: Iterable<ValidationProblem>): string[] {
  return [...problems].map((problem) => {
    const secret = problem.path.some((key) => typeof key === 'string' && secretFieldName.test(key));
    const message = secret ? `${problem.propString ? `${problem.propString} ` : ''}must be ${problem.expected}` : problem.message;
    return withoutCardNumbers(message);
  });
}
