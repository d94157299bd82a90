import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseId } from '../../src/ids.js';

test('path ids: 1 … 2³¹−1 in plain digits (leading zeros read as a database reads them); anything else is no id', () => {
  const cases: [string, number | null][] = [
    ['1', 1],
    ['42', 42],
    ['007', 7],
    ['2147483647', 2_147_483_647],
    ['2147483648', null],
    ['99999999999999999999', null],
    ['00000000001', null], // more than 10 digits
    ['0', null],
    ['', null],
    ['-1', null],
    ['+1', null],
    ['1.0', null],
    ['1e3', null],
    [' 1', null],
    ['abc', null],
  ];
  for (const [raw, id] of cases) assert.equal(parseId(raw), id, JSON.stringify(raw));
});
