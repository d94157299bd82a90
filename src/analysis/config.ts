// Engine settings: the original's settings table (docs/checks.md §3). src/config.ts reads the
// environment variables that override them, so the engine itself never reads process.env.

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
    /**
     * Non-public addresses the fetch may reach: none (false), all (true), or the listed
     * addresses and CIDR ranges (`['127.0.0.2/32', '10.1.0.0/16']`).
     */
    allowPrivateAddresses: boolean | readonly string[];
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
      'acronym',
      'applet',
      'basefont',
      'big',
      'blink',
      'center',
      'dir',
      'font',
      'frame',
      'frameset',
      'isindex',
      'marquee',
      'noframes',
      's',
      'strike',
      'tt',
      'u',
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
