// The caps on one check object (bounds.ts): what is cut, and `omitted` saying how much.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundCheck, cutString, pointerSegment, REPORT_CAPS, wasCut, type Caps } from '../../src/analysis/bounds.js';
import type { CheckResult } from '../../src/analysis/types.js';

const caps = (items: number, chars = 100, depth = 10): Caps => ({ items, chars, depth });
const failing = (value: unknown, key: string, payload: unknown): CheckResult => ({
  passed: false,
  importance: 'medium',
  value,
  errors: { [key]: payload },
});
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('the report caps: 1,000 items, 2,048 code points (any URL the service accepts), 32 levels', () => {
  assert.deepEqual({ ...REPORT_CAPS }, { items: 1000, chars: 2048, depth: 32 });
});

test('nothing to cut: the same object back, without an omitted key', () => {
  const check = failing({ Internals: [{ url: 'http://a.test/', text: 'A' }] }, 'too_many', { max: '150' });
  const { result } = boundCheck(check);
  assert.equal(result, check);
  assert.deepEqual(Object.keys(result), ['passed', 'importance', 'value', 'errors']);
});

test('lists keep their first items; omitted, after errors, counts the rest by JSON Pointer', () => {
  const links = range(2500).map((i) => ({ url: `http://a.test/${i}`, text: `${i}` }));
  const check = failing({ Internals: links, Externals: links.slice(0, 10) }, 'too_many', { max: '150' });
  const { result } = boundCheck(check);
  assert.deepEqual(Object.keys(result), ['passed', 'importance', 'value', 'errors', 'omitted']);
  assert.deepEqual(result.value, { Internals: links.slice(0, 1000), Externals: links.slice(0, 10) });
  assert.deepEqual(result.errors, { too_many: { max: '150' } });
  assert.deepEqual(result.omitted, { '/value/Internals': 1500 });
  assert.equal(
    check.value && (check.value as { Internals: unknown[] }).Internals.length,
    2500,
    'the full result is left as it was',
  );
});

test('a passing check gains omitted after value; error payloads are cut too, at /errors/<key>', () => {
  assert.deepEqual(boundCheck({ passed: true, importance: 'low', value: range(5) }, caps(2)).result, {
    passed: true,
    importance: 'low',
    value: [0, 1],
    omitted: { '/value': 3 },
  });
  const missing = range(7).map((i) => ({ url: `u${i}`, text: '' }));
  const { result } = boundCheck(failing(missing, 'missing', missing), caps(3));
  assert.deepEqual(result.value, missing.slice(0, 3));
  assert.deepEqual(result.errors, { missing: missing.slice(0, 3) });
  assert.deepEqual(result.omitted, { '/value': 4, '/errors/missing': 4 });
});

test('objects keep their first entries; cut entries are counted like list items', () => {
  const og = Object.fromEntries(range(5).map((i) => [`og:k${i}`, `v${i}`]));
  const { result } = boundCheck({ passed: true, importance: 'medium', value: { 'Open Graph': og } }, caps(3));
  assert.deepEqual(result.value, { 'Open Graph': { 'og:k0': 'v0', 'og:k1': 'v1', 'og:k2': 'v2' } });
  assert.deepEqual(result.omitted, { '/value/Open Graph': 2 });
});

test('strings keep their first code points and end in "…"; surrogate pairs are never split', () => {
  assert.equal(cutString('abcdef', 3), 'abc…');
  assert.equal(cutString('abc', 3), 'abc');
  assert.equal(cutString('😀😀😀', 2), '😀😀…');
  assert.equal(cutString('😀😀', 2), '😀😀', 'two code points in four UTF-16 units are not cut');
  const title = 'T'.repeat(1_000_000);
  const { result } = boundCheck(failing(title, 'length', { min: '1', max: '60' }));
  assert.equal(result.value, `${'T'.repeat(2048)}…`);
  assert.equal(result.omitted, undefined, 'strings are not counted in omitted');
  assert.equal(wasCut(result.value as string), true);
  assert.equal(wasCut('T'.repeat(2048)), false);
  assert.equal(wasCut(`${'T'.repeat(2047)}…`), false, 'a real text ending in an ellipsis is not a cut one');
});

