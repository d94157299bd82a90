import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { CHECK_NAMES, CHECKS } from '../../src/analysis/checks/index.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { runChecks } from '../../src/analysis/run.js';
import { scoreOf } from '../../src/analysis/score.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import type { Importance } from '../../src/analysis/types.js';
import { SPEC_CHECKS, SPEC_HEADINGS } from '../helpers/spec-checks.js';

// The product's checks: exactly those of docs/checks.md §5's table, in its order, with its importances.
test('the registry: the checks of docs/checks.md §5, in its order, with its importances', () => {
  assert.ok(SPEC_CHECKS.length > 0, 'the table is found');
  assert.deepEqual(
    CHECKS.map((c) => [c.name, c.importance]),
    SPEC_CHECKS.map(([name, importance]) => [name, importance]),
  );
  assert.deepEqual(
    [...CHECK_NAMES],
    CHECKS.map((c) => c.name),
  );
  // each check's own part of §5 names the same importance as the table
  assert.deepEqual(
    [...SPEC_HEADINGS].sort(([a], [b]) => a.localeCompare(b)),
    [...SPEC_CHECKS].sort(([a], [b]) => a.localeCompare(b)),
  );
});

test('runChecks: results in order, scored with the configured weights', () => {
  const snapshot = makeSnapshot({ html: '<html lang="en"><head><title>A page</title></head><body><h1>Hi</h1></body></html>' });
  const { result, results } = runChecks(snapshot);
  assert.deepEqual(Object.keys(results), [...CHECK_NAMES]);
  assert.equal(result, scoreOf(results, DEFAULT_CONFIG.weights));
  // the denominator: the default weights over the importances of docs/checks.md (175 for the 33 checks)
  const { weights } = DEFAULT_CONFIG;
  const total = SPEC_CHECKS.reduce((sum, [, importance]) => sum + weights[importance as Importance], 0);
  const passed = CHECK_NAMES.filter((n) => results[n].passed);
  const points = passed.reduce((sum, n) => sum + weights[results[n].importance], 0);
  assert.equal(result, Math.floor((100 * points) / total + 0.5));
});

test('runChecks: given artifacts are used as they are', () => {
  const snapshot = makeSnapshot({ html: '<title>From the snapshot</title>' });
  const artifacts = buildArtifacts('<title>From the artifacts</title>', snapshot.finalUrl);
  assert.equal(runChecks(snapshot, DEFAULT_CONFIG, artifacts).results.title.value, 'From the artifacts');
});
