// fast-check generators for hostile request input: query strings and form bodies built from the
// API's own parameter names and from noise.
import fc from 'fast-check';

const NAMES = [
  'domain',
  'privacy',
  'password',
  'email',
  'exclude_bots',
  'exclude_ips',
  'exclude_params',
  'search',
  'search_by',
  'sort_by',
  'sort',
  'per_page',
  'page',
  'url',
  'project',
  'result',
  'results',
  '_method',
  '__proto__',
  'constructor',
  'a[]',
  'privacy[]',
  'sort[x]',
  'per.page',
  '',
];

const interesting = fc.constantFrom(
  '',
  ' ',
  '0',
  '1',
  '2',
  '3',
  '-1',
  '10',
  '25',
  '100',
  '1.0',
  '1e3',
  '99999999999999999999',
  'asc',
  'desc',
  'id',
  'domain',
  'url',
  'result',
  'good',
  'bad',
  'decent',
  'example.com',
  'https://www.example.com/x',
  'münchen.de',
  '127.0.0.1',
  '10.0.0.0/8',
  '::1',
  'null',
  'true',
  '%',
  '%%',
  '%zz',
  '&',
  '=',
  '\u0000',
  'ab\u0000cd',
  'example.com\u0000',
  '\u0001\u007f',
  '\ud800',
  '<script>',
  "' OR 1=1 --",
  'a'.repeat(300),
  '\n\n1.2.3.4\n',
);

export const paramValue = fc.oneof(interesting, fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
export const paramName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Percent-encodes every byte outside unreserved (lone surrogates become U+FFFD's bytes). */
const pct = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');

/** A raw `k=v&…` string: mostly well-encoded, sometimes raw noise. */
export const formEncoded = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(paramName, paramValue), { maxLength: 8 })
      .map((pairs) => pairs.map(([k, v]) => `${pct(k)}=${pct(v).replace(/%20/g, '+')}`).join('&')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(paramName, paramValue), { maxLength: 5 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  },
);

export const jsonBody = fc.oneof(
  fc.dictionary(
    paramName,
    fc.oneof(paramValue, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object()),
  ),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
);

export const pathId = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom(
    '0',
    '-1',
    'abc',
    '1.5',
    '99999999999999999999',
    '%2e%2e',
    '%00',
    'a%00b',
    'example.com%00',
    '1%20',
    '2147483648',
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(pct),
);
