// Engine settings: the original's settings table (checks.md §3), all overridable from the
// environment so an operator can tune limits without code changes.

export interface AnalysisConfig {
  limits: {
    minTitle: number;
    maxTitle: number;
    minWords: number;
    minTextRatio: number;
    maxLinks: number;
    loadTime: number;
    pageSize: number;
    httpRequests: number;
    maxDomNodes: number;
    imageFormats: string[];
    deprecatedTags: string[];
    inlineCssSample: number;
  };
  weights: { high: number; medium: number; low: number };
  /** good ≥ bands.good, decent ≥ bands.decent, otherwise bad. */
  bands: { good: number; decent: number };
  request: {
    userAgent: string;
    robotsToken: string;
    timeoutMs: number;
    maxRedirects: number;
    sideMaxRedirects: number;
    maxBodyBytes: number;
    /** Decoded ÷ wire size beyond which a body is refused, once past `ratioGuardAfterBytes` decoded. */
    maxCompressionRatio: number;
    ratioGuardAfterBytes: number;
    allowPrivateAddresses: boolean;
  };
}

export const DEFAULT_CONFIG: AnalysisConfig = Object.freeze({
  limits: {
    minTitle: 1,
    maxTitle: 60,
    minWords: 500,
    minTextRatio: 10,
    maxLinks: 150,
    loadTime: 2,
    pageSize: 330000,
    httpRequests: 50,
    maxDomNodes: 1500,
    imageFormats: ['AVIF', 'WebP'],
    deprecatedTags: [
      'acronym', 'applet', 'basefont', 'big', 'blink', 'center', 'dir', 'font', 'frame',
      'frameset', 'isindex', 'marquee', 'noframes', 's', 'strike', 'tt', 'u',
    ],
    inlineCssSample: 50,
  },
  weights: { high: 10, medium: 5, low: 0 },
  bands: { good: 90, decent: 50 },
  request: {
    userAgent: 'Mozilla/5.0 (compatible; RankscopeBot/1.0)',
    robotsToken: 'RankscopeBot',
    timeoutMs: 10_000,
    maxRedirects: 10,
    sideMaxRedirects: 5,
    maxBodyBytes: 5 * 1024 * 1024,
    maxCompressionRatio: 100,
    ratioGuardAfterBytes: 1024 * 1024,
    allowPrivateAddresses: false,
  },
}) as AnalysisConfig;

type Env = Record<string, string | undefined>;

function num(env: Env, name: string, fallback: number, { min = 0, integer = true } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${raw}"`);
  }
  return n;
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(/[\s,]+/).filter(Boolean);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** Reads the engine settings from environment variables (names in the README). */
export function analysisConfigFromEnv(env: Env = process.env): AnalysisConfig {
  const d = DEFAULT_CONFIG;
  const config: AnalysisConfig = {
    limits: {
      minTitle: num(env, 'REPORT_LIMIT_MIN_TITLE', d.limits.minTitle),
      maxTitle: num(env, 'REPORT_LIMIT_MAX_TITLE', d.limits.maxTitle),
      minWords: num(env, 'REPORT_LIMIT_MIN_WORDS', d.limits.minWords),
      minTextRatio: num(env, 'REPORT_LIMIT_MIN_TEXT_RATIO', d.limits.minTextRatio),
      maxLinks: num(env, 'REPORT_LIMIT_MAX_LINKS', d.limits.maxLinks),
      loadTime: num(env, 'REPORT_LIMIT_LOAD_TIME', d.limits.loadTime, { integer: false }),
      pageSize: num(env, 'REPORT_LIMIT_PAGE_SIZE', d.limits.pageSize),
      httpRequests: num(env, 'REPORT_LIMIT_HTTP_REQUESTS', d.limits.httpRequests),
      maxDomNodes: num(env, 'REPORT_LIMIT_MAX_DOM_NODES', d.limits.maxDomNodes),
      imageFormats: list(env, 'REPORT_LIMIT_IMAGE_FORMATS', d.limits.imageFormats),
      deprecatedTags: list(env, 'REPORT_LIMIT_DEPRECATED_HTML_TAGS', d.limits.deprecatedTags).map((t) =>
        t.toLowerCase(),
      ),
      inlineCssSample: num(env, 'REPORT_INLINE_CSS_SAMPLE', d.limits.inlineCssSample, { min: 1 }),
    },
    weights: {
      high: num(env, 'REPORT_SCORE_HIGH', d.weights.high, { integer: false }),
      medium: num(env, 'REPORT_SCORE_MEDIUM', d.weights.medium, { integer: false }),
      low: num(env, 'REPORT_SCORE_LOW', d.weights.low, { integer: false }),
    },
    bands: {
      good: num(env, 'REPORT_BAND_GOOD', d.bands.good),
      decent: num(env, 'REPORT_BAND_DECENT', d.bands.decent),
    },
    request: {
      userAgent: env.REQUEST_USER_AGENT?.trim() || d.request.userAgent,
      robotsToken: env.REQUEST_ROBOTS_TOKEN?.trim() || d.request.robotsToken,
      timeoutMs: Math.round(num(env, 'REQUEST_TIMEOUT', d.request.timeoutMs / 1000, { min: 1, integer: false }) * 1000),
      maxRedirects: num(env, 'REQUEST_MAX_REDIRECTS', d.request.maxRedirects),
      sideMaxRedirects: d.request.sideMaxRedirects,
      maxBodyBytes: num(env, 'REQUEST_MAX_BODY', d.request.maxBodyBytes, { min: 1024 }),
      maxCompressionRatio: d.request.maxCompressionRatio,
      ratioGuardAfterBytes: d.request.ratioGuardAfterBytes,
      allowPrivateAddresses: bool(env, 'ALLOW_PRIVATE_ADDRESSES', d.request.allowPrivateAddresses),
    },
  };
  if (config.bands.decent > config.bands.good) {
    throw new Error('REPORT_BAND_DECENT must not exceed REPORT_BAND_GOOD');
  }
  return config;
}
