// Runs the 33 checks over one snapshot, fits their check objects into the report's size
// budget, and scores them (on the verdicts, which the cuts never change).

import { buildArtifacts, type Artifacts } from './artifacts/index.js';
import { CHECKS } from './checks/index.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from './config.js';
import { scoreOf } from './score.js';
import { fitResults } from './size-budget.js';
import type { AnalysisResult, PageSnapshot } from './types.js';

/** `artifacts` may be passed when the caller already built them (the fetcher does, for its probes). */
export function runChecks(
  snapshot: PageSnapshot,
  config: AnalysisConfig = DEFAULT_CONFIG,
  artifacts: Artifacts = buildArtifacts(snapshot.html, snapshot.finalUrl),
): AnalysisResult {
  const results = fitResults(CHECKS.map((check) => check.measure({ snapshot, artifacts, config })));
  return { result: scoreOf(results, config.weights), results };
}
