// Where the engine's CPU work runs: parsing a page into artifacts and running the checks.
// In-process for the CLI, the benchmarks and tests; in worker threads for the server
// (engine-pool.ts), so a hostile page or robots.txt never stalls the event loop that serves
// every other request. Parsing and checking are two steps because the fetcher needs one
// answer from the parsed page (does it declare an icon?) before the last side fetch.
import { buildArtifacts, type Artifacts } from './artifacts/index.js';
import type { AnalysisConfig } from './config.js';
import { pageOutline, type PageOutline } from './outline.js';
import { declaredIconUrl } from './probes.js';
import { runChecks } from './run.js';
import type { PageSnapshot } from './types.js';
import type { AnalysisResult } from './results.js';

/** A parsed page, waiting for its snapshot to be complete. */
export interface ParsedPage {
  /** The first declared icon link, resolved (decides the /favicon.ico probe). */
  declaredIcon: string | null;
  /** Its links and canonical (what a site crawl follows and compares), when parse was asked for them. */
  outline: PageOutline | null;
  /** Runs the checks; `snapshot.html` is the page that was parsed. */
  check(snapshot: PageSnapshot, config: AnalysisConfig): Promise<AnalysisResult>;
  /** Frees the parsed page without checking it (the analysis failed or was cancelled). */
  discard(): void;
}

export interface Engine {
  /** `account`: whose page it is, so a shared engine can take turns between accounts. */
  /** `withOutline`: also gather the page's outline (a crawl's page; a single report needs none). */
  parse(html: string, finalUrl: string, account?: string | number, withOutline?: boolean): Promise<ParsedPage>;
}

/** Runs in the calling thread. */
export const inProcessEngine: Engine = {
  async parse(html, finalUrl, _account, withOutline = false) {
    let artifacts: Artifacts | null = buildArtifacts(html, finalUrl);
    return {
      declaredIcon: declaredIconUrl(artifacts),
      outline: withOutline ? pageOutline(artifacts) : null,
      async check(snapshot, config) {
        if (artifacts === null) throw new Error('the parsed page was discarded');
        const result = runChecks(snapshot, config, artifacts);
        artifacts = null;
        return result;
      },
      discard() {
        artifacts = null;
      },
    };
  },
};
