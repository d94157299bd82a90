// bench/crawl's issue-pass measurement: the work `crawl.finish` does between reading a crawl's page
// rows and storing its issues, over N rows of the generated site (bench/crawl-site.ts, one page in
// 20 a near-duplicate), without a crawl. Each row is built as the crawl builds it: the page's HTML
// through the engine's artifacts, its crawl facts (MinHash signature, deflated text) as the row
// stores them. The timed part is what finish() runs on those rows, in its order: the first reading
// of the rows (crawledPage: the facts' JSON parsed, the signature decoded; SiteIssuePass.index
// keeps what other rows' rules look up), the near-duplicate plan (MinHash buckets), the
// candidates' shingle sets rebuilt from their stored text a slice at a time and compared, the
// second reading (each row's own rules) and the issues sorted. Beside the time, the heap the pass
// holds at its end (its index and the issues), measured between forced collections.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inflateRawSync } from 'node:zlib';
import { buildArtifacts } from '../src/analysis/artifacts/build.js';
import { crawlFacts } from '../src/analysis/crawl-facts.js';
import { shingleHashes } from '../src/analysis/shingles.js';
import { crawledPage } from '../src/crawl/crawl-service.js';
import { confirmSome, type NearDuplicate } from '../src/crawl/issues/near-duplicates.js';
import { SiteIssuePass } from '../src/crawl/site-issues.js';
import type { CrawlPageRow } from '../src/db/crawls-repository.js';
import { isNearDuplicate, listedLinks, sitePageHtml } from './crawl-site.js';

export interface IssuePass {
  rows: number;
  nearDuplicatePages: number;
  /** Building the rows (not timed in the figure): ms. */
  buildMs: number;
  /** The timed parts, ms: the first reading, the plan, the shingle sets and their comparison, the second reading and the sort. */
  readMs: number;
  planMs: number;
  shinglesMs: number;
  issuesMs: number;
  totalMs: number;
  /** Heap the pass holds once done (its index and the issues), MB. */
  passHeapMb: number;
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
  const heapBefore = collectedHeap();
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
  const pass = new SiteIssuePass(true);
  for (const row of rows) pass.index(crawledPage(row));
  const t1 = performance.now();
  const plan = pass.plan();
  const t2 = performance.now();
  // As crawl.finish confirms them: a slice of the plan at a time, with that slice's texts only.
  const tries = [...plan.tries];
  const near = new Map<string, NearDuplicate>();
  for (let i = 0; i < tries.length; i += 250) {
    const slice = tries.slice(i, i + 250);
    const shingles = new Map<string, Uint32Array>();
    for (const url of new Set(slice.flatMap(([url, others]) => [url, ...others]))) {
      const text = texts.get(url);
      if (text) shingles.set(url, shingleHashes(inflateRawSync(text).toString('utf8')));
    }
    confirmSome(near, slice, shingles);
  }
  pass.nearDuplicates(near);
  const t3 = performance.now();
  for (const row of rows) pass.check(crawledPage(row, false));
  const found = pass.issues();
  const t4 = performance.now();
  // What the pass holds: the rows and their texts let go, the pass and its issues kept.
  rows.length = 0;
  texts.clear();
  kept.push(pass);
  const passHeapMb = (collectedHeap() - heapBefore) / 1e6;
  kept.length = 0;
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
    passHeapMb,
    planned: plan.urls.size,
    issues,
    nearFound: found.filter((i) => i.type === 'near_duplicate_content').length,
    heapMb: process.memoryUsage().heapUsed / 1e6,
  };
}

/** What a measurement keeps alive while it collects. */
const kept: unknown[] = [];

/** The heap in use after a full collection, typed arrays' memory included (bytes). */
function collectedHeap(): number {
  setFlagsFromString('--expose-gc');
  // Array buffers let go are freed by the collection itself, not a background task after it.
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
  (runInNewContext('gc') as () => void)();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
