// Parameter and response pieces shared by every resource (documentation and validation).
import { Type, type TSchema } from '@sinclair/typebox';
import { PER_PAGE_VALUES } from '../pagination.js';
import '../formats.js';

export const Privacy = Type.Integer({ enum: [0, 1, 2], description: '0 public, 1 private, 2 password' });
export const Password = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'Share-page password; used (and then required) only with privacy 2. Never returned.',
});
export const PerPage = Type.Integer({ enum: [...PER_PAGE_VALUES], default: 100, description: 'Items per page' });
export const Sort = Type.String({ enum: ['desc', 'asc'], default: 'desc' });
export const Page = Type.Unknown({ description: 'Page number: a positive integer; anything else (or nothing) means 1' });
export const Search = Type.String({ maxLength: 255 });

export const Timestamp = Type.String({
  description: 'UTC, six fractional digits, trailing Z',
  examples: ['2021-05-12T10:12:32.000000Z'],
});

export const IdParam = Type.Object({ id: Type.String({ pattern: '^[0-9]+$', description: 'Integer identifier' }) });

export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    status: Type.Integer(),
  },
  { $id: 'Error', description: 'Every error: message, status, and errors (field → messages) on 422' },
);

export function Envelope(data: TSchema, status: 200 | 201 = 200) {
  return Type.Object({ data, status: Type.Literal(status) });
}

const PageLink = Type.Object({ url: Type.Union([Type.String(), Type.Null()]), label: Type.String(), active: Type.Boolean() });

export function Paginated(item: TSchema) {
  const nullableUrl = Type.Union([Type.String(), Type.Null()]);
  return Type.Object({
    data: Type.Array(item),
    links: Type.Object({ first: Type.String(), last: Type.String(), prev: nullableUrl, next: nullableUrl }),
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

export const DeletedResponse = Envelope(Type.Object({ id: Type.Integer() }));
