// A report's history: one row per analysis (its creation and every re-run, from the API, a
// monitor or a crawl). Rows are written by ReportsRepository in the same transaction as the
// report's own write (insertHistory below), so a report never shows results its history lacks.
import type { Kysely, Selectable } from 'kysely';
import type { Database, ReportHistoryTable } from './schema.js';

export type ReportHistoryRow = Selectable<ReportHistoryTable>;

/** What a history row records of one analysis's check objects. */
export interface ChecksSummary {
  passed: number;
  failed: number;
  /** Names of the passed checks, in the report's order. */
  passedChecks: string[];
}

/** Check names as the engine writes them; anything else (a hand-edited row) is counted but not listed. */
const LISTABLE_NAME = /^[A-Za-z0-9_]{1,64}$/;

/**
 * Counts a report's stored `results` (the JSON text of its check objects) as the share page does:
 * a check passed when its `passed` is true, and failed otherwise. Any JSON is accepted.
 */
export function summariseResults(results: string): ChecksSummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(results);
  } catch {
    return { passed: 0, failed: 0, passedChecks: [] };
  }
  return summariseChecks(parsed);
}

/** summariseResults() of the check objects before they were serialised (a crawl's page: no JSON read back). */
export function summariseChecks(parsed: unknown): ChecksSummary {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { passed: 0, failed: 0, passedChecks: [] };
  const passedChecks: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const [name, check] of Object.entries(parsed)) {
    if (typeof check === 'object' && check !== null && (check as { passed?: unknown }).passed === true) {
      passed++;
      if (LISTABLE_NAME.test(name)) passedChecks.push(name);
    } else {
      failed++;
    }
  }
  return { passed, failed, passedChecks };
}

/** The names a row lists as passed. */
export function passedChecksOf(row: Pick<ReportHistoryRow, 'passed_checks'>): Set<string> {
  return new Set(row.passed_checks === '' ? [] : row.passed_checks.split(','));
}

/** Adds the history row of one analysis; `db` is the transaction writing the report. */
export function insertHistory(
  db: Kysely<Database>,
  analysis: { report_id: number; result: number; results: string; generated_at: string },
): Promise<ReportHistoryRow> {
  const summary = summariseResults(analysis.results);
  return db
    .insertInto('report_history')
    .values({
      report_id: analysis.report_id,
      result: analysis.result,
      passed: summary.passed,
      failed: summary.failed,
      passed_checks: summary.passedChecks.join(','),
      generated_at: analysis.generated_at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export class ReportHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A page of a report's history, newest first (callers have checked the report is the account's). */
  async list(reportId: number, limit: number, offset: number): Promise<{ total: number; rows: ReportHistoryRow[] }> {
    const counted = await this.db
      .selectFrom('report_history')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('report_id', '=', reportId)
      .executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    const rows = await this.db
      .selectFrom('report_history')
      .selectAll()
      .where('report_id', '=', reportId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total, rows };
  }

  /** The item recorded just before `id` (the run a new one is compared with). */
  before(reportId: number, id: number): Promise<ReportHistoryRow | undefined> {
    return this.db
      .selectFrom('report_history')
      .selectAll()
      .where('report_id', '=', reportId)
      .where('id', '<', id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  find(reportId: number, id: number): Promise<ReportHistoryRow | undefined> {
    return this.db
      .selectFrom('report_history')
      .selectAll()
      .where('report_id', '=', reportId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The newest `limit` scores, oldest first (the share page's chart). */
  async recentScores(
    reportId: number,
    limit: number,
  ): Promise<Pick<ReportHistoryRow, 'result' | 'generated_at' | 'passed' | 'failed'>[]> {
    const rows = await this.db
      .selectFrom('report_history')
      .select(['id', 'result', 'generated_at', 'passed', 'failed'])
      .where('report_id', '=', reportId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map(({ id: _id, ...rest }) => rest);
  }
}
