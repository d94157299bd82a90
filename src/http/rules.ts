// Rules a schema cannot say (a password required when privacy becomes 2 and none is set yet; a
// domain already taken) answer in the same 422 as the schema's own errors, fields in schema
// order. A route with such rules declares `attachValidation: true`: the schema's 422 then
// waits (validator.ts lets nothing else wait), so the handler can first load what the request
// names (404 before any 422) and then call withRules, which is the only way it reads its body
// (or, for a GET route, its query).
import { KindGuard } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { ValidationError, type FieldErrors } from './errors.js';
import { InvalidInput } from './validator.js';
import { inFieldOrder } from './validation.js';

/** A route's own rules: `valid` holds the fields that passed the schema; add messages to `errors`. */
export type Rules<Body> = (valid: Partial<Body>, errors: FieldErrors) => void | Promise<void>;

interface HeldRequest {
  validationError?: Error;
  routeOptions: { schema?: FastifySchema };
}

/**
 * Runs `rules` on the body (a GET route's query with `'querystring'`), then throws one 422 with
 * every error, or returns the validated input.
 */
export async function withRules<Body>(request: HeldRequest & { body: Body }, rules: Rules<Body>): Promise<Body>;
export async function withRules<Query>(
  request: HeldRequest & { query: Query },
  rules: Rules<Query>,
  part: 'querystring',
): Promise<Query>;
export async function withRules<Input>(
  request: HeldRequest & { body?: Input; query?: Input },
  rules: Rules<Input>,
  part: 'body' | 'querystring' = 'body',
): Promise<Input | undefined> {
  const input = part === 'body' ? request.body : request.query;
  const held = request.validationError;
  const invalid = held instanceof InvalidInput ? held : null;
  const errors: FieldErrors = { ...invalid?.errors };
  // The fields that passed, as the schema types them: the type provider's promise, on the part that held.
  await rules(invalid ? (invalid.valid as Partial<Input>) : (input as Input), errors);
  if (Object.keys(errors).length === 0) return input;
  const schema = request.routeOptions.schema?.[part];
  throw new ValidationError(inFieldOrder(errors, KindGuard.IsObject(schema) ? Object.keys(schema.properties) : []));
}

/** Adds a message to a field (withRules puts the fields back in schema order). */
export function addError(errors: FieldErrors, field: string, message: string): void {
  errors[field] ??= [];
  errors[field].push(message);
}
