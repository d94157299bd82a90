// Every setting the service reads from the environment (the README and docs/configuration.md list them all), validated
// in one pass before anything else happens: a bad value stops the start with a message naming
// the variable, and every bad value is reported at once.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DEFAULT_CONFIG, type AnalysisConfig } from './analysis/config.js';
import { parsePrivateAddressAllowance } from './analysis/fetch/address-guard.js';
import { MIN_JOB_CONCURRENCY, splitSlots, type JobSlots } from './model/job-kinds.js';

export interface AppConfig {
  host: string;
  port: number;
  databaseUrl: string;
  databasePoolSize: number;
  /**
   * How many proxies in front of the service to trust (0 = none): the client address is then
   * the Nth entry from the right of X-Forwarded-For (docs/configuration.md#server).
   */
  trustProxy: number;
  logLevel: LogLevel;
  rateLimitPerMinute: number;
  /** Requests a minute one client address (an IPv6 one by its /64) may make to the public pages: share pages, /login (0: no limit). */
  publicRateLimitPerMinute: number;
  /** Monitors one account may have (a create past it: 422 on report_id). */
  maxMonitors: number;
  redisUrl: string | null;
  /** Concurrent analyses per instance, and how long a create may wait for a slot. */
  analysisConcurrency: number;
  /** Analyses one account may run at once, so the other slots stay free for other accounts. */
  analysisConcurrencyPerAccount: number;
  /** Worker threads that parse pages and run checks (0: in the server's own thread). */
  analysisWorkers: number;
  analysisQueueTimeoutMs: number;
  /** Largest accepted request body, bytes. */
  bodyLimit: number;
  /** E-mail of the account created on first start of an empty database. */
  adminEmail: string;
  analysis: AnalysisConfig;
  analytics: AnalyticsSettings;
  /** The base of every absolute link in mails, snippets and webhooks (no trailing slash). */
  appUrl: string;
  jobs: JobSettings;
  mail: MailSettings;
  crawl: CrawlSettings;
  render: RenderSettings;
  version: string;
}

export interface RenderSettings {
  /** Chromium's executable (Debian's package by default; the project never downloads one). */
  chromiumPath: string;
  /** Pages rendered at once by the instance's one browser. */
  concurrency: number;
  /** Seconds a page gets for the load event and network idle. */
  timeoutSeconds: number;
}

export interface CrawlSettings {
  /** Requests at once to a crawled host (every request: pages, robots.txt, sitemaps, probes). */
  concurrency: number;
  /** The largest max_pages a crawl may ask for (and its default's ceiling). */
  maxPages: number;
  /** A crawl stops (finished, with what it has) this many seconds after it started. */
  timeLimitSeconds: number;
  /** Crawls one account may have running at once; more wait as `queued`, oldest first. */
  maxRunningPerAccount: number;
  /** Link, image and hreflang checks a crawl makes at most (docs/external-links.md); the rest are counted. */
  maxExternal: number;
}

export interface JobSettings {
  /** A job taken by a process that died runs again after this many seconds. */
  leaseSeconds: number;
  /** Jobs one instance runs at once, all kinds together. */
  concurrency: number;
  /** `concurrency` split between the kinds of job (model/job-kinds.ts): each kind's slots. */
  slots: JobSlots;
}

export const DIGEST_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];

export interface MailSettings {
  /** smtp:// or smtps:// URL; null keeps every mail in the outbox instead. */
  smtpUrl: string | null;
  from: string;
  digest: DigestPeriod;
  /** Mails to one account in any hour; past it they wait in the queue. */
  perHour: number;
}

/** Megabytes of closed days' stats totals kept in memory by default (STATS_CACHE_MB). */
export const DEFAULT_STATS_CACHE_MB = 64;

