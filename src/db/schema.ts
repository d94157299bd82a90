// The database's tables as Kysely sees them. Timestamps are stored as the API's own text form
// (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), which sorts correctly as text on both engines and keeps
// microseconds that PostgreSQL and SQLite would otherwise round differently.
import type { Generated } from 'kysely';
import type { Privacy } from '../sharing/privacy.js';

/** The two engines one schema and one migration list serve. */
export type DatabaseEngine = 'sqlite' | 'postgres';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** SHA-256 (hex) of the API key; the key itself is never stored. */
  api_key_hash: string;
  created_at: string;
  updated_at: string;
}

/** A yes/no setting, stored as 0 or 1 (the API's integer toggles). */
export type Toggle = 0 | 1;

export interface WebsitesTable {
  id: Generated<number>;
  user_id: number;
  domain: string;
  privacy: Privacy;
  /** argon2id hash of the share-page password, or null. */
  password_hash: string | null;
  email: Toggle | null;
  exclude_bots: Toggle;
  exclude_ips: string | null;
  exclude_params: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReportsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  project: string;
  result: number;
  /** The 33 check objects as one JSON text: a list of reports decodes once per row. */
  results: string;
  privacy: Privacy;
  password_hash: string | null;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AnalyticsSaltsTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** 32 random bytes, hex; deleted 48 h after its day began. */
  salt: string;
  created_at: string;
}

/** One stored event (a pageview or a custom event): no address, no full User-Agent. */
export interface AnalyticsEventsTable {
  id: Generated<number>;
  website_id: number;
  created_at: string;
  name: string;
  /** Path and remaining query, no fragment. */
  page: string;
  /** keyed hash of (the day's salt, website, address, User-Agent). */
  visitor: string;
  referrer: string | null;
  source: string | null;
  campaign: string | null;
  browser: string;
  os: string;
  device: string;
  country: string;
  continent: string;
  city: string | null;
  language: string | null;
  resolution: string | null;
  /** JSON object of the event's props, or null. */
  props: string | null;
}

export interface AnalyticsVisitorsTable {
  website_id: number;
  day: string;
  visitor: string;
  /** Milliseconds since the epoch of the visitor's last pageview. */
  last_seen: number;
  /** JSON: {dimension: [values the visitor was counted under today]}. */
  seen: string;
}

export interface AnalyticsRollupsTable {
  website_id: number;
  dimension: string;
  day: string;
  value: string;
  count: number;
}

export interface Database {
  users: UsersTable;
  websites: WebsitesTable;
  reports: ReportsTable;
  settings: SettingsTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_events: AnalyticsEventsTable;
  analytics_visitors: AnalyticsVisitorsTable;
  analytics_rollups: AnalyticsRollupsTable;
  jobs: JobsTable;
  report_history: ReportHistoryTable;
  monitors: MonitorsTable;
}

/** The embedded engine's job queue (times in ms since the epoch). */
export interface JobsTable {
  id: string;
  type: string;
  payload: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  attempts: number;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: Toggle;
  run_at: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * One analysis of a report (its creation and every re-run): the score and check counts, and
 * which checks passed, so a monitor's run can tell which checks changed since the one before.
 */
export interface ReportHistoryTable {
  id: Generated<number>;
  report_id: number;
  result: number;
  passed: number;
  failed: number;
  /** The names of the checks that passed, comma-separated in the report's order. */
  passed_checks: string;
  generated_at: string;
}

export type MonitorFrequency = 'daily' | 'weekly' | 'monthly';

/** A scheduled re-run of one report (src/monitors/). */
export interface MonitorsTable {
  id: Generated<number>;
  user_id: number;
  report_id: number;
  frequency: MonitorFrequency;
  /** Points the score must fall by for an alert, 1–100. */
  alert_drop: number;
  email: Toggle;
  last_run_at: string | null;
  /** When the scheduler queues its next run (always in the future once it has been queued). */
  next_run_at: string;
  last_result: number | null;
  created_at: string;
  updated_at: string;
}
