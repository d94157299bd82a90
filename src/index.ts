// Rankscope's engine as a library: the same analysis the CLI and the API run.
//
//   import { analyze, analyzeHtml, checks } from 'rankscope';
//   const page = await analyze('https://example.com/');          // fetches, like `rankscope analyze`
//   const local = analyzeHtml(html, { url: 'https://example.com/', headers: { 'content-encoding': 'br' } });
//   for (const check of checks) console.log(check.name, check.importance, local.results[check.name].passed);
//
// Nothing here opens a server or a database.
import { analyzeUrl, normalizeTargetUrl, projectOf, type AnalyzeOptions } from './analysis/analyze.js';
import { buildArtifacts } from './analysis/artifacts/index.js';
import { CHECKS } from './analysis/checks/index.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from './analysis/config.js';
import { runChecks } from './analysis/run.js';
import { makeSnapshot } from './analysis/snapshot.js';
import type { AnalysedPage, CheckName } from './analysis/results.js';
import type { HeaderMap, PageSnapshot } from './analysis/types.js';
import { nowTimestamp, type Clock } from './time.js';

export { DEFAULT_CONFIG, type AnalysisConfig } from './analysis/config.js';
export { FetchError } from './analysis/errors.js';
export { describeCheck } from './analysis/checks/stored.js';
export type { AnalysedPage, AnalysisResult, CheckName, CheckResults } from './analysis/results.js';
export type { CheckResult, FetchFailureReason, Importance } from './analysis/types.js';
export { CHECK_NAMES } from './analysis/checks/index.js';

export type { AnalyzeOptions, PageRenderer } from './analysis/analyze.js';
export { EnginePool } from './analysis/engine-pool.js';

/**
 * Fetches the page (following redirects, with its robots.txt, a 404 probe and the favicon and
 * sitemap probes) and runs the checks. Private and loopback addresses are refused unless
 * `config.request.allowPrivateAddresses`. Rejects with FetchError when the page cannot be
 * analysed, or with the reason of an aborted `signal`. Options: `config`, `signal`, `clock`,
 * `engine` (an EnginePool runs parsing and checks in worker threads), `resolver` (DNS).
 */
export function analyze(url: string | URL, options: AnalyzeOptions = {}): Promise<AnalysedPage> {
  return analyzeUrl(url, options);
}

export interface AnalyzeHtmlOptions {
  /** The page's address: links resolve against it and the URL checks read it. */
  url: string;
  /** The response's headers (compression, server signature, charset, X-Robots-Tag). */
  headers?: Record<string, string | string[]>;
  /** Body bytes on the wire (page_size, text_compression); the HTML's UTF-8 length by default. */
  wireBytes?: number;
  /** Seconds the page took to load (load_time); 0 by default. */
  loadTime?: number;
  /**
   * What the side fetches would have found, when you know it: by default robots.txt is absent
   * (everything allowed), the 404 probe gets a 404, and there is no /favicon.ico or sitemap.
   */
  robotsTxt?: string | null;
  config?: AnalysisConfig;
  clock?: Clock;
}

/** Runs the checks on a page already in hand: no network at all. */
export function analyzeHtml(html: string, options: AnalyzeHtmlOptions): AnalysedPage {
  const config = options.config ?? DEFAULT_CONFIG;
  const finalUrl = normalizeTargetUrl(options.url).href;
  const headers: HeaderMap = { 'content-type': ['text/html; charset=utf-8'] };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = [value].flat();
  const origin = new URL(finalUrl).origin;
  const snapshot: PageSnapshot = makeSnapshot({
    html,
    finalUrl,
    headers,
    loadTime: options.loadTime ?? 0,
    ...(options.wireBytes === undefined ? {} : { wireBytes: options.wireBytes }),
    ...(typeof options.robotsTxt === 'string'
      ? { robots: { url: `${origin}/robots.txt`, status: 200, body: options.robotsTxt } }
      : {}),
  });
  const { result, results } = runChecks(snapshot, config, buildArtifacts(html, finalUrl));
  return { url: finalUrl, project: projectOf(finalUrl), result, results, generated_at: nowTimestamp(options.clock) };
}

/** One check's description, for a program that lists or explains them. */
export interface CheckInfo {
  name: CheckName;
  importance: 'high' | 'medium' | 'low';
  title: string;
  why: string;
  fix: string;
}

/** The checks, in the order of every `results` object. */
export const checks: readonly CheckInfo[] = CHECKS.map(({ name, importance, title, why, fix }) => ({
  name,
  importance,
  title,
  why,
  fix,
}));
