import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { CHECKS } from '../../src/analysis/checks/index.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { runChecks } from '../../src/analysis/run.js';
import { scoreOf } from '../../src/analysis/score.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import { CHECK_NAMES } from '../../src/analysis/checks/index.js';
import { SPEC_IMPORTANCE as importance } from '../helpers/spec-importance.js';

test('the registry: 33 checks in the spec order with the spec importances', () => {
  assert.deepEqual(
    CHECKS.map((c) => c.name),
    [...CHECK_NAMES],
  );
  for (const c of CHECKS) assert.equal(c.importance, importance[c.name], c.name);
});

test('runChecks: results in order, scored with the configured weights', () => {
  const snapshot = makeSnapshot({ html: '<html lang="en"><head><title>A page</title></head><body><h1>Hi</h1></body></html>' });
  const { result, results } = runChecks(snapshot);
  assert.deepEqual(Object.keys(results), [...CHECK_NAMES]);
  assert.equal(result, scoreOf(results, DEFAULT_CONFIG.weights));
  // with the default weights the denominator is 7 × 10 + 21 × 5 … over the spec's importances: 175
  const passed = CHECK_NAMES.filter((n) => results[n].passed);
  const points = passed.reduce((sum, n) => sum + DEFAULT_CONFIG.weights[results[n].importance], 0);
  assert.equal(result, Math.floor((100 * points) / 175 + 0.5));
});

test('runChecks: given artifacts are used as they are', () => {
  const snapshot = makeSnapshot({ html: '<title>From the snapshot</title>' });
  const artifacts = buildArtifacts('<title>From the artifacts</title>', snapshot.finalUrl);
  assert.equal(runChecks(snapshot, DEFAULT_CONFIG, artifacts).results.title.value, 'From the artifacts');
});