test('too deep: a container past the depth becomes an empty one of its kind, its items counted', () => {
  const deep = { a: { b: [1, 2, { c: { d: 1, e: 2 } }] } };
  const { result } = boundCheck({ passed: true, importance: 'medium', value: deep }, caps(10, 100, 3));
  // value (1) → a (2) → b (3) → the object at b/2 (4: emptied)
  assert.deepEqual(result.value, { a: { b: [1, 2, {}] } });
  assert.deepEqual(result.omitted, { '/value/a/b/2': 1 });
  const lists = boundCheck({ passed: true, importance: 'medium', value: [[[[1, 2, 3]]]] }, caps(10, 100, 2)).result;
  assert.deepEqual(lists.value, [[[]]]);
  assert.deepEqual(lists.omitted, { '/value/0/0': 1 });
});

test('a deeply nested value (100,000 levels) is cut without deep recursion', () => {
  let v: unknown = 'leaf';
  for (let i = 0; i < 100_000; i++) v = [v];
  const { result } = boundCheck({ passed: true, importance: 'medium', value: { 'Schema.org': [v] } });
  // value (1) → Schema.org (2) → 30 nested lists kept (3–32) → the 31st emptied
  assert.equal(JSON.stringify(result.value), `{"Schema.org":[${'['.repeat(31)}${']'.repeat(31)}]}`);
  assert.deepEqual(Object.values(result.omitted!), [1]);
});

test('pointers escape ~ and / (RFC 6901)', () => {
  assert.equal(pointerSegment('a/b~c'), 'a~1b~0c');
  assert.equal(pointerSegment(3), '3');
  const { result } = boundCheck({ passed: true, importance: 'medium', value: { 'a/b': [1, 2, 3], '~': { x: [1, 2] } } }, caps(1));
  assert.deepEqual(result.omitted, { '/value': 1, '/value/a~1b': 2 });
});

test('order of omitted: document order, a container before what is inside it', () => {
  const value = {
    x: [
      [1, 2],
      [3, 4],
    ],
    y: [5, 6],
  };
  const { result } = boundCheck({ passed: true, importance: 'medium', value }, caps(1));
  assert.deepEqual(Object.entries(result.omitted!), [
    ['/value', 1],
    ['/value/x', 1],
    ['/value/x/0', 1],
  ]);
});

test('long keys are cut; keys that become equal keep the first entry and count the others', () => {
  const long = 'k'.repeat(10);
  const value = { [`${long}1`]: 1, [`${long}2`]: 2, short: 3, [`${'k'.repeat(5)}…`]: 4 };
  const { result } = boundCheck({ passed: true, importance: 'medium', value }, caps(10, 5));
  assert.deepEqual(result.value, { 'kkkkk…': 1, short: 3 });
  assert.deepEqual(result.omitted, { '/value': 2 });
});

test('a "__proto__" key (JSON.parse makes one) stays an ordinary entry', () => {
  const value = JSON.parse(`{"__proto__": {"polluted": "${'x'.repeat(50)}"}, "b": 1}`);
  const { result } = boundCheck({ passed: true, importance: 'medium', value }, caps(10, 10));
  assert.equal(JSON.stringify(result.value), `{"__proto__":{"polluted":"${'x'.repeat(10)}…"},"b":1}`);
  assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('maxBytes is an upper bound on the serialised size', () => {
  const hostile = ['\u0000'.repeat(100), '\ud800'.repeat(100), '😀'.repeat(100), 'é"\\', -1.2345678901234567e-308, true, null];
  for (const value of [hostile, { [hostile[0] as string]: hostile }, [], 'x', 12]) {
    const { result, maxBytes } = boundCheck(failing(value, 'failed', value));
    assert.ok(Buffer.byteLength(JSON.stringify(result)) <= maxBytes, JSON.stringify(value).slice(0, 40));
  }
});
