// A report's history (one row per analysis) and monitors, its scheduled re-runs
// (src/monitors/). Reports stored before this migration get one history item each, from
// the analysis they hold, so every report's history starts with its first analysis.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0006_report_history_monitors';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('report_history')
        .addColumn('id', idType, id)
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('result', 'integer', (c) => c.notNull())
        .addColumn('passed', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('passed_checks', 'text', (c) => c.notNull())
        .addColumn('generated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('report_history_report').on('report_history').columns(['report_id', 'id']).execute();

      await db.schema
        .createTable('monitors')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('frequency', 'varchar(16)', (c) => c.notNull())
        .addColumn('alert_drop', 'integer', (c) => c.notNull())
        .addColumn('email', 'integer', (c) => c.notNull())
        .addColumn('last_run_at', 'varchar(32)')
        .addColumn('next_run_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_result', 'integer')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitors_user_id').on('monitors').columns(['user_id', 'id']).execute();
      // The scheduler's lookup; and deleting a report finds its monitors by report_id.
      await db.schema.createIndex('monitors_due').on('monitors').columns(['next_run_at', 'id']).execute();
      await db.schema.createIndex('monitors_report').on('monitors').column('report_id').execute();

      // Existing reports: one item each, in id order, a batch at a time (results are ~30 KB).
      for (let after = 0; ; ) {
        const batch: { id: number; result: number; results: string | Buffer; generated_at: string }[] = await db
          .selectFrom('reports')
          .select(['id', 'result', 'results', 'generated_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(200)
          .execute();
        if (batch.length === 0) break;
        await db
          .insertInto('report_history')
          .values(
            batch.map((r) => {
              const summary = summariseResults(String(r.results));
              return {
                report_id: r.id,
                result: r.result,
                passed: summary.passed,
                failed: summary.failed,
                passed_checks: summary.passedChecks.join(','),
                generated_at: r.generated_at,
              };
            }),
          )
          .execute();
        after = batch[batch.length - 1].id;
      }
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('monitors').execute();
      await db.schema.dropTable('report_history').execute();
    },
  };
}

/** Check names as the engine wrote them; anything else (a hand-edited row) is counted but not listed. */
const LISTABLE_NAME = /^[A-Za-z0-9_]{1,64}$/;

/**
 * A frozen copy of db/report-history-repository.ts `summariseResults` as it was when this
 * migration was written: a report's stored `results` counted as the share page does (a check
 * passed when its `passed` is true, and failed otherwise). Any JSON is accepted.
 */
function summariseResults(results: string): { passed: number; failed: number; passedChecks: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(results);
  } catch {
    return { passed: 0, failed: 0, passedChecks: [] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { passed: 0, failed: 0, passedChecks: [] };
  const passedChecks: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const [checkName, check] of Object.entries(parsed)) {
    if (typeof check === 'object' && check !== null && (check as { passed?: unknown }).passed === true) {
      passed++;
      if (LISTABLE_NAME.test(checkName)) passedChecks.push(checkName);
    } else {
      failed++;
    }
  }
  return { passed, failed, passedChecks };
}
