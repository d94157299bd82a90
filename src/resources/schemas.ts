// The public shapes of the resources (Report, Website, Crawl, Monitor, Webhook, …): what the API
// answers, what events and webhooks carry, what the OpenAPI document shows. Row → JSON lives beside
// them (report.ts, website.ts, …); request schemas (queries, bodies) are the API's (api/schemas).
import { Type } from '@sinclair/typebox';
import { CHECK_NAMES } from '../analysis/checks/index.js';
import { EVENT_NAMES } from '../model/events.js';
import { Envelope, IntegerEnum, Paginated, PrivacyLevel, StringEnum, Timestamp } from '../http/schemas.js';
import { FREQUENCIES } from '../model/schedule.js';

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

// ---- reports

export const CheckObject = Type.Object(
  {
    passed: Type.Boolean(),
    importance: StringEnum(['high', 'medium', 'low']),
    value: Type.Unknown({ description: 'null, string, number, array or object depending on the check' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Only on failure: one key naming the failure; a head check (title, meta_description, meta_viewport, charset, favicon) may add head_closed_by after it, naming the element ("<iframe>") or "#text" that closed the head early',
      }),
    ),
    omitted: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
        description:
          'Only when the report left items out: maps the JSON Pointer (RFC 6901) of each cut list or object within this check object ' +
          '(e.g. "/value/Internals", "/errors/missing") to the number of items or entries left out, so listed + omitted is the exact count',
      }),
    ),
  },
  { $id: 'CheckObject' },
);

export const Report = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'The analysed page (the final URL after redirects)' }),
    project: Type.String({ description: 'The host of the url without a leading www.' }),
    result: Type.Integer({ minimum: 0, maximum: 100, description: 'Overall score' }),
    results: Type.Object(Object.fromEntries(CHECK_NAMES.map((name) => [name, Type.Ref(CheckObject)]))),
    privacy: PrivacyLevel(),
    password: Type.Boolean({ description: 'Whether a share-page password is set' }),
    rendered: Type.Boolean({
      description: 'Whether the latest analysis ran the checks on the DOM Chromium built (render=1) rather than the raw HTML',
    }),
    generated_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Report' },
);

export const ReportShown = Envelope(Type.Ref(Report));
export const ReportCreated = Envelope(Type.Ref(Report), 201);
export const ReportPage = Paginated(Type.Ref(Report));

// ---- websites

export const Website = Type.Object(
  {
    id: Type.Integer(),
    domain: Type.String(),
    privacy: PrivacyLevel(),
    email: Type.Union([IntegerEnum([0, 1]), Type.Null()]),
    password: Type.Boolean({ description: 'Whether a share-page password is set' }),
    exclude_bots: IntegerEnum([0, 1]),
    exclude_ips: Type.Union([Type.String(), Type.Null()]),
    exclude_params: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Website' },
);

// ---- crawls

export const CRAWL_STATUSES = ['queued', 'running', 'finished', 'cancelled', 'failed'] as const;

/** The create body; `maxPages` is CRAWL_MAX_PAGES, so the document and the 422 both say the instance's limit. */
const Count = Type.Integer({ minimum: 0 });

export const Crawl = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'The start page' }),
    project: Type.String({ description: 'The host without www.: the project of the reports it creates' }),
    status: StringEnum(CRAWL_STATUSES),
    max_pages: Type.Integer({ minimum: 1 }),
    render: Type.Boolean({
      description:
        'Whether each HTML page is rendered in Chromium (render=1): its checks and links come from the rendered DOM, and the changed-by-JS issues compare it with the raw HTML',
    }),
    pages_found: { ...Count, description: 'URLs recorded (fetched or skipped): the rows of /pages' },
    pages_done: { ...Count, description: 'Fetched URLs that answered (any status)' },
    pages_failed: { ...Count, description: 'Fetched URLs that got no answer (timeout, refused, blocked)' },
    result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'The mean score of the analysed pages (null until one is done)',
    }),
    issues: { ...Count, description: 'Site-level issues found (counted when the crawl finishes)' },
    external_unchecked: {
      ...Count,
      description:
        'Links to other hosts, images and hreflang targets left unchecked (past CRAWL_MAX_EXTERNAL, or the time limit); 0 otherwise (counted when the crawl finishes)',
    },
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Crawl' },
);