export interface AnalyticsSettings {
  /** Megabytes of closed days' totals the stats keep in memory (0: none kept). */
  statsCacheMb: number;
  /** Days raw events are kept (null: forever); rollups, and so the stats, stay. */
  retentionDays: number | null;
  /** An MMDB city database for the `city` stats (null: no city). */
  cityDatabase: string | null;
  /** Events per second one client address (an IPv6 client: its /64) may send to /api/event (0: no limit). */
  eventsPerSecond: number;
  /** Events per second /api/event accepts for one website (0: no limit). */
  eventsPerWebsite: number;
  /** Distinct values each dimension keeps per website and UTC day; later ones count under `(other)`. */
  maxValues: number;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every request body the API documents fits in this many bytes, however it is encoded (its
 * longest fields at their maximum length, every character percent-encoded from 4 UTF-8 bytes),
 * so a valid request never meets a 413.
 */
export const MIN_BODY_LIMIT = 256 * 1024;

export type Env = Record<string, string | undefined>;

/** Thrown with every problem found, one line each, each naming its variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `invalid settings:\n  ${problems.join('\n  ')}`);
  }
}

/** Reads variables, recording a problem (and returning the default) instead of throwing. */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  private problem<T>(name: string, expected: string, fallback: T): T {
    this.problems.push(`${name} must be ${expected}, got "${withoutCredentials(this.env[name] ?? '')}"`);
    return fallback;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | null {
    return this.raw(name) ?? null;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) return this.problem(name, `an integer from ${min} to ${max}`, fallback);
    return n;
  }

  number(name: string, fallback: number, min = 0): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) return this.problem(name, `a number ≥ ${min}`, fallback);
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    return this.problem(name, 'true or false', fallback);
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    return (values as readonly string[]).includes(raw) ? (raw as T) : this.problem(name, `one of ${values.join(', ')}`, fallback);
  }

  list(name: string, fallback: string[]): string[] {
    const raw = this.raw(name);
    return raw === undefined ? fallback : raw.split(/[\s,]+/).filter(Boolean);
  }

  /** A value `parse` turns into T, or throws with what was expected. */
  custom<T>(name: string, fallback: T, parse: (raw: string) => T): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    try {
      return parse(raw);
    } catch (error) {
      return this.problem(name, (error as Error).message, fallback);
    }
  }

  /** Adds a problem that involves several variables. */
  add(message: string): void {
    this.problems.push(message);
  }

  /** Throws a ConfigError naming every problem found so far. */
  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}

/** A value as it may be echoed: whatever stands between `//` and `@` (user:password) is masked. */
function withoutCredentials(value: string): string {
  return value.replace(/\/\/[^/]*@/, '//***@');
}

/** From the package.json above this module: src/ and dist/ sit one level down, dist/bundle/ two. */
export const VERSION: string = (() => {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'rankscope') return pkg.version;
    } catch {
      // not there: try the next level up
    }
  }
  return '0.0.0';
})();

/** `sqlite:<file>` or `postgres://…`; the password is never echoed back in a message. */
function databaseUrl(raw: string): string {
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new Error('a valid postgres:// URL');
    }
    return raw;
  }
  if (/^sqlite:.+/i.test(raw)) return raw;
  throw new Error('sqlite:<file> or postgres://user:pass@host:port/database');
}

/**
 * TRUST_PROXY: a hop count. `true` means one proxy; a bare number N trusts N proxies. (Passing
 * the string on to Fastify would be read as an address list, and `true` there trusts every hop.)
 */
function proxyHops(raw: string): number {
  const v = raw.toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(v)) return 0;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  throw new Error('false, true (one proxy) or the number of proxies in front of the service (0–99)');
}

function jobSettings(r: EnvReader): JobSettings {
  const concurrency = r.int('JOB_CONCURRENCY', 8, MIN_JOB_CONCURRENCY, 100);
  return {
    // Longer than any single analysis (REQUEST_TIMEOUT and the engine's deadline are far shorter).
    leaseSeconds: r.int('JOB_LEASE_SECONDS', 60, 5, 86_400),
    concurrency,
    slots: splitSlots(concurrency),
  };
}

