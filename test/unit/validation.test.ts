import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { check } from '../../src/http/validation.js';
import { laravelValidatorCompiler } from '../../src/http/validator.js';
import { ValidationError, summarize } from '../../src/http/errors.js';
import '../../src/api/formats.js';

const schema = Type.Object({
  url: Type.String({ maxLength: 10 }),
  per_page: Type.Optional(Type.Integer({ enum: [10, 25] })),
  sort: Type.Optional(Type.String({ enum: ['asc', 'desc'] })),
  name: Type.Optional(Type.String({ minLength: 2 })),
  domain: Type.Optional(Type.String({ format: 'domain' })),
});

test('Laravel messages, one per failed rule, in field order', () => {
  const { errors } = check(schema, { sort: 'up', per_page: 'abc', name: 'é', domain: 'not a domain' });
  assert.deepEqual(errors, {
    url: ['The url field is required.'],
    per_page: ['The per page must be an integer.', 'The selected per page is invalid.'],
    sort: ['The selected sort is invalid.'],
    name: ['The name must be at least 2 characters.'],
    domain: ['The domain must be a valid domain name.'],
  });
});

test('integers are decimal digits only', () => {
  for (const bad of ['1.0', '+1', ' 1x', '1e1', '0x10']) {
    assert.deepEqual(check(schema, { url: 'u', per_page: bad }).errors.per_page?.[0], 'The per page must be an integer.', bad);
  }
  assert.deepEqual(check(schema, { url: 'u', per_page: '25' }).values, { url: 'u', per_page: 25 });
});

test('lengths count code points; arrays are not strings', () => {
  assert.deepEqual(check(schema, { url: '€€€€€€€€€€' }).errors, {});
  assert.deepEqual(check(schema, { url: 'x'.repeat(11) }).errors.url, ['The url must not be greater than 10 characters.']);
  assert.deepEqual(check(schema, { url: ['a'] }).errors.url, ['The url must be a string.']);
  assert.deepEqual(check(schema, { url: 'u', sort: ['asc'] }).errors.sort, ['The selected sort is invalid.']);
});

test('a format normalises the value it accepts; null means sent empty', () => {
  assert.deepEqual(check(schema, { url: 'u', domain: 'HTTPS://WWW.Example.COM/path', name: null }).values, {
    url: 'u',
    domain: 'www.example.com',
    name: null,
  });
});

test('the summary message counts every further message (Laravel ≥ 9)', () => {
  assert.equal(summarize({ a: ['A.'] }), 'A.');
  assert.equal(summarize({ a: ['A.'], b: ['B.'] }), 'A. (and 1 more error)');
  assert.equal(summarize({ a: ['A.', 'A2.'], b: ['B.'] }), 'A. (and 2 more errors)');
  const outcome = laravelValidatorCompiler({ schema, method: 'POST', url: '/test', httpPart: 'body' })({});
  assert.ok(
    typeof outcome === 'object' && 'error' in outcome && outcome.error instanceof ValidationError && outcome.error.status === 422,
  );
});
