import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { bandOf, scoreOf } from '../../src/analysis/score.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import type { Importance } from '../../src/analysis/types.js';
import type { CheckResults } from '../../src/analysis/results.js';

/** A result per check: the given [importance, passed] pairs first, then failing low checks. */
function resultsOf(entries: [Importance, boolean][]): CheckResults {
  return Object.fromEntries(
    CHECK_NAMES.map((name, i) => {
      const [importance, passed] = entries[i] ?? ['low', false];
      return [name, { passed, importance, value: null }];
    }),
  ) as CheckResults;
}
const repeat = (n: number, entry: [Importance, boolean]) => Array.from({ length: n }, () => entry);
const weights = DEFAULT_CONFIG.weights;

test('score: every check passing is 100, none is 0', () => {
  const all = (passed: boolean) =>
    resultsOf([...repeat(11, ['high', passed]), ...repeat(11, ['medium', passed]), ...repeat(11, ['low', passed])]);
  assert.equal(scoreOf(all(true), weights), 100);
  assert.equal(scoreOf(all(false), weights), 0);
});

test('score: weights 10/5/0, low checks never move it', () => {
  // 10 of 15 → 66.67 → 67
  assert.equal(
    scoreOf(
      resultsOf([
        ['high', true],
        ['medium', false],
      ]),
      weights,
    ),
    67,
  );
  assert.equal(scoreOf(resultsOf([['high', true], ['medium', false], ...repeat(31, ['low', true])]), weights), 67);
  // the default table: 7 high + 21 medium = 175; 5 high and 7 medium pass: 85/175 = 48.57 → 49
  const table = [
    ...repeat(5, ['high', true]),
    ...repeat(2, ['high', false]),
    ...repeat(7, ['medium', true]),
    ...repeat(14, ['medium', false]),
  ] as [Importance, boolean][];
  assert.equal(scoreOf(resultsOf(table), weights), 49);
});

test('score: halves round up', () => {
  const onlyHigh = { high: 1, medium: 0, low: 0 };
  // 1 of 8 → 12.5 → 13; 3 of 8 → 37.5 → 38; 1 of 2 → 50
  assert.equal(scoreOf(resultsOf([['high', true], ...repeat(7, ['high', false])]), onlyHigh), 13);
  assert.equal(scoreOf(resultsOf([...repeat(3, ['high', true]), ...repeat(5, ['high', false])]), onlyHigh), 38);
  assert.equal(
    scoreOf(
      resultsOf([
        ['high', true],
        ['high', false],
      ]),
      onlyHigh,
    ),
    50,
  );
  // 1 of 3 → 33.33 → 33, 2 of 3 → 66.67 → 67
  assert.equal(scoreOf(resultsOf([['high', true], ...repeat(2, ['high', false])]), onlyHigh), 33);
  assert.equal(scoreOf(resultsOf([...repeat(2, ['high', true]), ['high', false]]), onlyHigh), 67);
});

test('score: 0 when every weight is 0', () => {
  assert.equal(scoreOf(resultsOf(repeat(CHECK_NAMES.length, ['high', true])), { high: 0, medium: 0, low: 0 }), 0);
});

test('band: good ≥ 90, decent 50–89, bad < 50, and configurable', () => {
  const bands = DEFAULT_CONFIG.bands;
  assert.deepEqual(
    [100, 90, 89, 50, 49, 0].map((s) => bandOf(s, bands)),
    ['good', 'good', 'decent', 'decent', 'bad', 'bad'],
  );
  assert.equal(bandOf(70, { good: 70, decent: 30 }), 'good');
  assert.equal(bandOf(29, { good: 70, decent: 30 }), 'bad');
});