function analysisSettings(r: EnvReader): AnalysisConfig {
  const d = DEFAULT_CONFIG;
  const config: AnalysisConfig = {
    limits: {
      minTitle: r.int('REPORT_LIMIT_MIN_TITLE', d.limits.minTitle),
      maxTitle: r.int('REPORT_LIMIT_MAX_TITLE', d.limits.maxTitle),
      minWords: r.int('REPORT_LIMIT_MIN_WORDS', d.limits.minWords),
      minTextRatio: r.int('REPORT_LIMIT_MIN_TEXT_RATIO', d.limits.minTextRatio),
      maxLinks: r.int('REPORT_LIMIT_MAX_LINKS', d.limits.maxLinks),
      loadTime: r.number('REPORT_LIMIT_LOAD_TIME', d.limits.loadTime),
      pageSize: r.int('REPORT_LIMIT_PAGE_SIZE', d.limits.pageSize),
      httpRequests: r.int('REPORT_LIMIT_HTTP_REQUESTS', d.limits.httpRequests),
      maxDomNodes: r.int('REPORT_LIMIT_MAX_DOM_NODES', d.limits.maxDomNodes),
      imageFormats: r.list('REPORT_LIMIT_IMAGE_FORMATS', d.limits.imageFormats),
      deprecatedTags: r.list('REPORT_LIMIT_DEPRECATED_HTML_TAGS', d.limits.deprecatedTags).map((t) => t.toLowerCase()),
      inlineCssSample: r.int('REPORT_INLINE_CSS_SAMPLE', d.limits.inlineCssSample, 1),
    },
    weights: {
      high: r.number('REPORT_SCORE_HIGH', d.weights.high),
      medium: r.number('REPORT_SCORE_MEDIUM', d.weights.medium),
      low: r.number('REPORT_SCORE_LOW', d.weights.low),
    },
    bands: {
      good: r.int('REPORT_BAND_GOOD', d.bands.good, 0, 100),
      decent: r.int('REPORT_BAND_DECENT', d.bands.decent, 0, 100),
    },
    request: {
      userAgent: r.string('REQUEST_USER_AGENT', d.request.userAgent),
      robotsToken: r.string('REQUEST_ROBOTS_TOKEN', d.request.robotsToken),
      timeoutMs: Math.round(r.number('REQUEST_TIMEOUT', d.request.timeoutMs / 1000, 1) * 1000),
      maxRedirects: r.int('REQUEST_MAX_REDIRECTS', d.request.maxRedirects, 0, 100),
      sideMaxRedirects: d.request.sideMaxRedirects,
      maxBodyBytes: r.int('REQUEST_MAX_BODY', d.request.maxBodyBytes, 1024),
      maxCompressionRatio: d.request.maxCompressionRatio,
      ratioGuardAfterBytes: d.request.ratioGuardAfterBytes,
      allowPrivateAddresses: r.custom('ALLOW_PRIVATE_ADDRESSES', d.request.allowPrivateAddresses, parsePrivateAddressAllowance),
    },
  };
  if (config.bands.decent > config.bands.good) r.add('REPORT_BAND_DECENT must not exceed REPORT_BAND_GOOD');
  if (config.limits.minTitle > config.limits.maxTitle) r.add('REPORT_LIMIT_MIN_TITLE must not exceed REPORT_LIMIT_MAX_TITLE');
  return config;
}

