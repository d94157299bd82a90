import type { Static } from '@sinclair/typebox';
import type { MonitorRow } from '../db/monitors-repository.js';
import type { ReportHistoryRow } from '../db/report-history-repository.js';
import type { HistoryItem, Monitor } from './schemas.js';

/** The API's Monitor: the row minus its owner. */
export function monitorResource(row: MonitorRow): Static<typeof Monitor> {
  return {
    id: row.id,
    report_id: row.report_id,
    frequency: row.frequency,
    alert_drop: row.alert_drop,
    email: row.email,
    render: row.render,
    last_run_at: row.last_run_at,
    next_run_at: row.next_run_at,
    last_result: row.last_result,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** One item of a report's history. */
export function historyItemResource(row: ReportHistoryRow): Static<typeof HistoryItem> {
  return { result: row.result, generated_at: row.generated_at, passed: row.passed, failed: row.failed };
}
