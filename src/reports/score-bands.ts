// The score range of a band word, for filtering lists by `result=good|decent|bad`.
import type { AnalysisConfig } from '../analysis/config.js';
import type { Band } from '../analysis/score.js';

/** Inclusive lower and exclusive upper bound on a report's `result`; null where open. */
export interface ScoreRange {
  min: number | null;
  below: number | null;
}

/** good ≥ bands.good; decent ≥ bands.decent and < bands.good; bad < bands.decent (as bandOf). */
export function scoreRange(band: Band, bands: AnalysisConfig['bands']): ScoreRange {
  if (band === 'good') return { min: bands.good, below: null };
  if (band === 'decent') return { min: bands.decent, below: bands.good };
  return { min: null, below: bands.decent };
}
