// The types a handler sees: a route's TypeBox schemas decide the types of its params, query and
// body (what validator.ts hands over) and of what it may answer (what Fastify's serializer
// writes), so handlers need no casts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { Static, TObject, TSchema } from '@sinclair/typebox';

/**
 * What the validator hands over for a schema: its Static type, except that an optional field
 * may also be null: sent empty (trimmed to nothing) or as JSON null, it counts as given but
 * blank (Laravel's `nullable`), which updates read as "clear it".
 */
export type InputOf<T extends TSchema> = T extends TObject
  ? { [K in keyof Static<T>]: undefined extends Static<T>[K] ? Static<T>[K] | null : Static<T>[K] }
  : Static<T>;

export interface ApiTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? InputOf<this['schema']> : unknown;
  serializer: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
}

/** The /api/v1 scope as route modules receive it. */
export type Api = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ApiTypeProvider>;
