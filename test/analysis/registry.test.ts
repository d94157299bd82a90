// The check registry: generated from the check modules (scripts/check-registry.mjs), ordered by
// each check's position (checks/index.ts). A check added here, without a file in src/, goes
// through the same ordering and the same analysis as the product's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { CHECK_NAMES, CHECKS, inReportOrder, type Check } from '../../src/analysis/checks/index.js';
import { defineCheck, fail, limit } from '../../src/analysis/checks/define-check.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { runChecks } from '../../src/analysis/run.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import type { CheckResult } from '../../src/analysis/types.js';

const generator = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/check-registry.mjs', ...args], { encoding: 'utf8' });

/** A throwaway check: at least `min` words in the visible text, right after the title. */
function wordCount(min: number, position = 15) {
  return defineCheck({
    name: 'word_count',
    position,
    importance: 'high',
    title: 'Word count',
    why: 'A page needs words to be found by them.',
    fix: 'Write more.',
    value: Type.Integer(),
    errors: { too_few: Type.Object({ min: Type.String() }) },
    run({ artifacts }) {
      const value = artifacts.text.visible.split(/\s+/).filter(Boolean).length;
      return value >= min ? { value } : { value, failure: fail('too_few', { min: limit(min) }) };
    },
    describe: ({ value }) => (value === undefined ? null : `${value} words.`),
    view: { value: { kind: 'none' }, error: null },
  });
}

const snapshot = makeSnapshot({
  html: '<html lang="en"><head><title>A page</title></head><body><h1>Hi</h1><p>one two three</p></body></html>',
});

/** round(100 × passed weight ÷ all weight), halves up: docs/checks.md §1, written out again. */
function expectedScore(results: Record<string, CheckResult>): number {
  const { weights } = DEFAULT_CONFIG;
  const all = Object.values(results);
  const total = all.reduce((sum, r) => sum + weights[r.importance], 0);
  const passed = all.filter((r) => r.passed).reduce((sum, r) => sum + weights[r.importance], 0);
  return Math.floor((100 * passed) / total + 0.5);
}

test('the generated registry holds every check module in src/analysis/checks (a stale one fails here)', () => {
  const checked = generator('--check');
  assert.equal(checked.status, 0, checked.stderr);
  assert.equal(CHECKS.length, new Set(CHECK_NAMES).size);
});

test('the generator picks up a new check module by itself, and refuses a module with two checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-checks-'));
  try {
    writeFileSync(join(dir, 'word-count.ts'), "export const wordCount = defineCheck({ name: 'word_count', position: 15 });\n");
    writeFileSync(join(dir, 'helpers.ts'), 'export const words = (text: string) => text.split(/\\s+/);\n');
    const out = generator('--dir', dir, '--stdout');
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /^import \{ wordCount \} from '\.\/word-count\.js';$/m);
    assert.match(out.stdout, /^export const CHECK_MODULES = \[\n {2}wordCount,\n\] as const;$/m);
    assert.doesNotMatch(out.stdout, /helpers/);

    writeFileSync(join(dir, 'two.ts'), 'export const a = defineCheck({});\nexport const b = defineCheck({});\n');
    const refused = generator('--dir', dir, '--stdout');
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /a check module exports one check, found a, b/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a check added to the registry is in the analysis: its name at its position, its verdict, importance and value, and the score', () => {
  const before = runChecks(snapshot);
  for (const [min, passed] of [
    [3, true],
    [300, false],
  ] as const) {
    const checks: readonly Check[] = inReportOrder([...CHECKS, wordCount(min)]);
    const { result, results } = runChecks(snapshot, DEFAULT_CONFIG, undefined, checks);
    const all = results as Record<string, CheckResult>;
    assert.deepEqual(Object.keys(all), ['title', 'word_count', ...CHECK_NAMES.slice(1)]);
    const expected: CheckResult = passed
      ? { passed: true, importance: 'high', value: 4 }
      : { passed: false, importance: 'high', value: 4, errors: { too_few: { min: '300' } } };
    assert.deepEqual(all.word_count, expected);
    // the other checks are as before, and the new one counts in the score with its weight
    for (const name of CHECK_NAMES) assert.deepEqual(results[name], before.results[name], name);
    assert.equal(result, expectedScore(all));
    assert.ok(passed ? result > before.result : result < before.result, `${result} against ${before.result}`);
  }
  // appended at the end of the report when its position is the largest
  const last = runChecks(snapshot, DEFAULT_CONFIG, undefined, inReportOrder([wordCount(3, 10_000), ...CHECKS]));
  assert.equal(Object.keys(last.results).at(-1), 'word_count');
});

test('two checks at one position, or of one name, are refused', () => {
  assert.throws(
    () => inReportOrder([...CHECKS, wordCount(3, CHECKS[0].position)]),
    /title and word_count are both at position 10/,
  );
  assert.throws(() => inReportOrder([wordCount(3, 1), wordCount(3, 2)]), /two checks are named word_count/);
});
