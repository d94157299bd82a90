// Runs one check over a snapshot literal, and compares results including key order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../../src/analysis/artifacts/index.js';
import { CHECKS } from '../../../src/analysis/checks/index.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../../../src/analysis/config.js';
import { makeSnapshot } from '../../../src/analysis/snapshot.js';
import type { CheckResult, PageSnapshot } from '../../../src/analysis/types.js';
import type { CheckName } from '../../../src/analysis/results.js';

export type SnapshotInput = Partial<PageSnapshot> & { html: string };

export function runCheck(name: CheckName, input: SnapshotInput | string, config: AnalysisConfig = DEFAULT_CONFIG): CheckResult {
  const snapshot = makeSnapshot(typeof input === 'string' ? { html: input } : input);
  const check = CHECKS.find((c) => c.name === name);
  if (!check) throw new Error(`no check ${name}`);
  return check.run({ snapshot, artifacts: buildArtifacts(snapshot.html, snapshot.finalUrl), config });
}

/** Deep equality, then the serialised form, so the order of keys (and of groups) is checked too. */
export function assertResult(actual: CheckResult, expected: CheckResult): void {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

/** A small complete page. */
export function page(head: string, body = ''): string {
  return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
}

export interface Case {
  name: string;
  input: SnapshotInput | string;
  expected: CheckResult;
  config?: AnalysisConfig;
}

/** One node:test per row. */
export function table(check: CheckName, cases: Case[]): void {
  for (const c of cases) {
    test(`${check}: ${c.name}`, () => assertResult(runCheck(check, c.input, c.config), c.expected));
  }
}

export function withLimits(limits: Partial<AnalysisConfig['limits']>): AnalysisConfig {
  return { ...DEFAULT_CONFIG, limits: { ...DEFAULT_CONFIG.limits, ...limits } };
}
