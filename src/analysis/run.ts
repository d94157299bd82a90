// Runs the checks over one snapshot, fits their check objects into the report's size
// budget, and scores them (on the verdicts, which the cuts never change).

import { buildArtifacts, type Artifacts } from './artifacts/index.js';
import { CHECKS, type Check } from './checks/index.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from './config.js';
import { scoreOf } from './score.js';
import { fitResults } from './size-budget.js';
import type { PageSnapshot } from './types.js';
import type { AnalysisResult, CheckResults } from './results.js';

/**
 * `artifacts` may be passed when the caller already built them (the fetcher does, for its probes);
 * `checks` are the registry's unless a test brings its own (in report order: `inReportOrder`).
 */
export function runChecks(
  snapshot: PageSnapshot,
  config: AnalysisConfig = DEFAULT_CONFIG,
  artifacts: Artifacts = buildArtifacts(snapshot.html, snapshot.finalUrl),
  checks: readonly Check[] = CHECKS,
): AnalysisResult {
  // Keyed by the checks' names: the registry's are the CheckNames.
  const results = fitResults(checks.map((check) => check.measure({ snapshot, artifacts, config }))) as CheckResults;
  return { result: scoreOf(results, config.weights), results };
}
