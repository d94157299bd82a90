// Fastify's validator for the API: every route's TypeBox schemas are compiled once into
// Laravel's checks (validation.ts), so a handler receives typed, normalised input (see
// type-provider.ts) or never runs. Before validation the query string and the body are merged
// (the body wins; docs/api.md#input), so writes may take their fields from either.
import { KindGuard, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { parseId } from '../ids.js';
import { ValidationError, notFound, type FieldErrors, type Resource } from './errors.js';
import { requestInput, type Input } from './input.js';
import { RESOURCE_ID } from './schemas.js';
import { compileCheck, type Validated } from './validation.js';

/** The schema's 422, carrying the fields that did pass: rules.ts runs a route's own rules on them. */
export class InvalidInput extends ValidationError {
  // Private, so no error serializer (a log line) ever writes the input, passwords included.
  readonly #valid: Validated;

  constructor(errors: FieldErrors, valid: Validated) {
    super(errors);
    this.#valid = valid;
  }

  get valid(): Validated {
    return this.#valid;
  }
}

function resourceOf(field: TSchema): Resource | undefined {
  const marked: unknown = RESOURCE_ID in field ? field[RESOURCE_ID] : undefined;
  return marked === 'Report' || marked === 'Website' || marked === 'Project' || marked === 'Webhook' || marked === 'Monitor'
    ? marked
    : undefined;
}

/** Path parameters: ids become numbers; a malformed id answers 404, exactly like an unknown one. */
function compileParams(schema: TObject) {
  const ids = Object.entries(schema.properties).flatMap(([name, field]) => {
    const resource = resourceOf(field);
    return resource ? [{ name, resource }] : [];
  });
  return (params: Record<string, string>) => {
    const value: Record<string, string | number> = { ...params };
    for (const { name, resource } of ids) {
      const id = parseId(params[name] ?? '');
      if (id === null) return { error: notFound(resource) };
      value[name] = id;
    }
    return { value };
  };
}

/**
 * A query string or a body (already merged and normalised by the preValidation hook below). A
 * body is what a write stores, so text a database cannot store is refused there (a 422 on the
 * field); a query string only filters, and such a term matches nothing.
 */
function compileInput(schema: TObject, stored: boolean) {
  const check = compileCheck(schema, { stored });
  return (data: Input | null) => {
    const { values, errors } = check(data ?? {});
    return Object.keys(errors).length > 0 ? { error: new InvalidInput(errors, values) } : { value: values };
  };
}

export const laravelValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart, method, url }) => {
  if (!KindGuard.IsObject(schema)) throw new Error(`${method} ${url}: a ${httpPart} schema must be a Type.Object`);
  if (httpPart === 'params') return compileParams(schema);
  if (httpPart === 'body' || httpPart === 'querystring') return compileInput(schema, httpPart === 'body');
  throw new Error(`${method} ${url}: the API validates no ${httpPart}`);
};

/** Validation for every route of `api`, in Laravel's terms. */
export function useLaravelValidation(api: FastifyInstance): void {
  api.setValidatorCompiler(laravelValidatorCompiler);
  // Input as Laravel reads it (input.ts): trimmed, empty as null, and for writes the query
  // string and the body in one (the body wins), so the body schema sees both.
  api.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') request.query = requestInput(request.query, null);
    else request.body = requestInput(request.query, request.body);
    done();
  });
  // Routes with attachValidation hold back only the input's 422, to merge it with their own
  // rules (rules.ts); anything else, such as a malformed id's 404, is answered now.
  api.addHook('preHandler', (request, _reply, done) => {
    const held = request.validationError;
    done(held && !(held instanceof InvalidInput) ? held : undefined);
  });
}
