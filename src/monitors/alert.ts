// Comparing a monitor's run with the history item before it: which checks changed, how far the
// score moved, and whether that deserves an alert (docs/monitors-and-mail.md: the score fell
// by at least the monitor's alert_drop, or a high-importance check went from passed to failed).

import { findCheck } from '../analysis/checks/index.js';
import { checkLabel } from '../analysis/checks/stored.js';
import type { Importance } from '../analysis/types.js';

export interface CheckChange {
  /** The check's name (its key in `results`). */
  id: string;
  importance: Importance;
  passed_before: boolean;
  passed: boolean;
}

export interface RunComparison {
  before: number;
  after: number;
  changes: CheckChange[];
  /** The score fell by alert_drop points or more. */
  scoreDropped: boolean;
  /** High-importance checks that went from passed to failed. */
  highRegressions: string[];
  alert: boolean;
}

const IMPORTANCES: readonly string[] = ['high', 'medium', 'low'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `results` are the new run's check objects (importance is read from each, as stored); the run
 * before is known by its score and the names of the checks it passed. A check the run before did
 * not list as passed counts as failed then.
 */
export function compareRuns(
  previous: { result: number; passedChecks: ReadonlySet<string> },
  current: { result: number; results: unknown },
  alertDrop: number,
): RunComparison {
  const changes: CheckChange[] = [];
  if (isRecord(current.results)) {
    for (const [id, check] of Object.entries(current.results)) {
      const passed = isRecord(check) && check.passed === true;
      const passedBefore = previous.passedChecks.has(id);
      if (passed === passedBefore) continue;
      const stored = isRecord(check) ? check.importance : undefined;
      const importance = (
        typeof stored === 'string' && IMPORTANCES.includes(stored) ? stored : (findCheck(id)?.importance ?? 'low')
      ) as Importance;
      changes.push({ id, importance, passed_before: passedBefore, passed });
    }
  }
  const scoreDropped = previous.result - current.result >= alertDrop;
  const highRegressions = changes.filter((c) => c.importance === 'high' && c.passed_before && !c.passed).map((c) => c.id);
  return {
    before: previous.result,
    after: current.result,
    changes,
    scoreDropped,
    highRegressions,
    alert: scoreDropped || highRegressions.length > 0,
  };
}

/** A check's title for people (names this version does not know are spelled out). */
export const checkTitle = (id: string): string => checkLabel(id);

/** How to fix a check, from its definition; null for a name this version does not know. */
export const checkFix = (id: string): string | null => findCheck(id)?.fix ?? null;
