// Words (docs/checks.md §4.3) counted in one pass with a table: the same count as the definition.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { codePointLength } from '../../src/analysis/text.js';
import { textStats, wordsOf } from '../../src/analysis/words.js';

test('property: textStats counts the words wordsOf splits, and the code points', () => {
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('a\ud800b', '😀x', '𝒜𝒜 b', 'x\udc00', '\udc00\ud800', 'Ünïcode 42 ١٢٣ 漢字'),
  );
  fc.assert(
    fc.property(text, (s) => assert.deepEqual(textStats(s), { words: wordsOf(s).length, codePoints: codePointLength(s) })),
    { numRuns: 5000 },
  );
});
