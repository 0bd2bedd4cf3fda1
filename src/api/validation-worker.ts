// The validation worker: checks answers against the contract schemas off the main thread. One message per
// answer ({ id, name, data }), one reply ({ id, ok: true, output } or { id, ok: false, message }).
import { checkAgainstContract, type SchemaName } from './contract-schemas.ts';

export type ValidationRequest = { id: number; name: SchemaName; data: unknown };
export type ValidationReply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };

export function answer(request: ValidationRequest): ValidationReply {
  try {
    return { id: request.id, ok: true, output: checkAgainstContract(request.name, request.data) };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

// In a worker (not when a test imports answer()): reply to each message.
const scope = globalThis as unknown as {
  WorkerGlobalScope?: unknown;
  onmessage: ((event: MessageEvent<ValidationRequest>) => void) | null;
  postMessage: (reply: ValidationReply) => void;
};
if (typeof scope.WorkerGlobalScope !== 'undefined') {
  scope.onmessage = (event) => scope.postMessage(answer(event.data));
}
