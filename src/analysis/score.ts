// The report's `result` and its band (docs/checks.md §1, docs/api.md "Reports").

import type { AnalysisConfig } from './config.js';
import type { CheckResults } from './results.js';

/** round(100 × Σ weights of passed ÷ Σ all weights), halves up; 0 when every weight is 0. */
export function scoreOf(results: CheckResults, weights: AnalysisConfig['weights']): number {
  let passed = 0;
  let total = 0;
  for (const check of Object.values(results)) {
    const weight = weights[check.importance];
    total += weight;
    if (check.passed) passed += weight;
  }
  if (total <= 0) return 0;
  const scaled = 100 * passed;
  const whole = Math.floor(scaled / total);
  // Compare the remainder instead of adding 0.5, so 87.5 never becomes 87.49999… .
  return 2 * (scaled - whole * total) >= total ? whole + 1 : whole;
}

export type Band = 'good' | 'decent' | 'bad';

export function bandOf(score: number, bands: AnalysisConfig['bands']): Band {
  if (score >= bands.good) return 'good';
  if (score >= bands.decent) return 'decent';
  return 'bad';
}
