import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_INPUT_VARS, parseFormEncoded, requestInput } from '../../src/http/input.js';

test('form parsing follows PHP: last repeated key wins, brackets make arrays, dots become _', () => {
  assert.deepEqual(
    { ...parseFormEncoded('a=1&a=2&b[]=x&b[]=y&c.d=3&e+f=4&g') },
    { a: '2', b: ['x', 'y'], c_d: '3', e_f: '4', g: '' },
  );
});

test('form parsing decodes + and %XX, keeps malformed escapes', () => {
  assert.deepEqual({ ...parseFormEncoded('q=a+b%20c&r=100%&s=%E2%82%AC') }, { q: 'a b c', r: '100%', s: '€' });
});

test('form parsing ignores __proto__ and stops after max_input_vars pairs', () => {
  const parsed = parseFormEncoded('__proto__=x&ok=1');
  assert.equal(Object.getPrototypeOf(parsed), null);
  assert.deepEqual({ ...parsed }, { ok: '1' });
  const many = Array.from({ length: MAX_INPUT_VARS + 5 }, (_, i) => `k${i}=1`).join('&');
  assert.equal(Object.keys(parseFormEncoded(many)).length, MAX_INPUT_VARS);
});

test('input: the body wins over the query; strings trimmed except passwords; empty means null', () => {
  const input = requestInput({ privacy: '0', domain: ' q.com ', x: '' }, { privacy: '2', password: ' pw ', email: '  ' });
  assert.deepEqual({ ...input }, { privacy: '2', domain: 'q.com', x: null, password: ' pw ', email: null });
});

test('input: JSON numbers become decimal strings, other JSON values stay as they are', () => {
  const input = requestInput(null, { privacy: 2, email: true, n: null, big: 1e21 });
  assert.deepEqual({ ...input }, { privacy: '2', email: true, n: null, big: '1e+21' });
});
