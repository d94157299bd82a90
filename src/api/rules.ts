// Rules a schema cannot say (a password required when privacy becomes 2 and none is set yet; a
// domain already taken) answer in the same 422 as the schema's own errors, fields in schema
// order. A route with such rules declares `attachValidation: true`: the schema's 422 then
// waits (validator.ts lets nothing else wait), so the handler can first load what the request
// names (404 before any 422) and then call withRules, which is the only way it reads its body.
import { KindGuard } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { ValidationError, type FieldErrors } from './errors.js';
import { InvalidInput } from './validator.js';
import { inFieldOrder } from './validation.js';

/** A route's own rules: `valid` holds the fields that passed the schema; add messages to `errors`. */
export type Rules<Body> = (valid: Partial<Body>, errors: FieldErrors) => void | Promise<void>;

interface RequestWithBody<Body> {
  body: Body;
  validationError?: Error;
  routeOptions: { schema?: FastifySchema };
}

/** Runs `rules`, then throws one 422 with every error, or returns the validated body. */
export async function withRules<Body>(request: RequestWithBody<Body>, rules: Rules<Body>): Promise<Body> {
  const held = request.validationError;
  const invalid = held instanceof InvalidInput ? held : null;
  const errors: FieldErrors = { ...invalid?.errors };
  // The fields that passed, as the schema types them: the type provider's promise, on the part that held.
  await rules(invalid ? (invalid.valid as Partial<Body>) : request.body, errors);
  if (Object.keys(errors).length === 0) return request.body;
  const schema = request.routeOptions.schema?.body;
  throw new ValidationError(inFieldOrder(errors, KindGuard.IsObject(schema) ? Object.keys(schema.properties) : []));
}

/** Adds a message to a field (withRules puts the fields back in schema order). */
export function addError(errors: FieldErrors, field: string, message: string): void {
  errors[field] ??= [];
  errors[field].push(message);
}
