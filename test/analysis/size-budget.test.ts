// The size budget of `results` (size-budget.ts): the largest check objects are cut further
// until the whole fits, `omitted` stays exact, and the verdicts never change.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitResults, RESULTS_BUDGET_BYTES, SHRINK_LEVELS, type Measured } from '../../src/analysis/size-budget.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import type { CheckResult } from '../../src/analysis/types.js';
import type { CheckName } from '../../src/analysis/results.js';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** Every check, small and passing, with some replaced. */
function measured(
  replace: Partial<Record<CheckName, CheckResult>>,
  maxItems: Partial<Record<CheckName, number>> = {},
): Measured[] {
  return CHECK_NAMES.map((name) => ({
    name,
    result: replace[name] ?? { passed: true, importance: 'low', value: `${name} value` },
    ...(maxItems[name] === undefined ? {} : { maxItems: maxItems[name] }),
  }));
}

/** `n` links with `chars`-long texts. */
function links(n: number, chars: number): { url: string; text: string }[] {
  return Array.from({ length: n }, (_, i) => ({ url: `http://a.test/${i}`, text: `${i} `.padEnd(chars, 'x') }));
}

/** Listed + omitted of the list at `pointer` in a check object. */
function exactCount(check: CheckResult, pointer: string): number {
  const list = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], check) as unknown[];
  return list.length + (check.omitted?.[pointer] ?? 0);
}

test('the budget is 1 MiB; the levels shrink step by step down to nothing', () => {
  assert.equal(RESULTS_BUDGET_BYTES, 1024 * 1024);
  for (let i = 1; i < SHRINK_LEVELS.length; i++) {
    const [a, b] = [SHRINK_LEVELS[i - 1], SHRINK_LEVELS[i]];
    assert.ok(b.items < a.items && b.chars < a.chars && b.depth < a.depth, `level ${i} is smaller`);
  }
  assert.deepEqual(SHRINK_LEVELS.at(-1), { items: 0, chars: 0, depth: 0 });
});

test('results within the budget are only cut to the report caps', () => {
  const big = {
    passed: false,
    importance: 'medium' as const,
    value: { Internals: links(1500, 20) },
    errors: { too_many: { max: '150' } },
  };
  const input = measured({ in_page_links: big });
  const results = fitResults(input);
  assert.deepEqual(Object.keys(results), [...CHECK_NAMES]);
  assert.equal((results.in_page_links.value as { Internals: unknown[] }).Internals.length, 1000);
  assert.deepEqual(results.in_page_links.omitted, { '/value/Internals': 500 });
  assert.equal(results.title, input[0].result, 'untouched check objects are the same objects');
});

test('over the budget: the largest check is cut further until the results fit; verdicts and counts stay', () => {
  // 1,000 links of 2,000 characters: 2 MB at the report caps.
  const inPage: CheckResult = {
    passed: false,
    importance: 'medium',
    value: { Internals: links(3000, 2000) },
    errors: { too_many: { max: '150' } },
  };
  const social: CheckResult = { passed: true, importance: 'low', value: { Facebook: links(40, 100) } };
  const results = fitResults(measured({ in_page_links: inPage, social }));
  assert.ok(bytes(results) <= RESULTS_BUDGET_BYTES, `${bytes(results)} bytes`);
  const listed = (results.in_page_links.value as { Internals: { text: string }[] }).Internals;
  assert.equal(listed.length, 200, 'the next level: 200 items');
  assert.equal(listed[0].text, `0 ${'x'.repeat(1022)}…`, 'and 1,024 code points');
  assert.equal(exactCount(results.in_page_links, '/value/Internals'), 3000);
  assert.deepEqual(results.in_page_links.errors, { too_many: { max: '150' } });
  assert.equal(results.in_page_links.passed, false);
  assert.deepEqual(results.social, social, 'the smaller checks keep the report caps');
});

test('several large checks: each is cut only as far as needed, largest first', () => {
  const huge: CheckResult = {
    passed: false,
    importance: 'high',
    value: links(5000, 3000),
    errors: { missing: links(5000, 3000) },
  };
  const medium: CheckResult = {
    passed: false,
    importance: 'low',
    value: null,
    errors: { failed: links(300, 500).map((l) => l.text) },
  };
  const results = fitResults(measured({ image_keywords: huge, plaintext_email: medium }));
  assert.ok(bytes(results) <= RESULTS_BUDGET_BYTES);
  assert.equal(exactCount(results.image_keywords, '/value'), 5000);
  assert.equal(exactCount(results.image_keywords, '/errors/missing'), 5000);
  // 300 × 500 characters, 150 KB: never the largest while the budget was exceeded
  assert.deepEqual(results.plaintext_email, medium);
});

test('the results always fit: every check at 700 KB, and budgets down to 12 KB', () => {
  const list = links(1200, 300);
  const long = 'y'.repeat(100_000);
  const huge: CheckResult = { passed: false, importance: 'medium', value: { a: list, b: long }, errors: { failed: list } };
  const everything = Object.fromEntries(CHECK_NAMES.map((name) => [name, huge])) as Record<CheckName, CheckResult>;
  for (const budget of [RESULTS_BUDGET_BYTES, 100_000, 12_000]) {
    const results = fitResults(measured(everything), budget);
    assert.ok(bytes(results) <= budget, `${bytes(results)} ≤ ${budget}`);
    for (const name of CHECK_NAMES) {
      assert.equal(exactCount(results[name], '/errors/failed'), 1200, name);
      assert.deepEqual(Object.keys(results[name].errors!), ['failed'], 'the error key stays');
    }
  }
});

test('a configured sample (inline_css) is cut at its size and counted, at every level', () => {
  const styles: CheckResult = {
    passed: false,
    importance: 'low',
    value: null,
    errors: { failed: Array.from({ length: 70 }, (_, i) => `n:${i}`) },
  };
  const results = fitResults(measured({ inline_css: styles }, { inline_css: 50 }));
  assert.equal((results.inline_css.errors!.failed as string[]).length, 50);
  assert.deepEqual(results.inline_css.omitted, { '/errors/failed': 20 });
});
