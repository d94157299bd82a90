// bench/crawl: whole-site crawls (site audits), ours next to linkinator 7 on the same generated
// loopback site, in one run.
//
//   npm run bench -- crawl [--pages N] [--rounds N] [--no-rss] [--rss-pages N] [--peer-only]
//                          [--big-pages N | --no-big] [--issue-rows N | --no-issue-pass] [--no-wal]
//   --pages N         the site's size for the timed runs (1,000)
//   --rounds N        rounds of timed runs (3); each round runs every tool once, in rotated order
//   --no-rss          leaves out the large crawl (also BENCH_NO_RSS=1)
//   --rss-pages N     the large crawl's site (10,000)
//   --peer-only       linkinator alone (while our crawl command is not there)
//   --big-pages N     the largest crawl, ours alone (100,000; linkinator's memory grows past the
//                     machine's there): peak RSS, and pages/s next to the large crawl's
//   --no-big          leaves it out
//   --issue-rows N    the issue pass alone over N rows of the same site (100,000; bench/crawl-issues.ts)
//   --no-issue-pass   leaves it out
//   --no-wal          leaves out the storage measurement (WAL frames per page)
//
// 1. Speed: a site of N pages (bench/crawl-site.ts: `/` and `/p/1` … `/p/<N-1>`, ~17 internal links
//    each, every page within 4 links of `/`, robots.txt and sitemap.xml) served by this process on
//    127.0.0.1. Each round runs, one after the other:
//      - linkinator 7 as its CLI, `linkinator <site>/ --recurse --format json`, at its default
//        concurrency (100 requests at once): link checking only;
//      - `rankscope crawl <site>/ --max-pages N --json` (bin/rankscope.mjs, which runs the compiled
//        dist/ as `npx rankscope` does) on a fresh SQLite file, at the default CRAWL_CONCURRENCY (2
//        requests at once to the host), then again with CRAWL_CONCURRENCY=8: every page fetched,
//        analysed (33 checks) and stored.
//    Wall time is spawn → exit of the process (start-up, the crawl, storage and output included).
//    Pages crawled: for us the output's pages with a status_code; for linkinator the distinct
//    page paths it fetched, from the site's request log. pages/s = pages crawled ÷ wall time; the
//    median of the rounds is kept, and each run must crawl ≥ 95 % of the site. Ratio = our median
//    pages/s ÷ linkinator's. The site counts every request, so the report says what each tool
//    fetched besides pages, how many TCP connections it opened, and how many pages we fetched more
//    than once. Each round also runs linkinator and ours (default) on a one-page site: the fixed
//    cost of each (start-up; for us also the fresh database's migrations), reported beside.
// 2. Memory: one crawl of a 10,000-page site (CRAWL_MAX_PAGES=10000, --max-pages 10000,
//    CRAWL_TIME_LIMIT=3600): peak RSS (GNU time's maximum resident set size of the process,
//    or else VmHWM sampled every 100 ms), our RSS over the run (VmRSS every 100 ms), wall time,
//    pages/s; linkinator on the same site right after it, so the ratio is of the same minutes.
// 3. Scale: one crawl of ours on a 100,000-page site: peak RSS, and pages/s against part 2's.
// 4. The issue pass alone over 100,000 rows (bench/crawl-issues.ts): what crawl.finish computes,
//    near-duplicates included.
// 5. Storage: WAL frames (page writes) per crawled page on SQLite, over a 1,000-page crawl of ours
//    while a reader holds a snapshot from before it (no checkpoint resets the WAL, so every frame
//    written stays countable), less a one-page crawl's; by table and index (dbstat).
// The site has no link to another host: our crawl makes no request off the site.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { measureIssuePass } from './crawl-issues.js';
import { type CrawlSite, type RequestCounts, startCrawlSite } from './crawl-site.js';
import { RESULTS, ROOT } from './paths.js';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive integer`);
  return value;
}

const PAGES = argument('--pages', 1_000);
const ROUNDS = argument('--rounds', 3);
const RSS_PAGES = argument('--rss-pages', 10_000);
const RSS_ROUNDS = argument('--rss-rounds', 2);
const NO_RSS = process.argv.includes('--no-rss') || process.env.BENCH_NO_RSS === '1';
const PEER_ONLY = process.argv.includes('--peer-only');
const BIG_PAGES = process.argv.includes('--no-big') ? 0 : argument('--big-pages', 100_000);
const ISSUE_ROWS = process.argv.includes('--no-issue-pass') ? 0 : argument('--issue-rows', 100_000);
const WAL = !process.argv.includes('--no-wal');
/** Targets of the larger runs. */
const TARGET_LARGE_RATIO = 2.0;
const TARGET_BIG_RSS = 400e6;
const TARGET_BIG_RATE = 0.8;
const TARGET_ISSUE_PASS_MS = 10_000;
/** The share of the site each run must crawl. */
const COVERAGE = 0.95;
const TARGET_RATIO = 0.75;
const TARGET_RSS = 300e6;
/** The second row of ours, for comparison with the default of 2. */
const HIGH_CONCURRENCY = 8;
const LINKINATOR_CONCURRENCY = 100;

const BIN = join(ROOT, 'bin', 'rankscope.mjs');
const LINKINATOR = join(ROOT, 'node_modules', 'linkinator', 'build', 'src', 'cli.js');
const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-f', '%M', 'true']).status === 0;

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–';
const mb = (bytes: number | null) => (bytes === null ? '–' : `${fmt(bytes / 1e6)} MB`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// ---------------------------------------------------------------------------------------------
// A process timed from spawn to exit, with its peak RSS.

interface Timed {
  wallMs: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Peak resident set size in bytes, or null when it could not be read. */
  maxRss: number | null;
  /** VmRSS of the node process every 100 ms: [ms since spawn, bytes]. */
  samples: [number, number][];
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }
});

/** VmRSS and VmHWM of a process, in bytes, or null once it is gone. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return rss === undefined || peak === undefined ? null : { rss: Number(rss) * 1024, peak: Number(peak) * 1024 };
  } catch {
    return null;
  }
}

/** The process GNU time started (its only child), or null before it has one. */
function childOf(pid: number): number | null {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return children ? Number(children.split(' ')[0]) : null;
  } catch {
    return null;
  }
}

/**
 * Runs `node <args>` with its stdout and stderr in files of `dir`, under GNU time when there is
 * one (its maximum resident set size is the kernel's, exact), else sampling VmHWM every 100 ms.
 */
async function timedNode(args: string[], env: NodeJS.ProcessEnv, dir: string, timeoutMs: number): Promise<Timed> {
  const stdoutPath = join(dir, 'stdout');
  const stderrPath = join(dir, 'stderr');
  const rssPath = join(dir, 'maxrss');
  const stdoutFd = openSync(stdoutPath, 'w');
  const stderrFd = openSync(stderrPath, 'w');
  const [command, commandArgs] = HAS_GNU_TIME
    ? [GNU_TIME, ['-f', '%M', '-o', rssPath, process.execPath, ...args]]
    : [process.execPath, args];
  let sampled: number | null = null;
  const samples: [number, number][] = [];
  const started = performance.now();
  const child = spawn(command, commandArgs, { cwd: ROOT, env, stdio: ['ignore', stdoutFd, stderrFd], detached: true });
  running.add(child);
  let nodePid: number | null = HAS_GNU_TIME ? null : child.pid!;
  const sampler = setInterval(() => {
    nodePid ??= childOf(child.pid!);
    const memory = nodePid === null ? null : memoryOf(nodePid);
    if (memory === null) return;
    samples.push([performance.now() - started, memory.rss]);
    sampled = Math.max(sampled ?? 0, memory.peak);
  }, 100);
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (c, s) => resolve([c, s]));
  });
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  clearInterval(sampler);
  running.delete(child);
  closeSync(stdoutFd);
  closeSync(stderrFd);
  let maxRss: number | null = sampled;
  if (HAS_GNU_TIME) {
    // GNU time writes "Command exited with non-zero status N" before the figure when it failed.
    const kb = /(\d+)\s*$/.exec(existsSync(rssPath) ? readFileSync(rssPath, 'utf8') : '')?.[1];
    maxRss = kb === undefined ? null : Number(kb) * 1024;
  }
  return {
    wallMs,
    code,
    signal,
    maxRss,
    samples,
    stdout: readFileSync(stdoutPath, 'utf8'),
    stderr: readFileSync(stderrPath, 'utf8'),
  };
}

// ---------------------------------------------------------------------------------------------
// The tools.

interface Tool {
  name: string;
  /** Runs once on `site` (crawling at most `maxPages`), returning the run. */
  run(site: CrawlSite, maxPages: number, timeoutMs: number): Promise<Run>;
}

interface Run {
  tool: string;
  wallMs: number;
  /** Pages crawled, by the tool's own definition (see the header). */
  pages: number;
  maxRss: number | null;
  samples: [number, number][];
  counts: RequestCounts;
  loadAtStart: number;
  /** Why the run does not count, if it does not. */
  failure: string | null;
  /** For information: what else the run said (status, issues, database size). */
  notes: string[];
}

const tail = (text: string, chars = 600) => (text.length > chars ? `…${text.slice(-chars)}` : text).trim();

function withoutCrawlSettings(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('CRAWL_')) delete env[key];
  delete env.DATABASE_URL;
  return env;
}

function finish(run: Omit<Run, 'failure'> & { failure?: string | null }, sitePages: number): Run {
  let failure = run.failure ?? null;
  if (failure === null && run.pages < COVERAGE * sitePages)
    failure = `crawled ${fmt(run.pages)} of ${fmt(sitePages)} pages (< ${COVERAGE * 100} %)`;
  return { ...run, failure };
}

const linkinator: Tool = {
  name: `linkinator ${readVersion(join(ROOT, 'node_modules', 'linkinator', 'package.json'))}`,
  async run(site, _maxPages, timeoutMs) {
    const dir = mkdtempSync(join(tmpdir(), 'rankscope-bench-crawl-'));
    try {
      site.reset();
      const loadAtStart = loadavg()[0];
      const t = await timedNode([LINKINATOR, `${site.base}/`, '--recurse', '--format', 'json'], process.env, dir, timeoutMs);
      const counts = site.counts();
      const notes: string[] = [];
      let failure: string | null = null;
      try {
        const result = JSON.parse(t.stdout) as {
          links: { url: string; state: string; status?: number; failureDetails?: unknown[] }[];
          passed: boolean;
        };
        const broken = result.links.filter((l) => l.state === 'BROKEN');
        notes.push(`${fmt(result.links.length)} links reported, ${fmt(broken.length)} broken`);
        if (broken.length > 0)
          notes.push(
            `first broken: ${broken[0].url} (${broken[0].status}) ${tail(JSON.stringify(broken[0].failureDetails ?? null), 300)}`,
          );
      } catch {
        failure = `no JSON on stdout (exit ${t.code ?? t.signal}): ${tail(t.stderr || t.stdout)}`;
      }
      // linkinator exits 1 when it found a broken link. The site has none, so those are requests
      // that failed (a connect timed out on a loaded machine): noted, and the pages it did not
      // fetch are not counted; the run fails only below the coverage.
      if (t.code !== 0 && failure === null) notes.push(`exit ${t.code ?? t.signal}`);
      return finish(
        {
          tool: this.name,
          wallMs: t.wallMs,
          pages: counts.pagesFetched,
          maxRss: t.maxRss,
          samples: t.samples,
          counts,
          loadAtStart,
          notes,
          failure,
        },
        site.pages,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

interface OurOutput {
  /** Pages in the output with a status code (or crawl.pages_done without a page list). */
  pages: number;
  status: string;
  pagesDone: number | null;
  pagesFailed: number | null;
  issues: Map<string, number>;
}

/** Reads `rankscope crawl --json`'s document, tolerating a line of something else before it. */
function parseOurs(stdout: string): OurOutput {
  let doc: any;
  try {
    doc = JSON.parse(stdout);
  } catch {
    const start = stdout.indexOf('{');
    if (start < 0) throw new Error('no JSON document on stdout');
    doc = JSON.parse(stdout.slice(start));
  }
  const crawl = doc?.crawl ?? doc?.data?.crawl ?? {};
  const pages: any[] = Array.isArray(doc?.pages) ? doc.pages : Array.isArray(crawl.pages) ? crawl.pages : [];
  const issueList: any[] = Array.isArray(doc?.issues) ? doc.issues : Array.isArray(crawl.issues) ? crawl.issues : [];
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const withStatus = pages.filter((p) => typeof p?.status_code === 'number').length;
  const pagesDone = number(crawl.pages_done);
  const issues = new Map<string, number>();
  for (const issue of issueList) {
    const key = `${issue?.type ?? '?'}${issue?.severity ? ` (${issue.severity})` : ''}`;
    issues.set(key, (issues.get(key) ?? 0) + 1);
  }
  return {
    pages: pages.length > 0 ? withStatus : (pagesDone ?? 0),
    status: String(crawl.status ?? '?'),
    pagesDone,
    pagesFailed: number(crawl.pages_failed),
    issues,
  };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** Issue kinds of the latest run of ours on each site size, for the report. */
const ourIssues = new Map<string, Map<string, number>>();

function ours(concurrency: number | null): Tool {
  return {
    name: `rankscope crawl, CRAWL_CONCURRENCY=${concurrency ?? '2 (default)'}`,
    async run(site, maxPages, timeoutMs) {
      const dir = mkdtempSync(join(tmpdir(), 'rankscope-bench-crawl-'));
      try {
        const env: NodeJS.ProcessEnv = {
          ...withoutCrawlSettings(),
          DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
          ALLOW_PRIVATE_ADDRESSES: '1',
        };
        if (concurrency !== null) env.CRAWL_CONCURRENCY = String(concurrency);
        if (maxPages > 1_000) {
          env.CRAWL_MAX_PAGES = String(maxPages);
          env.CRAWL_TIME_LIMIT = '3600';
        }
        site.reset();
        const loadAtStart = loadavg()[0];
        const t = await timedNode(
          [BIN, 'crawl', `${site.base}/`, '--max-pages', String(maxPages), '--json'],
          env,
          dir,
          timeoutMs,
        );
        const counts = site.counts();
        const notes: string[] = [];
        let failure: string | null = null;
        let pages = 0;
        try {
          const output = parseOurs(t.stdout);
          pages = output.pages;
          notes.push(
            `status ${output.status}, pages_done ${output.pagesDone ?? '–'}, pages_failed ${output.pagesFailed ?? '–'}, ` +
              `${fmt([...output.issues.values()].reduce((a, b) => a + b, 0))} issues`,
          );
          if (site.pages > 1) ourIssues.set(`${fmt(site.pages)} pages`, output.issues);
        } catch (error) {
          failure = `${(error as Error).message} (exit ${t.code ?? t.signal}): ${tail(t.stderr || t.stdout)}`;
        }
        if (t.code !== 0) failure ??= `exit ${t.code ?? t.signal}: ${tail(t.stderr)}`;
        const db = join(dir, 'db.sqlite');
        notes.push(`database ${fmt((fileSize(db) + fileSize(`${db}-wal`)) / 1e6, 1)} MB`);
        if (counts.duplicatePages > 0)
          notes.push(`${fmt(counts.duplicatePages)} pages fetched more than once (${fmt(counts.duplicateGets)} extra GETs)`);
        if (counts.pagesFetched < pages) notes.push(`the site served only ${fmt(counts.pagesFetched)} distinct pages`);
        return finish(
          { tool: this.name, wallMs: t.wallMs, pages, maxRss: t.maxRss, samples: t.samples, counts, loadAtStart, notes, failure },
          site.pages,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function readVersion(packageJson: string): string {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

function gitRevision(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'bin'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  return `${head || '?'}${dirty ? ' (src/ or bin/ modified)' : ''}`;
}

/** Our RSS over a run, by share of its wall time. */
function rssOverRun(run: Run): string {
  const at = (share: number) => {
    const t = share * run.wallMs;
    let best = run.samples[0];
    for (const sample of run.samples) if (Math.abs(sample[0] - t) < Math.abs(best[0] - t)) best = sample;
    return `${share * 100} % ${mb(best[1])}`;
  };
  const top = run.samples.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `Our RSS during the crawl (VmRSS sampled every 100 ms, by share of the wall time): ${[0.1, 0.25, 0.5, 0.75, 0.9, 1]
    .map(at)
    .join(', ')}; the largest sample ${mb(top[1])} at ${fmt(top[0] / 1000, 1)} s of ${fmt(run.wallMs / 1000, 1)} s.`;
}

/**
 * WAL frames one crawl of ours writes on a site of `pages` pages: a reader opened first holds a
 * snapshot from before the crawl, so no checkpoint can reset the log and every frame stays in it;
 * each frame's page number is then matched to its b-tree with dbstat.
 */
async function crawlFrames(
  pages: number,
): Promise<{ frames: number; byPage: Map<number, number>; names: Map<number, string>; load: number }> {
  const SQLite = createRequire(join(ROOT, 'package.json'))('better-sqlite3') as typeof import('better-sqlite3');
  const site = await startCrawlSite(pages);
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-bench-crawl-'));
  const file = join(dir, 'db.sqlite');
  try {
    const reader = new SQLite(file);
    reader.pragma('journal_mode = WAL');
    reader.exec('create table bench_snapshot (x)');
    reader.exec('begin');
    reader.prepare('select count(*) from bench_snapshot').get();
    const env: NodeJS.ProcessEnv = {
      ...withoutCrawlSettings(),
      DATABASE_URL: `sqlite:${file}`,
      ALLOW_PRIVATE_ADDRESSES: '1',
      CRAWL_MAX_PAGES: String(Math.max(pages, 1000)),
      CRAWL_TIME_LIMIT: '3600',
    };
    const load = loadavg()[0];
    const t = await timedNode([BIN, 'crawl', `${site.base}/`, '--max-pages', String(pages), '--json'], env, dir, 30 * 60_000);
    if (t.code !== 0) throw new Error(`the crawl for the WAL count failed (exit ${t.code ?? t.signal}): ${tail(t.stderr)}`);
    const wal = readFileSync(`${file}-wal`);
    const frameSize = 24 + Number(reader.pragma('page_size', { simple: true }));
    const frames = Math.floor((wal.length - 32) / frameSize);
    const byPage = new Map<number, number>();
    for (let i = 0; i < frames; i++) {
      const page = wal.readUInt32BE(32 + i * frameSize);
      byPage.set(page, (byPage.get(page) ?? 0) + 1);
    }
    reader.exec('commit');
    const names = new Map<number, string>();
    for (const row of reader.prepare('select name, pageno from dbstat').all() as { name: string; pageno: number }[])
      names.set(row.pageno, row.name);
    reader.close();
    return { frames, byPage, names, load };
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function walFrames(pages: number): Promise<{ perPage: number; fixed: number; load: number; byTree: [string, number][] }> {
  const fixed = await crawlFrames(1);
  const full = await crawlFrames(pages);
  const byTree = new Map<string, number>();
  for (const [page, n] of full.byPage) {
    const name = full.names.get(page) ?? '(freed pages)';
    byTree.set(name, (byTree.get(name) ?? 0) + n / pages);
  }
  return {
    perPage: (full.frames - fixed.frames) / (pages - 1),
    fixed: fixed.frames,
    load: full.load,
    byTree: [...byTree].sort((a, b) => b[1] - a[1]),
  };
}

// ---------------------------------------------------------------------------------------------

const requests = (c: RequestCounts) =>
  `${fmt(c.pageGets)} / ${fmt(c.pageHeads)} / ${fmt(c.robots)} / ${fmt(c.sitemap)} / ${fmt(c.notFound)} / ${fmt(c.connections)}`;

async function main(): Promise<number> {
  const started = new Date();
  const loadAtStart = load();
  const cpu = cpus();
  const linkinatorVersion = readVersion(join(ROOT, 'node_modules', 'linkinator', 'package.json'));
  let exitCode = 0;

  // Warm-up on a small site, untimed: compiles dist/ when it is stale (bin/rankscope.mjs does that
  // on start-up) and finds out whether our crawl command works at all.
  const small = await startCrawlSite(20);
  let oursError: string | null = PEER_ONLY ? 'left out (--peer-only)' : null;
  try {
    if (!PEER_ONLY) {
      const warm = await ours(null).run(small, 20, 600_000);
      if (warm.failure) oursError = warm.failure;
    }
    const warm = await linkinator.run(small, 20, 600_000);
    if (warm.failure) throw new Error(`linkinator failed on the warm-up site: ${warm.failure}`);
  } finally {
    await small.close();
  }
  ourIssues.clear();

  const tools: Tool[] = [linkinator];
  if (oursError === null) tools.push(ours(null), ours(HIGH_CONCURRENCY));

  const site = await startCrawlSite(PAGES);
  // The fixed cost of each tool (start-up, and for us the fresh database's migrations and the
  // end of the crawl): one run each on a one-page site, every round.
  const onePage = await startCrawlSite(1);
  const floors = new Map<string, number[]>();
  const runs: Run[][] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const roundRuns: Run[] = [];
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[(i + round) % tools.length];
        const run = await tool.run(site, PAGES, 30 * 60_000);
        console.error(
          `round ${round + 1}, ${run.tool}: ${fmt(run.wallMs / 1000, 2)} s, ${fmt(run.pages)} pages${run.failure ? `, FAILED: ${run.failure}` : ''}`,
        );
        roundRuns.push(run);
      }
      runs.push(roundRuns);
      for (const tool of tools.slice(0, 2)) {
        const floor = await tool.run(onePage, 1, 600_000);
        if (floor.failure === null) floors.set(tool.name, [...(floors.get(tool.name) ?? []), floor.wallMs]);
      }
    }
  } finally {
    await site.close();
    await onePage.close();
  }

  out(`# bench/crawl: site audits, ours next to linkinator ${linkinatorVersion}`);
  out();
  out(
    `Run ${started.toISOString()} on ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, load average ${loadAtStart} at the start, ` +
      `Node ${process.version}, rankscope ${gitRevision()}, linkinator ${linkinatorVersion}. ` +
      `Peak RSS: ${HAS_GNU_TIME ? 'GNU time (maximum resident set size)' : 'VmHWM sampled every 100 ms'}.`,
  );
  out();
  out(`## ${fmt(PAGES)}-page site, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} (each tool once per round, order rotated)`);
  out();
  out(
    `The site: \`/\` and \`/p/1\` … \`/p/${PAGES - 1}\`, ${fmt(site.meanBytes / 1024, 1)} KiB and ${fmt(site.meanLinks, 1)} ` +
      `internal links per page, every page within ${site.maxDepth} links of \`/\` (${fmt(site.reachable)} reachable), ` +
      'robots.txt naming sitemap.xml (every page), 404 for anything else; node:http on 127.0.0.1 in the bench process.',
  );
  out();
  if (oursError !== null) {
    out(`**Ours not measured**: ${oursError}`);
    out();
  }
  out('| Tool | Runs | Median wall | Pages crawled (each run) | Pages/s, median (runs) | ÷ linkinator | Peak RSS, median |');
  out('|---|---|---|---|---|---|---|');
  const byTool = new Map<string, Run[]>();
  for (const round of runs) for (const run of round) byTool.set(run.tool, [...(byTool.get(run.tool) ?? []), run]);
  const rate = (run: Run) => (run.pages / run.wallMs) * 1000;
  const peer = byTool.get(linkinator.name) ?? [];
  const peerRate = median(peer.map(rate));
  const ratios = new Map<string, number>();
  for (const [tool, toolRuns] of byTool) {
    const rates = toolRuns.map(rate);
    const ratio = median(rates) / peerRate;
    if (tool !== linkinator.name) ratios.set(tool, ratio);
    // Per round: ours ÷ the linkinator run of the same round.
    const perRound = runs
      .map((round) => {
        const mine = round.find((r) => r.tool === tool);
        const theirs = round.find((r) => r.tool === linkinator.name);
        return mine && theirs ? rate(mine) / rate(theirs) : NaN;
      })
      .filter(Number.isFinite);
    const ratioText =
      tool === linkinator.name
        ? '1'
        : `**${fmt(ratio, 2)}** (rounds ${fmt(Math.min(...perRound), 2)}–${fmt(Math.max(...perRound), 2)})`;
    const failed = toolRuns.filter((r) => r.failure !== null).length;
    out(
      `| ${tool} | ${toolRuns.length}${failed ? ` (${failed} failed)` : ''} | ${fmt(median(toolRuns.map((r) => r.wallMs)) / 1000, 2)} s | ` +
        `${toolRuns.map((r) => `${fmt(r.pages)} (${fmt((r.pages / PAGES) * 100, 1)} %)`).join(', ')} | ` +
        `**${fmt(median(rates), 1)}** (${rates.map((r) => fmt(r, 1)).join(', ')}) | ${ratioText} | ${mb(median(toolRuns.map((r) => r.maxRss ?? NaN)))} |`,
    );
  }
  out();
  for (const [tool, ratio] of ratios) {
    out(
      `- ${tool}: ${fmt(ratio, 2)} × linkinator's pages/s, target ≥ ${TARGET_RATIO}: **${ratio >= TARGET_RATIO ? 'met' : 'missed'}**.`,
    );
  }
  const short = runs.flat().filter((r) => r.failure !== null);
  out(
    short.length === 0
      ? `- Every run crawled ≥ ${COVERAGE * 100} % of the site (exit statuses other than 0 are in the notes below).`
      : `- **${short.length} run(s) failed**: ${short.map((r) => `${r.tool}: ${r.failure}`).join('; ')}`,
  );
  if (short.length > 0) exitCode = 1;
  out(
    `- Concurrency: linkinator's default is ${LINKINATOR_CONCURRENCY} requests at once; ours is CRAWL_CONCURRENCY, ` +
      `requests at once to the host (default 2, polite to a real site), shown also at ${HIGH_CONCURRENCY}.`,
  );
  for (const [tool, walls] of floors) {
    const floor = median(walls);
    const toolRuns = byTool.get(tool) ?? [];
    const rest = median(toolRuns.map((r) => r.wallMs)) - floor;
    out(
      `- Fixed cost, ${tool}: ${fmt(floor / 1000, 2)} s on a one-page site (median of ${walls.length}); ` +
        `without it, ${fmt(median(toolRuns.map((r) => r.pages)) / (rest / 1000), 1)} pages/s.`,
    );
  }
  for (const [tool, toolRuns] of byTool) {
    const middle = [...toolRuns].sort((a, b) => a.wallMs - b.wallMs)[toolRuns.length >> 1];
    out(
      `- Connections, ${tool} (median run): ${fmt(middle.counts.connections)} TCP connections for ` +
        `${fmt(middle.counts.total)} requests.`,
    );
  }
  out(
    '- What each does per page: linkinator GETs it, parses it and checks its links (no robots.txt, no sitemap, ' +
      'nothing stored); ours fetches it, runs the analysis (33 checks) and stores the page and its report in SQLite.',
  );
  out();
  out('Every run (requests the site saw: page GETs / page HEADs / robots.txt / sitemap.xml / 404s / TCP connections):');
  out();
  out('| Round | Tool | Load at start | Wall | Pages crawled | Pages/s | Peak RSS | Requests | Notes |');
  out('|---|---|---|---|---|---|---|---|---|');
  runs.forEach((round, i) => {
    for (const run of round) {
      const notes = [
        ...run.notes,
        ...(run.failure ? [`**failed**: ${run.failure.replaceAll('\n', ' ').replaceAll('|', '\\|')}`] : []),
      ];
      out(
        `| ${i + 1} | ${run.tool} | ${run.loadAtStart.toFixed(2)} | ${fmt(run.wallMs / 1000, 2)} s | ${fmt(run.pages)} | ` +
          `${fmt(rate(run), 1)} | ${mb(run.maxRss)} | ${requests(run.counts)} | ${notes.join('; ')} |`,
      );
    }
  });
  out();

  let largeRate = NaN;
  if (!NO_RSS) {
    const large = await startCrawlSite(RSS_PAGES);
    const largeRuns: Run[][] = [];
    try {
      for (let round = 0; round < RSS_ROUNDS; round++) {
        const order: Tool[] = oursError === null ? [ours(null), linkinator] : [linkinator];
        if (round % 2 === 1) order.reverse();
        const roundRuns: Run[] = [];
        for (const tool of order) {
          const run = await tool.run(large, RSS_PAGES, 2 * 3600_000);
          console.error(
            `${fmt(RSS_PAGES)} pages, round ${round + 1}, ${run.tool}: ${fmt(run.wallMs / 1000, 1)} s, ${fmt(run.pages)} pages`,
          );
          roundRuns.push(run);
        }
        largeRuns.push(roundRuns);
      }
    } finally {
      await large.close();
    }
    out(`## ${fmt(RSS_PAGES)}-page site: speed and memory (${RSS_ROUNDS} round${RSS_ROUNDS === 1 ? '' : 's'}, order alternated)`);
    out();
    out(
      `${oursError === null ? `Ours with CRAWL_MAX_PAGES=${RSS_PAGES}, \`--max-pages ${RSS_PAGES}\`, CRAWL_TIME_LIMIT=3600, default concurrency, every issue type on` : 'Ours not measured'}; ` +
        `the site as above (every page within ${large.maxDepth} links of \`/\`).`,
    );
    out();
    out(
      '| Round | Tool | Load at start | Peak RSS | Target | Wall | Pages crawled | Pages/s | ÷ linkinator (same round) | Requests | Notes |',
    );
    out('|---|---|---|---|---|---|---|---|---|---|---|');
    const ratios: number[] = [];
    largeRuns.forEach((round, i) => {
      const peer = round.find((r) => r.tool === linkinator.name);
      for (const run of round) {
        const isOurs = run.tool !== linkinator.name;
        const target = isOurs
          ? `≤ ${mb(TARGET_RSS)}: **${run.maxRss !== null && run.maxRss <= TARGET_RSS ? 'met' : 'missed'}**`
          : '';
        const ratio = isOurs && peer ? rate(run) / rate(peer) : NaN;
        if (Number.isFinite(ratio)) ratios.push(ratio);
        const notes = [
          ...run.notes,
          ...(run.failure ? [`**failed**: ${run.failure.replaceAll('\n', ' ').replaceAll('|', '\\|')}`] : []),
        ];
        out(
          `| ${i + 1} | ${run.tool} | ${run.loadAtStart.toFixed(2)} | **${mb(run.maxRss)}** | ${target} | ${fmt(run.wallMs / 1000, 1)} s | ${fmt(run.pages)} (${fmt((run.pages / RSS_PAGES) * 100, 1)} %) | ` +
            `${fmt(rate(run), 1)} | ${isOurs ? `**${fmt(ratio, 2)}**` : '1'} | ${requests(run.counts)} | ${notes.join('; ')} |`,
        );
        if (run.failure) exitCode = 1;
      }
    });
    out();
    const mineAll = largeRuns.flat().filter((r) => r.tool !== linkinator.name);
    largeRate = median(mineAll.map(rate));
    if (ratios.length > 0) {
      const ratio = median(ratios);
      out(
        `- Ours ÷ linkinator's pages/s on ${fmt(RSS_PAGES)} pages, median of the rounds: **${fmt(ratio, 2)}** ` +
          `(target ≥ ${TARGET_LARGE_RATIO}: **${ratio >= TARGET_LARGE_RATIO ? 'met' : 'missed'}**); our pages/s, median: ${fmt(largeRate, 1)}.`,
      );
      out();
    }
    const mine = mineAll[mineAll.length - 1];
    if (mine && mine.samples.length > 0) {
      out(rssOverRun(mine));
      out();
    }
  }

  if (BIG_PAGES > 0 && oursError === null) {
    const big = await startCrawlSite(BIG_PAGES);
    let run: Run;
    try {
      run = await ours(null).run(big, BIG_PAGES, 4 * 3600_000);
    } finally {
      await big.close();
    }
    console.error(`${fmt(BIG_PAGES)} pages: ${fmt(run.wallMs / 1000, 1)} s, ${fmt(run.pages)} pages`);
    out(`## ${fmt(BIG_PAGES)}-page site: ours alone`);
    out();
    out(
      `CRAWL_MAX_PAGES=${BIG_PAGES}, \`--max-pages ${BIG_PAGES}\`, CRAWL_TIME_LIMIT=3600, default concurrency, every issue type on; ` +
        `the site as above (every page within ${big.maxDepth} links of \`/\`). linkinator is left out: it holds every link it has seen ` +
        `(576 MB at 10,000 pages on 2026-11-27), more than this machine can spare at ten times that.`,
    );
    out();
    const bigRate = rate(run);
    const ofLarge = bigRate / largeRate;
    out('| Load at start | Peak RSS | Wall | Pages crawled | Pages/s | ÷ the 10,000-page pages/s | Requests | Notes |');
    out('|---|---|---|---|---|---|---|---|');
    const notes = [
      ...run.notes,
      ...(run.failure ? [`**failed**: ${run.failure.replaceAll('\n', ' ').replaceAll('|', '\\|')}`] : []),
    ];
    out(
      `| ${run.loadAtStart.toFixed(2)} | **${mb(run.maxRss)}** | ${fmt(run.wallMs / 1000, 1)} s | ${fmt(run.pages)} (${fmt((run.pages / BIG_PAGES) * 100, 1)} %) | ` +
        `${fmt(bigRate, 1)} | ${fmt(ofLarge, 2)} | ${requests(run.counts)} | ${notes.join('; ')} |`,
    );
    out();
    out(
      `- Peak RSS ≤ ${mb(TARGET_BIG_RSS)}: **${run.maxRss !== null && run.maxRss <= TARGET_BIG_RSS ? 'met' : 'missed'}**; ` +
        `pages/s within 20 % of the ${fmt(RSS_PAGES)}-page figure (≥ ${TARGET_BIG_RATE} of it): **${ofLarge >= TARGET_BIG_RATE ? 'met' : 'missed'}** ` +
        `(the machine's load can differ between the two runs: see the load at start).`,
    );
    out();
    if (run.samples.length > 0) {
      out(rssOverRun(run));
      out();
    }
    if (run.failure) exitCode = 1;
  }

  if (ISSUE_ROWS > 0) {
    const loadBefore = loadavg()[0];
    const pass = measureIssuePass(ISSUE_ROWS, 'http://127.0.0.1:8080', (line) => console.error(line));
    out(`## The issue pass alone: ${fmt(ISSUE_ROWS)} rows`);
    out();
    out(
      `What \`crawl.finish\` computes between reading a crawl's page rows and storing its issues, on ${fmt(ISSUE_ROWS)} rows of the ` +
        `generated site built as the crawl builds them (bench/crawl-issues.ts: each page's HTML through the engine's artifacts and ` +
        `crawl facts; ${fmt(pass.nearDuplicatePages)} pages, ${fmt((pass.nearDuplicatePages / ISSUE_ROWS) * 100, 1)} %, near-duplicates ` +
        `of the page before them), in this process, load average ${loadBefore.toFixed(2)} before building the rows.`,
    );
    out();
    out('| Part | Time |');
    out('|---|---|');
    out(`| first reading of the rows (facts JSON parsed, signatures decoded, the index kept) | ${fmt(pass.readMs)} ms |`);
    out(`| near-duplicate plan (MinHash buckets, ${fmt(pass.planned)} pages to confirm) | ${fmt(pass.planMs)} ms |`);
    out(`| their shingle sets rebuilt from the stored text and compared | ${fmt(pass.shinglesMs)} ms |`);
    out(`| second reading (every row's own rules) and every issue type, sorted | ${fmt(pass.issuesMs)} ms |`);
    out(
      `| **total** | **${fmt(pass.totalMs)} ms** (target ≤ ${fmt(TARGET_ISSUE_PASS_MS / 1000)} s: **${pass.totalMs <= TARGET_ISSUE_PASS_MS ? 'met' : 'missed'}**) |`,
    );
    out();
    out(
      `near_duplicate_content reported for ${fmt(pass.nearFound)} pages (planted: ${fmt(pass.nearDuplicatePages)} pairs, each reported on ` +
        `both pages). Issues: ${
          [...pass.issues]
            .sort((a, b) => b[1] - a[1])
            .map(([k, n]) => `${k} ${fmt(n)}`)
            .join(', ') || 'none'
        }. ` +
        `Building the rows took ${fmt(pass.buildMs / 1000, 1)} s (not part of the figure); heap the pass holds at its end (its index and the issues) ${fmt(pass.passHeapMb)} MB; the process's heap then, the rows built included, ${fmt(pass.heapMb)} MB.`,
    );
    out();
  }

  if (WAL && oursError === null) {
    const frames = await walFrames(PAGES);
    out(`## Storage: WAL frames per crawled page (SQLite, ${fmt(PAGES)}-page site)`);
    out();
    out(
      `One crawl of ours, default concurrency, while a reader holds a snapshot from before it, so no checkpoint resets the ` +
        `write-ahead log and every page write stays in it; a one-page crawl's frames (${fmt(frames.fixed)}: migrations, the account, ` +
        `the crawl's start and finish) taken off. **${fmt(frames.perPage, 1)} frames (4 KiB page writes) per crawled page**` +
        ` (load ${frames.load.toFixed(2)}). By b-tree, per page:`,
    );
    out();
    out(
      frames.byTree
        .filter(([, n]) => n >= 0.05)
        .map(([name, n]) => `${name} ${fmt(n, 2)}`)
        .join(', '),
    );
    out();
  }

  if (ourIssues.size > 0) {
    out('Issues our crawl reported (the last run on each site; the generated site is meant to be clean):');
    out();
    for (const [siteName, issues] of ourIssues) {
      const list = [...issues].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${fmt(n)}`);
      out(`- ${siteName}: ${list.length ? list.join(', ') : 'none'}`);
    }
    out();
  }

  out('## Commands');
  out();
  out('```sh');
  out(
    `node_modules/.bin/linkinator http://127.0.0.1:PORT/ --recurse --format json   # run as node ${LINKINATOR.slice(ROOT.length + 1)}`,
  );
  out(
    `ALLOW_PRIVATE_ADDRESSES=1 DATABASE_URL=sqlite:/tmp/…/db.sqlite node bin/rankscope.mjs crawl http://127.0.0.1:PORT/ --max-pages ${PAGES} --json`,
  );
  out(
    `ALLOW_PRIVATE_ADDRESSES=1 DATABASE_URL=sqlite:/tmp/…/db.sqlite CRAWL_CONCURRENCY=${HIGH_CONCURRENCY} node bin/rankscope.mjs crawl http://127.0.0.1:PORT/ --max-pages ${PAGES} --json`,
  );
  if (!NO_RSS)
    out(
      `ALLOW_PRIVATE_ADDRESSES=1 DATABASE_URL=sqlite:/tmp/…/db.sqlite CRAWL_MAX_PAGES=${RSS_PAGES} CRAWL_TIME_LIMIT=3600 node bin/rankscope.mjs crawl http://127.0.0.1:PORT/ --max-pages ${RSS_PAGES} --json`,
    );
  out('```');
  out();
  out(
    `Each under \`${HAS_GNU_TIME ? `${GNU_TIME} -f %M` : 'node'}\`, stdout and stderr to files, timed from spawn to exit. ` +
      '`npx rankscope` runs bin/rankscope.mjs, which runs the compiled dist/ (compiled first in an untimed warm-up ' +
      "when stale); npx's own start-up is left out for both tools.",
  );
  out();
  out(`Finished in ${fmt((Date.now() - started.getTime()) / 1000)} s, load average ${load()} at the end.`);
  writeFileSync(join(RESULTS, 'crawl.md'), `${lines.join('\n')}\n`);
  return exitCode;
}

process.exitCode = await main();
