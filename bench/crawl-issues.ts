// bench/crawl's issue-pass measurement: the work `crawl.finish` does between reading a crawl's page
// rows and storing its issues, over N rows of the generated site (bench/crawl-site.ts, one page in
// 20 a near-duplicate), without a crawl. Each row is built as the crawl builds it: the page's HTML
// through the engine's artifacts, its crawl facts (MinHash signature, deflated text) as the row
// stores them. The timed part is what finish() runs on those rows, in its order: each stored row
// read back as the issue pass holds it (crawledPage: the facts' JSON parsed, the signature
// decoded), the near-duplicate plan (MinHash buckets), the candidates' shingle sets rebuilt from
// their stored text, and every issue type (findSiteIssues).
import { inflateRawSync } from 'node:zlib';
import { buildArtifacts } from '../src/analysis/artifacts/build.js';
import { crawlFacts } from '../src/analysis/crawl-facts.js';
import { shingleHashes } from '../src/analysis/shingles.js';
import { crawledPage } from '../src/crawl/crawl-service.js';
import { planFor } from '../src/crawl/issues/catalogue-issues.js';
import { findSiteIssues } from '../src/crawl/site-issues.js';
import type { CrawlPageRow } from '../src/db/crawls-repository.js';
import { isNearDuplicate, listedLinks, sitePageHtml } from './crawl-site.js';

export interface IssuePass {
  rows: number;
  nearDuplicatePages: number;
  /** Building the rows (not timed in the figure): ms. */
  buildMs: number;
  /** The timed parts, ms. */
  readMs: number;
  planMs: number;
  shinglesMs: number;
  issuesMs: number;
  totalMs: number;
  /** Pages whose text the near-duplicate confirmation rebuilt. */
  planned: number;
  /** Issues by type. */
  issues: Map<string, number>;
  /** Near-duplicate pages the pass reported / planted. */
  nearFound: number;
  heapMb: number;
}

const pathOf = (n: number) => (n === 0 ? '/' : `/p/${n}`);

/** The issue pass over `pages` rows of the generated site (as served at `base`). */
export function measureIssuePass(
  pages: number,
  base = 'http://127.0.0.1:8080',
  log: (line: string) => void = () => {},
): IssuePass {
  // Breadth-first depths and the inlinks, as the frontier records them.
  const depth = new Int32Array(pages).fill(-1);
  const inlinks = new Uint32Array(pages);
  const linkedFrom: number[][] = Array.from({ length: pages }, () => []);
  depth[0] = 0;
  const queue = [0];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i];
    for (const t of listedLinks(n, pages)) {
      inlinks[t]++;
      if (linkedFrom[t].length < 2) linkedFrom[t].push(n);
      if (depth[t] < 0) {
        depth[t] = depth[n] + 1;
        queue.push(t);
      }
    }
  }
  const started = performance.now();
  const rows: CrawlPageRow[] = [];
  const texts = new Map<string, Uint8Array>();
  let nearDuplicatePages = 0;
  for (let n = 0; n < pages; n++) {
    if (isNearDuplicate(n)) nearDuplicatePages++;
    const url = `${base}${pathOf(n)}`;
    const artifacts = buildArtifacts(sitePageHtml(n, pages, base), url);
    const { facts, text } = crawlFacts(artifacts);
    if (text) texts.set(url, text);
    rows.push({
      id: n + 1,
      crawl_id: 1,
      url,
      state: 'done',
      priority: depth[n],
      depth: depth[n],
      lease_ms: null,
      status_code: 200,
      redirect_to: null,
      report_id: n + 1,
      result: 90,
      in_sitemap: 1,
      indexable: 1,
      robots_disallowed: 0,
      html: 1,
      noindex: 0,
      mixed_content: 0,
      title: artifacts.head.title,
      description: artifacts.head.metas.find((m) => m.name === 'description')?.content ?? null,
      canonical: url,
      inlinks: inlinks[n],
      linked_from: JSON.stringify(linkedFrom[n].map((m) => `${base}${pathOf(m)}`)),
      error: null,
      // As the crawl stores them (its canonicals already normalised here; no Link header).
      facts: JSON.stringify({ ...facts, headerCanonicals: [] }),
      response_ms: 1,
    });
    if ((n + 1) % 20_000 === 0) log(`issue pass: ${n + 1} rows built`);
  }
  const buildMs = performance.now() - started;

  const t0 = performance.now();
  const crawled = rows.map(crawledPage);
  const t1 = performance.now();
  const plan = planFor(crawled);
  const t2 = performance.now();
  const shingles = new Map<string, Uint32Array>();
  for (const url of plan.urls) {
    const text = texts.get(url);
    if (text) shingles.set(url, shingleHashes(inflateRawSync(text).toString('utf8')));
  }
  const t3 = performance.now();
  const found = findSiteIssues(crawled, { sitemapFound: true, shingles, nearDuplicatePlan: plan, checked: [] });
  const t4 = performance.now();
  const issues = new Map<string, number>();
  for (const issue of found)
    issues.set(`${issue.type} (${issue.severity})`, (issues.get(`${issue.type} (${issue.severity})`) ?? 0) + 1);
  return {
    rows: pages,
    nearDuplicatePages,
    buildMs,
    readMs: t1 - t0,
    planMs: t2 - t1,
    shinglesMs: t3 - t2,
    issuesMs: t4 - t3,
    totalMs: t4 - t0,
    planned: plan.urls.size,
    issues,
    nearFound: found.filter((i) => i.type === 'near_duplicate_content').length,
    heapMb: process.memoryUsage().heapUsed / 1e6,
  };
}
