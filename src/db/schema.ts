// The database's tables as Kysely sees them. Timestamps are stored as the API's own text form
// (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), which sorts correctly as text on both engines and keeps
// microseconds that PostgreSQL and SQLite would otherwise round differently.
import type { Generated } from 'kysely';
import type { EventFields } from '../model/dimensions.js';
import type { Privacy } from '../model/privacy.js';
import type { MonitorFrequency } from '../model/schedule.js';

/** The two engines one schema and one migration list serve. */
export type DatabaseEngine = 'sqlite' | 'postgres';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** SHA-256 (hex) of the API key; the key itself is never stored. */
  api_key_hash: string;
  /** argon2id hash of the dashboard password; null until one is set. */
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A dashboard session (the cookie holds the id; the table its SHA-256). */
export interface SessionsTable {
  id_hash: string;
  user_id: number;
  /** Every form of the session carries it. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
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
  /** When `email` last became 1 (null while it is not 1): digests cover periods from then on. */
  email_since: string | null;
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
  /** 1 when the latest analysis ran the checks on the DOM Chromium built (docs/rendering.md). */
  rendered: Generated<Toggle>;
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
/** Its other columns are the event's derived fields (model/dimensions.ts, EVENT_FIELDS). */
export interface AnalyticsEventsTable extends EventFields {
  id: Generated<number>;
  website_id: number;
  created_at: string;
  /** keyed hash of (the day's salt, website, address, User-Agent). */
  visitor: string;
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

/** Per website, UTC day and dimension: how many distinct values the rollups keep (at most ANALYTICS_MAX_VALUES). */
export interface AnalyticsValueCapsTable {
  website_id: number;
  day: string;
  dimension: string;
  kept: number;
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
  analytics_value_caps: AnalyticsValueCapsTable;
  jobs: JobsTable;
  mails: MailsTable;
  digests: DigestsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  report_history: ReportHistoryTable;
  monitors: MonitorsTable;
  crawls: CrawlsTable;
  crawl_pages: CrawlPagesTable;
  crawl_sitemap_urls: CrawlSitemapUrlsTable;
  crawl_issues: CrawlIssuesTable;
  crawl_links: CrawlLinksTable;
  sessions: SessionsTable;
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
  /** The account the job acts for (null: none); accounts take turns at a kind's slots. */
  account: number | null;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * A mail: `queued` until a job (or `rankscope mail`) takes it, `sending` while one does (until
 * `locked_until`), then `sent`, `failed` (every attempt failed) or `outbox` (no SMTP_URL).
 */
export type MailStatus = 'queued' | 'sending' | 'sent' | 'outbox' | 'failed';

export interface MailsTable {
  id: Generated<number>;
  /** Makes the mail unique (a digest's website and period); null for one-off mails. */
  key: string | null;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  status: MailStatus;
  /** SMTP attempts made. */
  attempts: number;
  /** 1 once its `mail.send` job is queued (0: a sweep queues it; see mail/mail-service.ts). */
  job_queued: Toggle;
  locked_until: string | null;
  last_error: string | null;
  /** What the SMTP server answered when it took the mail. */
  smtp_response: string | null;
  created_at: string;
  updated_at: string;
  /** When it was sent or kept in the outbox (what MAIL_PER_HOUR counts). */
  sent_at: string | null;
  /** The account it is for (null: none); at most MAIL_PER_HOUR of an account's mails go in any hour. */
  user_id: number | null;
}

/** A scheduled digest, recorded once its mail is queued (so each period gets one). */
export interface DigestsTable {
  website_id: number;
  /** daily, weekly or monthly (EMAIL_DIGEST when it was sent). */
  period: string;
  /** First UTC day of the period, YYYY-MM-DD. */
  period_start: string;
  created_at: string;
}

/** An account's webhook: where its events are POSTed. */
export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  /** The subscribed event names, comma-separated, in EVENT_NAMES order (src/model/events.ts). */
  events: string;
  active: Toggle;
  /**
   * The HMAC key of the signatures, as shown once on create. Stored as it is: it must be
   * usable to sign, and a key to encrypt it would live in this same database (docs/webhooks.md).
   */
  secret: string;
  created_at: string;
  updated_at: string;
}

/** One event for one webhook: the exact body sent (and re-sent on each retry) and its outcome. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  /** The JSON body, byte for byte what every attempt sends and signs. */
  payload: string;
  /** The delivery's unique id (X-Rankscope-Delivery), the same on every retry. */
  uuid: string;
  attempts: number;
  /** The receiver's last HTTP status, null when none answered. */
  status_code: number | null;
  /** Why the last attempt failed (null after a success). */
  error: string | null;
  delivered_at: string | null;
  created_at: string;
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

/** A scheduled re-run of one report (src/monitors/). */
export interface MonitorsTable {
  id: Generated<number>;
  user_id: number;
  report_id: number;
  frequency: MonitorFrequency;
  /** Points the score must fall by for an alert, 1–100. */
  alert_drop: number;
  email: Toggle;
  /** 1: each run renders the page in Chromium (docs/rendering.md). */
  render: Generated<Toggle>;
  last_run_at: string | null;
  /** When the scheduler queues its next run (always in the future once it has been queued). */
  next_run_at: string;
  last_result: number | null;
  created_at: string;
  updated_at: string;
}

export type CrawlStatus = 'queued' | 'running' | 'finished' | 'cancelled' | 'failed';

/** A site audit (src/crawl/). Counters move as pages complete; `origins` caches each origin's shared fetches (JSON). */
export interface CrawlsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  project: string;
  status: CrawlStatus;
  max_pages: number;
  sitemap: Toggle;
  /** Page workers (slots) of the crawl: CRAWL_CONCURRENCY, or 1 under a Crawl-delay. */
  slots: number;
  /** robots.txt's Crawl-delay (capped), in ms; 0 without one. */
  delay_ms: number;
  pages_found: number;
  pages_done: number;
  pages_failed: number;
  /** Sum and count of the pages' scores (result = the mean). */
  score_sum: number;
  scored: number;
  issues: number;
  sitemap_found: Toggle;
  /** Sitemap URLs read past the crawl's cap (10 × max_pages, at least 1,000): counted, not kept. */
  sitemap_urls_unkept: number;
  /** 1 once its start has queued the page workers (a start job finding 0 on a running crawl takes it over). */
  workers_queued: Toggle;
  origins: string;
  error: string | null;
  /** 1: check links to other hosts, images and hreflang targets (crawl_links); 0: no such request. */
  external: Generated<Toggle>;
  /** Distinct URLs whose check has begun, held to CRAWL_MAX_EXTERNAL. */
  external_checks: Generated<number>;
  /** Distinct URLs left unchecked when the crawl finished (CRAWL_MAX_EXTERNAL, or its time limit). */
  external_unchecked: Generated<number>;
  /** 1: each HTML page is rendered in Chromium, its links found in the DOM (docs/rendering.md). */
  render: Generated<Toggle>;
  /** When CRAWL_TIME_LIMIT stops it (ms since the epoch); null until it starts. */
  deadline_ms: number | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export type CrawlPageState = 'queued' | 'fetching' | 'done' | 'failed' | 'skipped';

export interface CrawlPagesTable {
  id: Generated<number>;
  crawl_id: number;
  url: string;
  state: CrawlPageState;
  /** Frontier order: the depth, or a large number for sitemap URLs no crawled page links to (yet). */
  priority: number;
  depth: number | null;
  /** A fetching page's lease (ms since the epoch): past it, another worker may take the page again. */
  lease_ms: number | null;
  status_code: number | null;
  redirect_to: string | null;
  report_id: number | null;
  result: number | null;
  in_sitemap: Toggle;
  indexable: Toggle;
  robots_disallowed: Toggle;
  html: Toggle;
  noindex: Toggle;
  mixed_content: Toggle;
  title: string | null;
  description: string | null;
  canonical: string | null;
  /** Crawled pages linking here, and the first few of them (JSON array of URLs). */
  inlinks: number;
  linked_from: string;
  error: string | null;
  /** What the issue catalogue needs of an analysed page (JSON, bounded: src/analysis/crawl-facts.ts). */
  facts: string | null;
  /** Milliseconds from the request to the response's headers; null without an answer. */
  response_ms: number | null;
  /** The visible text, deflated (raw DEFLATE), of pages of 100+ words: near-duplicate confirmation. */
  page_text: Uint8Array | null;
}

export interface CrawlSitemapUrlsTable {
  crawl_id: number;
  url: string;
}

export type CrawlLinkKind = 'link' | 'image' | 'hreflang';
export type CrawlLinkState = 'queued' | 'checking' | 'done';

/**
 * A link to another host, an image (any host) or an hreflang target on another host that a
 * crawled page refers to (docs/external-links.md): one row per URL and kind; a URL is checked
 * once, whatever its kinds, and its result written to each of its rows.
 */
export interface CrawlLinksTable {
  id: Generated<number>;
  crawl_id: number;
  url: string;
  kind: CrawlLinkKind;
  /** The URL's hostname: at most 2 checks at once per host. */
  host: string;
  state: CrawlLinkState;
  /** A check's lease (ms since the epoch): past it, another worker may take the URL again. */
  lease_ms: number | null;
  /** The first answer's status (a 301 for a redirected link); null: nothing answered (or not checked). */
  status_code: number | null;
  /** The status where the redirects end. */
  final_status: number | null;
  final_url: string | null;
  error: string | null;
  /** Content-Length of the final answer, else the bytes read. */
  bytes: number | null;
  /** Crawled pages referring to it, and the first few of them (JSON array of URLs). */
  pages: number;
  linked_from: string;
}

export interface CrawlIssuesTable {
  id: Generated<number>;
  crawl_id: number;
  type: string;
  severity: string;
  url: string;
  detail: string;
}
