// What a page makes of the API's answers: the id of its path, a 422's messages by field, the
// API's message for a refusal no form expects, and the error for a read that should not fail.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiAnswer } from './api-client.js';
import type { Refusal } from './api-types.js';
import { redirectWithNotice } from './context.js';
import type { FieldErrors } from './render/forms.js';

/** The `:id` of the path when it could be one (digits, no leading zero), else null: a dashboard 404 without asking. */
export function pathId(request: FastifyRequest): string | null {
  const params: unknown = request.params;
  const id = params && typeof params === 'object' && 'id' in params ? params.id : undefined;
  return typeof id === 'string' && /^[1-9][0-9]{0,15}$/.test(id) ? id : null;
}

/** A refused form's messages by field (a message without fields goes under `form`, shown in the summary). */
export function fieldErrors(answer: ApiAnswer): FieldErrors {
  const errors = refusal(answer).errors;
  return errors && typeof errors === 'object' ? errors : { form: [apiMessage(answer, 'Refused.')] };
}

/** The API's own message, or `fallback`. */
export function apiMessage(answer: ApiAnswer, fallback = `The API answered ${answer.status}.`): string {
  const message = refusal(answer).message;
  return typeof message === 'string' && message ? message : fallback;
}

/** A refusal's fields, when the body is an object (any answer may be read as one: its fields are optional). */
function refusal(answer: ApiAnswer): Refusal {
  return answer.body !== null && typeof answer.body === 'object' ? (answer.body as Refusal) : {};
}

/** A refusal no form expects: back to `path`, saying what the API said. */
export function backWithApiMessage(reply: FastifyReply, path: string, answer: ApiAnswer, fallback?: string): FastifyReply {
  return redirectWithNotice(reply, path, apiMessage(answer, fallback), true);
}

/** A read the page cannot do without (its answer was neither the data nor a 404): a bug, for the error handler. */
export function failedRead(answer: ApiAnswer, what: string): Error {
  return new Error(`reading ${what}: the API answered ${answer.status}`);
}