export const CrawlPage = Type.Object(
  {
    url: Type.String(),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status it answered (no redirect followed)' }),
    depth: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Links from the start page (0); null for a URL only a sitemap lists',
    }),
    report_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The report of an analysed HTML page' }),
    result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
    in_sitemap: Type.Boolean(),
    indexable: Type.Boolean(),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it was not fetched, answered nothing, or is not a page',
    }),
  },
  { $id: 'CrawlPage' },
);

export const CrawlLink = Type.Object(
  {
    url: Type.String({ description: 'The URL as the pages name it' }),
    kind: StringEnum(['link', 'image', 'hreflang'], {
      description: 'link: an <a href> to another host; image: an <img src> (any host); hreflang: an alternate on another host',
    }),
    status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The first answer’s status (a 301 for a redirected link); null when nothing answered',
    }),
    final_url: Type.Union([Type.String(), Type.Null()], { description: 'Where the redirects end; null when nothing answered' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why nothing answered (timeout, refused, blocked…)' }),
    pages: { ...Count, description: 'Crawled pages referring to it' },
  },
  { $id: 'CrawlLink' },
);

export const CrawlIssue = Type.Object(
  {
    type: Type.String({ description: 'broken_link, redirect_chain, duplicate_title, … every type is in docs/audit-issues.md' }),
    severity: StringEnum(['high', 'medium', 'low']),
    url: Type.String({ description: 'The URL the issue is about' }),
    detail: Type.String({ description: 'The related pages' }),
  },
  { $id: 'CrawlIssue' },
);

export const CrawlIssueCount = Type.Object(
  {
    type: Type.String({ description: 'An issue type the crawl found' }),
    severity: StringEnum(['high', 'medium', 'low']),
    count: Type.Integer({ minimum: 1, description: 'How many issues of this type' }),
  },
  { $id: 'CrawlIssueCount' },
);

// ---- monitors

export const Monitor = Type.Object(
  {
    id: Type.Integer(),
    report_id: Type.Integer(),
    frequency: StringEnum(FREQUENCIES),
    alert_drop: Type.Integer({ minimum: 1, maximum: 100 }),
    email: IntegerEnum([0, 1]),
    render: IntegerEnum([0, 1], { description: 'Whether each run renders the page in Chromium (1) or reads the raw HTML (0)' }),
    last_run_at: { ...NullableTimestamp, description: 'When it last ran (null before its first run)' },
    next_run_at: { ...Timestamp, description: 'When its next scheduled run is due' },
    last_result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'The score of its last run (null before a run)',
    }),
    created_at: Timestamp,
    updated_at: { ...Timestamp, description: 'When its settings last changed' },
  },
  { $id: 'Monitor' },
);

export const HistoryItem = Type.Object(
  {
    result: Type.Integer({ minimum: 0, maximum: 100, description: 'The score of that analysis' }),
    generated_at: Timestamp,
    passed: Type.Integer({ minimum: 0, description: 'Checks passed' }),
    failed: Type.Integer({ minimum: 0, description: 'Checks failed' }),
  },
  { $id: 'HistoryItem' },
);

// ---- webhooks

export const EventName = StringEnum(EVENT_NAMES);

const webhookFields = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(EventName),
  active: IntegerEnum([0, 1]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { $id: 'Webhook' });

/** The create answer: the Webhook and, this once, its secret. */
export const WebhookCreated = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description: 'The HMAC-SHA256 key of X-Rankscope-Signature. Shown only in this response: store it now.',
  }),
});

export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    event: EventName,
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: "The receiver's last HTTP status; null when none answered",
    }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed; null once delivered' }),
    delivered_at: Type.Union([Timestamp, Type.Null()], { description: 'When a receiver answered 2xx; null until then' }),
    created_at: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
