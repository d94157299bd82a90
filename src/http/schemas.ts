// Parameter and response pieces shared by every resource: one TypeBox schema gives the handler's
// types (type-provider.ts), the validator's rules (validator.ts) and the OpenAPI document.
import { Type, type SchemaOptions, type Static, type TLiteral, type TObject, type TSchema } from '@sinclair/typebox';
import { PRIVACY_LEVELS, type Privacy } from '../model/privacy.js';
import type { Resource } from './errors.js';
import { PER_PAGE_VALUES } from './pagination.js';
import { NOT_STORED_AS_TEXT } from './validation.js';

/** A string limited to `values`, typed as their union (Type.String's enum is only a string). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

/** An integer limited to `values`, typed as their union. */
export const IntegerEnum = <const T extends readonly number[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'integer', enum: [...values] });

export const PrivacyLevel = (options: SchemaOptions = {}) =>
  Type.Unsafe<Privacy>({ ...options, type: 'integer', enum: [...PRIVACY_LEVELS] });
export const PrivacyParam = PrivacyLevel({ description: '0 public, 1 private, 2 password' });
export const Password = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'Share-page password; used (and then required) only with privacy 2. Never returned.',
  [NOT_STORED_AS_TEXT]: true, // only its hash is stored
});
export const PerPage = IntegerEnum(PER_PAGE_VALUES, { default: 100, description: 'Items per page' });
export const Sort = StringEnum(['desc', 'asc'], { default: 'desc' });
export const Page = Type.Unknown({ description: 'Page number: a positive integer; anything else (or nothing) means 1' });
export const Search = Type.String({ maxLength: 255 });

export const Timestamp = Type.String({
  description: 'UTC, six fractional digits, trailing Z',
  examples: ['2021-05-12T10:12:32.000000Z'],
});

/**
 * Marks a path parameter as the id of a resource: the validator reads it with the one id
 * parser (src/ids.ts) and answers anything else with that resource's 404, as an unknown id.
 * A symbol, like TypeBox's own Kind, so it never reaches the OpenAPI document.
 */
export const RESOURCE_ID = Symbol('rankscope.resourceId');

/** `{id}` in a resource's path: a number to the handler, digits on the wire. */
export function IdParams(resource: Resource) {
  return Type.Object({
    id: Type.Unsafe<number>({ type: 'string', pattern: '^[0-9]+$', description: 'Integer identifier', [RESOURCE_ID]: resource }),
  });
}

const FieldMessages = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'Field → its messages, fields in rule order',
});

export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    errors: Type.Optional(FieldMessages),
    status: Type.Integer(),
  },
  { $id: 'Error', description: 'Every error: message, status, and errors (field → messages) on 422' },
);

/** The 422 on its own, every field required: the serializer then keeps Laravel's key order. */
export const ValidationErrorResponse = Type.Object(
  { message: Type.String(), errors: FieldMessages, status: IntegerEnum([422]) },
  {
    $id: 'ValidationError',
    description: "A validation failure: the first message (and how many more), every field's messages, 422",
  },
);

/** A malformed event body (POST /api/event): the fields and their messages, 400. */
export const EventErrorResponse = Type.Object(
  { message: Type.String(), errors: FieldMessages, status: IntegerEnum([400]) },
  { $id: 'EventError', description: "Not an event: the first message, every field's messages, 400" },
);

/** `{data, status}`: every single-resource answer (responses.ts builds them). */
export function Envelope<T extends TSchema>(data: T): TObject<{ data: T; status: TLiteral<200> }>;
export function Envelope<T extends TSchema, S extends 200 | 201>(data: T, status: S): TObject<{ data: T; status: TLiteral<S> }>;
export function Envelope(data: TSchema, status: 200 | 201 = 200): TObject {
  return Type.Object({ data, status: Type.Literal(status) });
}

const PageLink = Type.Object({ url: Type.Union([Type.String(), Type.Null()]), label: Type.String(), active: Type.Boolean() });
const NullableUrl = Type.Union([Type.String(), Type.Null()]);

/** Laravel's resource-collection page (pagination.ts fills it). */
export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    links: Type.Object({ first: Type.String(), last: Type.String(), prev: NullableUrl, next: NullableUrl }),
    meta: Type.Object({
      current_page: Type.Integer(),
      from: Type.Union([Type.Integer(), Type.Null()]),
      last_page: Type.Integer(),
      links: Type.Array(PageLink),
      path: Type.String(),
      per_page: Type.Integer(),
      to: Type.Union([Type.Integer(), Type.Null()]),
      total: Type.Integer(),
    }),
    current_page: Type.Integer({ description: 'Also in meta: for clients written against the plain paginator' }),
    last_page: Type.Integer({ description: 'Also in meta: for clients written against the plain paginator' }),
    status: Type.Literal(200),
  });
}

declare const encodes: unique symbol;
/** JSON bytes a fast path wrote itself, typed by the document they hold (resources/report.ts). */
export type EncodedJson<T> = Buffer & { readonly [encodes]: T };

/**
 * A response that a fast path writes as bytes: the same schema in the document (and for the
 * test suite's response checks), while the handler must send EncodedJson of it, which Fastify sends as is.
 */
export const Encoded = <T extends TSchema>(schema: T) => Type.Unsafe<EncodedJson<Static<T>>>(schema);

export const DeletedResponse = Envelope(Type.Object({ id: Type.Integer() }));