/** The service's settings; throws a ConfigError naming every invalid variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const r = new EnvReader(env);
  const analysisConcurrency = r.int('ANALYSIS_CONCURRENCY', 8, 1, 1000);
  const config: AppConfig = {
    host: r.string('HOST', '127.0.0.1'),
    port: r.int('PORT', 8080, 0, 65535),
    databaseUrl: r.custom('DATABASE_URL', 'sqlite:data/rankscope.db', databaseUrl),
    databasePoolSize: r.int('DATABASE_POOL_SIZE', 10, 1, 1000),
    trustProxy: r.custom('TRUST_PROXY', 0, proxyHops),
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    rateLimitPerMinute: r.int('RATE_LIMIT_PER_MINUTE', 60),
    publicRateLimitPerMinute: r.int('PUBLIC_RATE_LIMIT_PER_MINUTE', 120),
    maxMonitors: r.int('MAX_MONITORS', 100, 1, 1_000_000),
    redisUrl: r.custom('REDIS_URL', null, (raw) => {
      if (!/^rediss?:\/\/[^\s]+$/i.test(raw)) throw new Error('a redis:// or rediss:// URL');
      return raw;
    }),
    analysisConcurrency,
    analysisConcurrencyPerAccount: r.int(
      'ANALYSIS_CONCURRENCY_PER_ACCOUNT',
      Math.max(1, analysisConcurrency - 2),
      1,
      analysisConcurrency,
    ),
    // One core stays with the event loop (requests, fetching, the database).
    analysisWorkers: r.int('ANALYSIS_WORKERS', Math.max(1, Math.min(availableParallelism() - 1, analysisConcurrency)), 0, 64),
    analysisQueueTimeoutMs: r.int('ANALYSIS_QUEUE_TIMEOUT', 30, 0, 3600) * 1000,
    bodyLimit: r.int('BODY_LIMIT', MIN_BODY_LIMIT, MIN_BODY_LIMIT, 100 * 1024 * 1024),
    adminEmail: r.custom('ADMIN_EMAIL', 'admin@localhost', (raw) => {
      if (!/^[^\s@]+@[^\s@]+$/.test(raw) || raw.length > 255) throw new Error('an e-mail address');
      return raw.toLowerCase();
    }),
    analysis: analysisSettings(r),
    analytics: {
      statsCacheMb: r.int('STATS_CACHE_MB', DEFAULT_STATS_CACHE_MB, 0, 1_048_576),
      retentionDays: r.custom('ANALYTICS_RETENTION_DAYS', null, (raw) => {
        if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 36_500) throw new Error('a number of days from 1 to 36500');
        return Number(raw);
      }),
      cityDatabase: r.custom('GEOIP_CITY_DB', null, (raw) => {
        if (!existsSync(raw)) throw new Error('the path of a readable MMDB city database');
        return raw;
      }),
      eventsPerSecond: r.int('EVENT_RATE_LIMIT', 200, 0),
      eventsPerWebsite: r.int('EVENT_WEBSITE_LIMIT', 1000, 0),
      maxValues: r.int('ANALYTICS_MAX_VALUES', 10_000, 1, 10_000_000),
    },
    appUrl: '',
    jobs: jobSettings(r),
    mail: {
      smtpUrl: r.custom('SMTP_URL', null, (raw) => {
        if (!/^smtps?:\/\/[^\s/]+/i.test(raw)) throw new Error('an smtp:// or smtps:// URL');
        return raw;
      }),
      from: r.custom('MAIL_FROM', 'Rankscope <rankscope@localhost>', (raw) => {
        if (!/@/.test(raw) || /[\r\n]/.test(raw)) throw new Error('an e-mail address, optionally with a name');
        return raw;
      }),
      digest: r.oneOf('EMAIL_DIGEST', DIGEST_PERIODS, 'weekly'),
      perHour: r.int('MAIL_PER_HOUR', 30, 1, 100_000),
    },
    crawl: {
      concurrency: r.int('CRAWL_CONCURRENCY', 2, 1, 32),
      maxPages: r.int('CRAWL_MAX_PAGES', 1000, 1, 1_000_000),
      timeLimitSeconds: r.int('CRAWL_TIME_LIMIT', 3600, 10, 604_800),
      maxRunningPerAccount: r.int('MAX_RUNNING_CRAWLS', 2, 1, 1000),
      maxExternal: r.int('CRAWL_MAX_EXTERNAL', 1000, 0, 1_000_000),
    },
    render: renderSettings(r),
    version: VERSION,
  };
  config.appUrl = r.custom('APP_URL', defaultAppUrl(config.host, config.port), (raw) => {
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error('an http(s) URL');
    return url.toString().replace(/\/+$/, '');
  });
  r.done();
  return config;
}

function defaultAppUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function renderSettings(r: EnvReader): RenderSettings {
  return {
    chromiumPath: r.string('CHROMIUM_PATH', '/usr/bin/chromium'),
    concurrency: r.int('RENDER_CONCURRENCY', 2, 1, 64),
    timeoutSeconds: r.int('RENDER_TIMEOUT', 15, 1, 300),
  };
}

/** The browser's settings alone (`rankscope analyze --render`). */
export function loadRenderSettings(env: Env = process.env): RenderSettings {
  const r = new EnvReader(env);
  const settings = renderSettings(r);
  r.done();
  return settings;
}

/** The engine's settings alone (`rankscope analyze` needs no server or database settings). */
export function loadAnalysisConfig(env: Env = process.env): AnalysisConfig {
  const r = new EnvReader(env);
  const config = analysisSettings(r);
  r.done();
  return config;
}
