// The shapes of a report's results, keyed by the checks' names. Apart from types.ts because the
// names come from the registry (checks/index.ts), which imports the check modules, which import
// types.ts: the check modules never import this file.

import type { CheckName } from './checks/index.js';
import type { CheckResult } from './types.js';

/** A check's name, a key of `results`: one per check module (checks/index.ts, the registry). */
export type { CheckName };

export type CheckResults = Record<CheckName, CheckResult>;

export interface AnalysisResult {
  result: number;
  results: CheckResults;
}

/** What the CLI prints with --json and what the reports API stores. */
export interface AnalysedPage extends AnalysisResult {
  url: string;
  project: string;
  generated_at: string;
}
