// Runs the 33 checks over one snapshot and scores them.

import { buildArtifacts, type Artifacts } from './artifacts.js';
import { CHECKS } from './checks/index.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from './config.js';
import { scoreOf } from './score.js';
import type { AnalysisResult, CheckResults, PageSnapshot } from './types.js';

/** `artifacts` may be passed when the caller already built them (the fetcher does, for its probes). */
export function runChecks(
  snapshot: PageSnapshot,
  config: AnalysisConfig = DEFAULT_CONFIG,
  artifacts: Artifacts = buildArtifacts(snapshot.html, snapshot.finalUrl),
): AnalysisResult {
  const results = {} as CheckResults;
  for (const check of CHECKS) results[check.name] = check.run({ snapshot, artifacts, config });
  return { result: scoreOf(results, config.weights), results };
}
