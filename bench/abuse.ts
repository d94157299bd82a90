// bench/abuse: the abuse paths an outside probe found, replayed against `rankscope serve` in its
// own process (a temporary SQLite database), with pages served on 127.0.0.1. Loopback only.
//
//   npm run bench -- abuse
//
// 1. links: a 4 MB page with 100,000 links, and one of 100,000 unclosed <a>s: the stored report's
//    size, a 10-report list's size, the server's RSS (peak and after) next to its idle RSS.
// 2. robots: a 500 KiB robots.txt of wildcard rules, and a page reached through a redirect to a
//    path of ~2,000 characters: how long the create takes, and GET /health latency meanwhile,
//    next to GET /health on the idle server in the same run.
// 3. passwords: 50 wrong passwords at once on a protected share page: how many were checked.
// 4. fairness: account A sends 40 creates at once, then account B one: B's wait, in analysis
//    times (each page is held 200 ms by the site, so an analysis takes a known time).
// 5. stats: two public websites of 1,000,000 pageviews over the last 30 days (today included),
//    10,000 distinct pages a day (on one the pages differ from day to day, on the other the same
//    10,000 recur), seeded through AnalyticsRepository.record(). In process: every stats name and
//    the share page's queries, the fast path (StatsService) against the one-query form
//    (queryDirect) on the same database; then against `rankscope serve` (TRUST_PROXY=1): the share
//    page and the stats API over HTTP, GET /health while 16 clients (16 addresses, X-Forwarded-For;
//    PUBLIC_RATE_LIMIT_PER_MINUTE=0) load the share page next to /health idle, and the server's
//    RSS during 10 parallel CSV exports of the 300,000-row page list.
//
//   BENCH_DATABASE_URL=postgres://…   part 5 on that PostgreSQL too (a schema of its own, dropped after)
//   BENCH_ONLY=hardening|stats        one part only (the results file then holds that part)
//   BENCH_PAGEVIEWS (1,000,000)       pageviews per website in part 5
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { RESULTS } from './paths.js';
import { startRankscope } from './server.js';
import { AnalyticsRepository } from '../src/db/analytics-repository.js';
import { type DatabaseHandle, dropSchema, migrateToLatest, openDatabase, refreshStatistics } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { WebsitesRepository } from '../src/db/websites-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { SAMPLE_FIELDS } from '../src/model/dimensions.js';
import type { StoredEvent } from '../src/model/rollup.js';
import { STAT_NAMES, type StatName, StatsService, queryDirect } from '../src/tracking/stats-service.js';
import { fixedClock, formatTimestamp, systemClock } from '../src/time.js';
import { loadTraffic } from '../src/web/website-traffic.js';

const ONLY = process.env.BENCH_ONLY ?? null;
const PG_URL = process.env.BENCH_DATABASE_URL ?? null;
const PAGEVIEWS = Number(process.env.BENCH_PAGEVIEWS ?? 1_000_000);

const ANALYSIS_HOLD_MS = 200;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

function memoryOf(pid: number): { rss: number; peak: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}

/** The hostile site: robots.txt, the long redirect, the link pages, a slow ordinary page. */
function hostileSite(): { server: Server; longPath: string } {
  const rules: string[] = ['User-agent: *'];
  let size = rules[0].length + 1;
  for (let i = 0; size < 500 * 1024; i++) {
    // Each rule's segment is absent from the path, so every rule scans the whole path.
    const line = `Disallow: /*${'a'.repeat(24)}c${i}*x$`;
    rules.push(line);
    size += line.length + 1;
  }
  const robots = rules.join('\n').slice(0, 500 * 1024);
  const longPath = `/${'a'.repeat(1990)}`;
  const page = (body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile page</title></head><body>${body}</body></html>`;
  const links = page(Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link ${i}</a>`).join('\n'));
  const unclosed = page(Array.from({ length: 100_000 }, (_, i) => `<a href="/u/${i}">text ${i} `).join(''));
  const ordinary = page('<h1>Widgets</h1><p>Blue widgets.</p>');
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (path === '/robots.txt') return send(200, 'text/plain', robots);
    if (path === '/start') {
      res.writeHead(301, { location: longPath });
      return res.end();
    }
    if (path === longPath) return send(200, 'text/html; charset=utf-8', ordinary);
    if (path === '/links') return send(200, 'text/html; charset=utf-8', links);
    if (path === '/unclosed') return send(200, 'text/html; charset=utf-8', unclosed);
    send(404, 'text/plain', 'not found');
  });
  return { server, longPath };
}

/** An ordinary site whose pages take ANALYSIS_HOLD_MS to answer (robots.txt: 404). */
function slowSite(): Server {
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widgets</title></head><body><h1>Widgets</h1><p>Blue widgets.</p></body></html>';
  return createServer((req, res) => {
    if ((req.url ?? '/').startsWith('/slow')) {
      return void setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
      }, ANALYSIS_HOLD_MS);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
}

/** GET /health back to back (5 ms apart) until `until` settles; latencies in ms, sorted. */
async function healthWhile(api: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await fetch(`${api}/health`).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  return latencies.sort((x, y) => x - y);
}

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

/** Parts 1–4: the hardening issue's abuse paths. */
async function hardening(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-abuse-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  const handle = await openDatabase(databaseUrl);
  await migrateToLatest(handle);
  const users = new UsersRepository(handle.db);
  const a = await createAccount(users, 'a@example.com');
  const b = await createAccount(users, 'b@example.com');
  await handle.close();

  const { server: site, longPath } = hostileSite();
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const slow = slowSite();
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const slowOrigin = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;

  const { proc, api } = await startRankscope({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_MINUTE: '0',
    ALLOW_PRIVATE_ADDRESSES: 'true',
  });
  const auth = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });
  const create = (key: string, url: string) =>
    fetch(`${api}/api/v1/reports`, {
      method: 'POST',
      headers: { ...auth(key), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url }),
    });

  const healthDuring = (until: Promise<unknown>) => healthWhile(api, until);

  // 0. warm the server (first analysis starts the engine workers)
  const startMemory = memoryOf(proc.pid!);
  await (await create(a.key, `${slowOrigin}/slow-warm`)).arrayBuffer();
  const warmMemory = memoryOf(proc.pid!);

  // 1. links
  let peakAnon = 0;
  let peakFile = 0;
  const sampler = setInterval(() => {
    const m = memoryOf(proc.pid!);
    if (m.rss > peakAnon + peakFile) [peakAnon, peakFile] = [m.anon, m.file];
  }, 20);
  const sizes: Record<string, { report: number; results: number; seconds: number }> = {};
  for (const kind of ['links', 'unclosed']) {
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await create(a.key, `${origin}/${kind}?n=${i}`);
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${text.slice(0, 200)}`);
      const results = JSON.stringify(JSON.parse(text).data.results);
      sizes[kind] = {
        report: Buffer.byteLength(text),
        results: Buffer.byteLength(results),
        seconds: (performance.now() - t0) / 1000,
      };
    }
  }
  const list = await (await fetch(`${api}/api/v1/reports?per_page=10`, { headers: auth(a.key) })).arrayBuffer();
  const memory = memoryOf(proc.pid!);
  clearInterval(sampler);
  out('## 1. Pages of 100,000 links (4.1 MB) and of 100,000 unclosed `<a>`s (3.0 MB), 5 creates of each');
  out();
  out('| | value | target |');
  out('|---|---|---|');
  for (const [kind, s] of Object.entries(sizes)) {
    out(
      `| ${kind}: a stored report's response / its results | ${mb(s.report)} / ${mb(s.results)} (create ${s.seconds.toFixed(2)} s) | < 2 MB |`,
    );
  }
  out(`| a list of the 10 reports (\`?per_page=10\`) | ${mb(list.byteLength)} | |`);
  out(
    `| server RSS: at start / after one ordinary analysis (the engine worker started) | ${mb(startMemory.rss)} / ${mb(warmMemory.rss)} | |`,
  );
  out(
    `| server RSS: peak during the 10 creates (of it anonymous / file-backed) / after | ${mb(memory.peak)} (${mb(peakAnon)} / ${mb(peakFile)}) / ${mb(memory.rss)} | peak < 300 MB |`,
  );
  out();

  // 2. robots
  const idle = await healthDuring(new Promise((r) => setTimeout(r, 1000)));
  const started = performance.now();
  const robotsCreate = create(a.key, `${origin}/start`).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { data?: { results: { robots: { passed: boolean } } } },
    ms: performance.now() - started,
  }));
  const during = await healthDuring(robotsCreate);
  const robots = await robotsCreate;
  out('## 2. A 500 KiB robots.txt of wildcard rules, a page behind a redirect to a 1,991-character path');
  out();
  out('| | value | target |');
  out('|---|---|---|');
  out(
    `| create answered | ${robots.status} in ${ms(robots.ms)} (robots check: ${JSON.stringify(robots.body.data?.results?.robots?.passed)}) | < 1 s |`,
  );
  out(
    `| GET /health while it runs: p50 / p99 / max (${during.length} requests) | ${ms(percentile(during, 50))} / ${ms(percentile(during, 99))} / ${ms(during.at(-1)!)} | p99 < 100 ms |`,
  );
  out(
    `| GET /health idle, same run: p50 / p99 / max (${idle.length} requests) | ${ms(percentile(idle, 50))} / ${ms(percentile(idle, 99))} / ${ms(idle.at(-1)!)} | |`,
  );
  out(`| p99 while it runs ÷ p99 idle | ${(percentile(during, 99) / percentile(idle, 99)).toFixed(2)} | |`);
  out();
  void longPath;

  // 3. passwords
  const report = (await (await create(a.key, `${slowOrigin}/slow-pw`)).json()) as { data: { id: number } };
  const id = report.data.id as number;
  await fetch(`${api}/api/v1/reports/${id}`, {
    method: 'PUT',
    headers: { ...auth(a.key), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'privacy=2&password=right-one',
  });
  const guesses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      fetch(`${api}/reports/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `password=guess${i}`,
        redirect: 'manual',
      }).then((r) => r.status),
    ),
  );
  const count = (s: number) => guesses.filter((g) => g === s).length;
  out('## 3. 50 wrong passwords at once on one share page (one client)');
  out();
  out(
    `Checked (401): ${count(401)} · refused unchecked (429): ${count(429)} · other: ${50 - count(401) - count(429)} (limit: 5 per minute)`,
  );
  out();

  // 4. fairness
  const solo: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await (await create(b.key, `${slowOrigin}/slow-solo-${i}`)).arrayBuffer();
    solo.push(performance.now() - t0);
  }
  solo.sort((x, y) => x - y);
  const analysis = solo[1];
  const burstStart = performance.now();
  const burst = Array.from({ length: 40 }, (_, i) => create(a.key, `${slowOrigin}/slow-burst-${i}`).then((r) => r.status));
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  const bStatus = (await create(b.key, `${slowOrigin}/slow-b`)).status;
  const bLatency = performance.now() - t0;
  const statuses = await Promise.all(burst);
  const burstMs = performance.now() - burstStart;
  out('## 4. Account A sends 40 creates at once; 50 ms later account B sends one (each page held 200 ms)');
  out();
  out('| | value | target |');
  out('|---|---|---|');
  out(`| one analysis alone (median of 3) | ${ms(analysis)} | |`);
  out(`| B's create during A's burst | ${ms(bLatency)} (status ${bStatus}) | |`);
  out(`| B's delay, in analysis times | ${((bLatency - analysis) / analysis).toFixed(2)} | < 1 |`);
  out(`| A's 40 creates | all done in ${ms(burstMs)}; statuses ${[...new Set(statuses)].join(', ')} | |`);
  out();

  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  site.close();
  slow.close();
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  out('# bench/abuse');
  out();
  out(
    `${new Date().toISOString()} · Node ${process.version} · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  out();
  if (ONLY !== 'stats') await hardening();
  if (ONLY !== 'hardening') await statsPart();
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'abuse.md'), `${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------
// Part 5: stats on a website of 1,000,000 pageviews with 10,000 distinct pages a day

const DAYS = 30;
const VALUES_PER_DAY = 10_000;
const DAY_MS = 86_400_000;
/** Runs per measured query (after a first, cold one reported apart); the one-query form is slow, so fewer. */
const FAST_RUNS = 60;
const DIRECT_RUNS = 12;
const LOAD_CLIENTS = 16;
const LOAD_MS = 12_000;
const CSV_EXPORTS = 10;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REFERRERS = [
  'www.google.com',
  'duckduckgo.com',
  't.co',
  'news.ycombinator.com',
  ...Array.from({ length: 46 }, (_, i) => `blog${i}.example.net`),
];
const COUNTRIES: [string, string][] = [
  ...['US', 'CA', 'MX'].map((c): [string, string] => [c, 'NA']),
  ...['DE', 'GB', 'FR', 'NL', 'ES', 'IT', 'PL', 'SE', 'CH', 'AT', 'BE', 'CZ', 'DK', 'NO', 'FI', 'IE', 'PT'].map(
    (c): [string, string] => [c, 'EU'],
  ),
  ...['IN', 'JP', 'CN', 'KR', 'SG', 'ID', 'TR', 'IL', 'VN'].map((c): [string, string] => [c, 'AS']),
  ['BR', 'SA'],
  ['AR', 'SA'],
  ['AU', 'OC'],
  ['ZA', 'AF'],
  ['Unknown', 'Unknown'],
];
const AGENTS: [string, string, string][] = [
  ['Chrome', 'Windows', 'desktop'],
  ['Chrome', 'Android', 'mobile'],
  ['Mobile Safari', 'iOS', 'mobile'],
  ['Safari', 'Mac OS', 'desktop'],
  ['Edge', 'Windows', 'desktop'],
  ['Firefox', 'Linux', 'desktop'],
  ['Mobile Safari', 'iOS', 'tablet'],
];
const RESOLUTIONS = ['1920x1080', '390x844', '1366x768', '1536x864', '414x896', '1440x900', '2560x1440'];
const LANGUAGES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP', 'nl-NL'];
const EVENT_NAMES = ['Signup', 'Download', 'Outbound Link: Click', 'Purchase', 'Newsletter', 'Search'];

/**
 * One day's events in time order: visits of 1–5 pageviews; the i-th pageview of the day is on
 * page i × 7,919 mod 10,000, so every one of the day's 10,000 pages is viewed (3 or 4 times).
 * `distinct`: the pages are the day's own (`/d12/article-…`); else the same every day.
 */
function statsDay(
  websiteId: number,
  dayStart: number,
  dayIndex: number,
  pageviews: number,
  distinct: boolean,
  random: () => number,
) {
  const events: StoredEvent[] = [];
  const day = new Date(dayStart).toISOString().slice(0, 10);
  let views = 0;
  for (let v = 0; views < pageviews; v++) {
    const visitor = createHash('sha256').update(`${websiteId}/${dayIndex}/${v}`).digest('base64url').slice(0, 22);
    const [browser, os, device] = AGENTS[Math.floor(random() * random() * AGENTS.length)];
    const [country, continent] = COUNTRIES[Math.floor(random() * random() * COUNTRIES.length)];
    const referrer = random() < 0.5 ? REFERRERS[Math.floor(random() * random() * REFERRERS.length)] : null;
    let at = dayStart + Math.floor(random() * (DAY_MS - 600_000));
    const length = 1 + Math.floor(random() * 5);
    for (let p = 0; p < length && views < pageviews; p++, views++) {
      const k = (views * 7919) % VALUES_PER_DAY;
      const base = {
        ...SAMPLE_FIELDS,
        websiteId,
        at,
        createdAt: formatTimestamp(new Date(at)),
        day,
        hour: new Date(at).toISOString().slice(11, 13),
        page: distinct ? `/d${dayIndex}/article-${k}` : `/article-${k}`,
        visitor,
        referrer: p === 0 ? referrer : null,
        source: p === 0 ? referrer : null,
        campaign: null,
        browser,
        os,
        device,
        country,
        continent,
        city: null,
        language: LANGUAGES[v % LANGUAGES.length],
        resolution: RESOLUTIONS[v % RESOLUTIONS.length],
      };
      events.push({ ...base, name: 'pageview', props: null });
      if (random() < 0.03) events.push({ ...base, at: at + 500, name: EVENT_NAMES[v % EVENT_NAMES.length], props: null });
      at += 20_000 + Math.floor(random() * 40_000);
    }
  }
  return events.sort((a, b) => a.at - b.at);
}

interface StatsSite {
  label: string;
  websiteId: number;
}

/** An account and its two public websites, each seeded with PAGEVIEWS over the last DAYS days (today included). */
async function seedStats(handle: DatabaseHandle): Promise<{ key: string; sites: StatsSite[]; seconds: number; events: number }> {
  await migrateToLatest(handle);
  const { user, key } = await createAccount(new UsersRepository(handle.db), 'stats-abuse@example.com');
  const websites = new WebsitesRepository(handle.db);
  const repo = new AnalyticsRepository(handle.db, handle.engine, systemClock);
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const random = prng(11);
  const sites: StatsSite[] = [];
  const started = performance.now();
  let events = 0;
  for (const [label, distinct] of [
    ['pages differ every day', true],
    ['the same pages every day', false],
  ] as const) {
    const website = await websites.create({
      user_id: user.id,
      domain: distinct ? 'daily.example' : 'steady.example',
      privacy: 0,
      password_hash: null,
      email: null,
      exclude_bots: 1,
      exclude_ips: null,
      exclude_params: null,
    });
    for (let d = 0; d < DAYS; d++) {
      const batch = statsDay(
        website.id,
        today - (DAYS - 1 - d) * DAY_MS,
        d,
        Math.floor(PAGEVIEWS / DAYS) + (d < PAGEVIEWS % DAYS ? 1 : 0),
        distinct,
        random,
      );
      for (let i = 0; i < batch.length; i += 5000) await repo.record(batch.slice(i, i + 5000));
      events += batch.length;
    }
    console.log(`seeded ${label} (${handle.engine}): ${events.toLocaleString('en')} events so far`);
    sites.push({ label, websiteId: website.id });
  }
  await refreshStatistics(handle);
  if (handle.engine === 'postgres') await sql`analyze`.execute(handle.db);
  return { key, sites, seconds: (performance.now() - started) / 1000, events };
}

interface Timing {
  first: number;
  p50: number;
  p99: number;
  runs: number;
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<Timing> {
  const t0 = performance.now();
  await work();
  const first = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { first, p50: percentile(times, 50), p99: percentile(times, 99), runs };
}

const lastDays = () => {
  const to = new Date().toISOString().slice(0, 10);
  return { from: new Date(Date.parse(`${to}T00:00:00Z`) - (DAYS - 1) * DAY_MS).toISOString().slice(0, 10), to };
};

interface CsvRound {
  before: ReturnType<typeof memoryOf>;
  peak: ReturnType<typeof memoryOf>;
  after: ReturnType<typeof memoryOf>;
  bytes: number;
  lines: number;
  seconds: number;
  statuses: number[];
}

interface EngineStats {
  engine: string;
  seeded: { seconds: number; events: number };
  inProcess: { site: StatsSite; name: StatName | 'share page'; fast: Timing; direct: Timing; values: number }[];
  /** The share page's first view with nothing kept (as yesterday), then the next day's, built from yesterday's kept ranges. */
  nextDay: { site: StatsSite; yesterday: number; derived: number }[];
  http: { site: StatsSite; name: StatName | 'share page'; timing: Timing }[];
  health: { idle: number[]; loaded: number[]; pages: number[]; statuses: Record<number, number> };
  /** On the fresh server, then after the load. */
  csv: [CsvRound, CsvRound];
  cache: { bytes: number; entries: number };
}

async function statsOn(engine: 'sqlite' | 'postgres', dir: string): Promise<EngineStats> {
  const schema = `bench_abuse_${randomBytes(3).toString('hex')}`;
  let databaseUrl: string;
  if (engine === 'postgres') {
    const u = new URL(PG_URL!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
  } else databaseUrl = `sqlite:${join(dir, 'stats.db')}`;
  const handle = await openDatabase(engine === 'postgres' ? PG_URL! : databaseUrl, engine === 'postgres' ? { schema } : {});
  try {
    const { key, sites, seconds, events } = await seedStats(handle);
    const range = lastDays();

    // In process: the fast path and the one-query form, one query at a time, on the same database.
    const repo = new AnalyticsRepository(handle.db, handle.engine, systemClock);
    const stats = new StatsService(repo);
    const direct = {
      query: (q: Parameters<StatsService['query']>[0], limit?: number, offset?: number) => queryDirect(repo, q, limit, offset),
    };
    const inProcess: EngineStats['inProcess'] = [];
    for (const site of sites) {
      const where = { websiteId: site.websiteId, ...range };
      const traffic = (service: Pick<StatsService, 'query'>) =>
        loadTraffic(service, site.websiteId, { ...range, fellBack: false }, { today: range.to, origin: 'http://127.0.0.1' });
      inProcess.push({
        site,
        name: 'share page',
        fast: await timed(FAST_RUNS, () => traffic(stats)),
        direct: await timed(DIRECT_RUNS, () => traffic(direct)),
        values: 0,
      });
      for (const name of STAT_NAMES) {
        // `prop` lists one custom property's values: the key the seeded events carry (none here).
        const q = { ...where, name, prop: name === 'prop' ? 'plan' : null };
        const fast = await timed(FAST_RUNS, () => stats.query(q, 10));
        const plain = await timed(DIRECT_RUNS, () => queryDirect(repo, q, 10));
        const values = (await stats.query(q, 10)).total;
        inProcess.push({ site, name, fast, direct: plain, values });
      }
      console.log(`${engine}: in process, ${site.label}: done`);
    }
    const cache = stats.cacheUse();

    // The next day: yesterday's "last 30 days" kept, today's built from it (the day that left and
    // the day that closed read again), against building it with nothing kept.
    const nextDay: EngineStats['nextDay'] = [];
    for (const site of sites) {
      const clock = fixedClock(Date.now() - DAY_MS);
      const rolling = new StatsService(repo, { clock });
      const view = () => {
        const to = new Date(clock.now()).toISOString().slice(0, 10);
        const from = new Date(Date.parse(`${to}T00:00:00Z`) - (DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
        return loadTraffic(rolling, site.websiteId, { from, to, fellBack: false }, { today: to, origin: 'http://127.0.0.1' });
      };
      let t0 = performance.now();
      await view();
      const yesterday = performance.now() - t0;
      clock.set(Date.now());
      t0 = performance.now();
      await view();
      nextDay.push({ site, yesterday, derived: performance.now() - t0 });
    }

    // Against the server.
    // The public pages' limit off, so every share page loaded reaches the stats (at 120 a minute
    // per address, the load below would be mostly cheap 429s).
    const { proc, api } = await startRankscope({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: '1',
    });
    try {
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${api}${path}`, { headers }).then(async (r) => ({ status: r.status, body: await r.arrayBuffer() }));
      const auth = { authorization: `Bearer ${key}`, accept: 'application/json' };
      /** 10 parallel CSV exports of the first website's page list; the server's RSS sampled every 10 ms. */
      const csvExports = async (): Promise<CsvRound> => {
        await new Promise((r) => setTimeout(r, 1000));
        const before = memoryOf(proc.pid!);
        let peak = before;
        const sampler = setInterval(() => {
          const m = memoryOf(proc.pid!);
          if (m.rss > peak.rss) peak = m;
        }, 10);
        const csvPath = `/api/v1/stats/${sites[0].websiteId}?${new URLSearchParams({ name: 'page', ...range, format: 'csv' })}`;
        const t0 = performance.now();
        const exports = await Promise.all(Array.from({ length: CSV_EXPORTS }, () => get(csvPath, auth)));
        const seconds = (performance.now() - t0) / 1000;
        clearInterval(sampler);
        const text = Buffer.from(exports[0].body).toString('utf8');
        return {
          before,
          peak,
          after: memoryOf(proc.pid!),
          bytes: exports[0].body.byteLength,
          lines: text.split('\r\n').length - 1,
          seconds,
          statuses: exports.map((e) => e.status),
        };
      };
      // First, on the fresh server: the exports build the page list's closed days (one build for the ten).
      const csvCold = await csvExports();
      const http: EngineStats['http'] = [];
      for (const site of sites) {
        http.push({ site, name: 'share page', timing: await timed(FAST_RUNS, () => get(`/websites/${site.websiteId}`)) });
        for (const name of STAT_NAMES) {
          const path = `/api/v1/stats/${site.websiteId}?${new URLSearchParams({ name, ...range, ...(name === 'prop' ? { prop: 'plan' } : {}) })}`;
          http.push({
            site,
            name,
            timing: await timed(20, async () => {
              const res = await get(path, auth);
              if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
            }),
          });
        }
      }

      // /health idle, then while 16 clients (16 addresses) load the heavier share page back to back.
      const idle = await healthWhile(api, new Promise((r) => setTimeout(r, 3000)));
      const sharePath = `/websites/${sites[0].websiteId}`;
      const pages: number[] = [];
      const statuses: Record<number, number> = {};
      const stopAt = performance.now() + LOAD_MS;
      const load = Promise.all(
        Array.from({ length: LOAD_CLIENTS }, async (_, c) => {
          while (performance.now() < stopAt) {
            const t0 = performance.now();
            const res = await get(sharePath, { 'x-forwarded-for': `10.0.${c}.${c + 1}` });
            pages.push(performance.now() - t0);
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          }
        }),
      );
      const loaded = await healthWhile(api, load);
      pages.sort((a, b) => a - b);

      const csvWarm = await csvExports();
      return {
        engine,
        seeded: { seconds, events },
        inProcess,
        nextDay,
        http,
        health: { idle, loaded, pages, statuses },
        csv: [csvCold, csvWarm],
        cache,
      };
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  } finally {
    await handle.close();
    if (engine === 'postgres') await dropSchema(PG_URL!, schema).catch(() => {});
    else rmSync(join(dir, 'stats.db'), { force: true });
  }
}

async function statsPart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-abuse-stats-'));
  const runs: EngineStats[] = [];
  try {
    for (const engine of ['sqlite', ...(PG_URL ? ['postgres' as const] : [])] as const) runs.push(await statsOn(engine, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { from, to } = lastDays();
  out(
    `## 5. Stats of a website with ${PAGEVIEWS.toLocaleString('en')} pageviews over ${DAYS} days (${from} to ${to}, today included), ${VALUES_PER_DAY.toLocaleString('en')} distinct pages a day`,
  );
  out();
  out(
    'Two public websites, seeded through `AnalyticsRepository.record()` in batches of 5,000: on one the pages differ from day to day ' +
      `(${(DAYS * VALUES_PER_DAY).toLocaleString('en')} values in the range), on the other the same ${VALUES_PER_DAY.toLocaleString('en')} recur. ` +
      'Visits of 1–5 pageviews, 50 referrers, 40 countries, 7 browser mixes, 3 % custom events.',
  );
  for (const run of runs) {
    out();
    out(`### ${run.engine}`);
    out();
    out(`Seeded ${run.seeded.events.toLocaleString('en')} events in ${run.seeded.seconds.toFixed(0)} s.`);
    out();
    out(
      `**In process**, one query at a time on the same database: the fast path (\`StatsService.query(…, 10)\`, the page the API and the share page ask for) ` +
        `against the one-query form (\`queryDirect\`, what the stats ran before). "first" is the first query of the run (it builds the closed days' totals); ` +
        `p50/p99 over ${FAST_RUNS} runs after it (the one-query form: ${DIRECT_RUNS}). The share page: its eight queries (\`loadTraffic\`).`,
    );
    for (const site of new Set(run.inProcess.map((r) => r.site))) {
      out();
      out(`${site.label}:`);
      out();
      out(
        '| name | values | fast: first ms | fast p50 ms | fast p99 ms | one query p50 ms | one query p99 ms | one query ÷ fast (p50) |',
      );
      out('|---|---|---|---|---|---|---|---|');
      for (const r of run.inProcess.filter((x) => x.site === site)) {
        out(
          `| ${r.name} | ${r.name === 'share page' ? '' : r.values.toLocaleString('en')} | ${r.fast.first.toFixed(1)} | ${r.fast.p50.toFixed(1)} | ${r.fast.p99.toFixed(1)} | ` +
            `${r.direct.p50.toFixed(1)} | ${r.direct.p99.toFixed(1)} | ${(r.direct.p50 / r.fast.p50).toFixed(1)} |`,
        );
      }
      const fastWorst = Math.max(...run.inProcess.filter((x) => x.site === site).map((r) => r.fast.p99));
      out();
      out(`Slowest fast p99: ${fastWorst.toFixed(1)} ms (target ≤ 50 ms).`);
    }
    out();
    out(
      "**The next day**, in process: yesterday's share page with nothing kept (it sums the 30 days), then today's first, which builds each list's " +
        'range from the one kept a day off (the day that left and the day that closed read again):',
    );
    out();
    out("| | first view, nothing kept | the next day's first view | ratio |");
    out('|---|---|---|---|');
    for (const d of run.nextDay)
      out(
        `| ${d.site.label} | ${d.yesterday.toFixed(0)} ms | ${d.derived.toFixed(0)} ms | ${(d.yesterday / d.derived).toFixed(1)} |`,
      );
    out();
    out(
      `Closed days' totals kept after the in-process runs: ${run.cache.entries} ranges, ${mb(run.cache.bytes)} (estimate; budget 64 MB).`,
    );
    out();
    out(
      `**Through HTTP** against \`rankscope serve\` (client-side time on loopback, one request at a time; "first" is the server's first, which builds the totals): ` +
        `the share page \`/websites/{id}\` (${FAST_RUNS} runs) and \`GET /api/v1/stats/{id}?name=…\` (20 runs).`,
    );
    out();
    const httpSites = [...new Set(run.http.map((h) => h.site))];
    out(`| | ${httpSites.map((site) => `${site.label}: first / p50 / p99 ms`).join(' | ')} |`);
    out(`|---|${httpSites.map(() => '---|').join('')}`);
    for (const name of ['share page', ...STAT_NAMES] as const) {
      const cells = run.http
        .filter((h) => h.name === name)
        .map((h) => `${h.timing.first.toFixed(1)} / ${h.timing.p50.toFixed(1)} / ${h.timing.p99.toFixed(1)}`);
      out(`| ${name} | ${cells.join(' | ')} |`);
    }
    const { idle, loaded, pages, statuses } = run.health;
    out();
    out(
      `**GET /health while ${LOAD_CLIENTS} clients (${LOAD_CLIENTS} addresses through X-Forwarded-For, TRUST_PROXY=1; the public pages' limit off, so every load reaches the stats) load the first website's share page back to back for ${LOAD_MS / 1000} s**, next to /health idle in the same run:`,
    );
    out();
    out('| | requests | p50 ms | p99 ms | max ms | target |');
    out('|---|---|---|---|---|---|');
    out(
      `| /health idle | ${idle.length} | ${percentile(idle, 50).toFixed(1)} | ${percentile(idle, 99).toFixed(1)} | ${idle.at(-1)!.toFixed(1)} | |`,
    );
    out(
      `| /health under the load | ${loaded.length} | ${percentile(loaded, 50).toFixed(1)} | ${percentile(loaded, 99).toFixed(1)} | ${loaded.at(-1)!.toFixed(1)} | p99 < 100 ms |`,
    );
    out(
      `| share page under the load (statuses ${Object.entries(statuses)
        .map(([k, v]) => `${k}: ${v}`)
        .join(
          ', ',
        )}) | ${pages.length} | ${percentile(pages, 50).toFixed(1)} | ${percentile(pages, 99).toFixed(1)} | ${pages.at(-1)!.toFixed(1)} | |`,
    );
    out();
    out(
      `/health p99 under the load ÷ idle: ${(percentile(loaded, 99) / percentile(idle, 99)).toFixed(2)}; share pages served: ${(pages.length / (LOAD_MS / 1000)).toFixed(0)}/s.`,
    );
    out();
    out(
      `**${CSV_EXPORTS} parallel CSV exports** of the first website's page list (\`format=csv\`, ${(run.csv[0].lines - 1).toLocaleString('en')} rows, ` +
        `${mb(run.csv[0].bytes)} each). Server RSS (of it anonymous, i.e. not the database file's mapped pages) before, at its peak and after; target < +100 MB:`,
    );
    out();
    out('| | statuses | all read in | RSS before | peak | growth | anonymous: before / peak / growth |');
    out('|---|---|---|---|---|---|---|');
    run.csv.forEach((c, i) => {
      out(
        `| ${i === 0 ? 'fresh server (the exports build the 30 days: one build for the ten)' : 'after the load (kept)'} | ${[...new Set(c.statuses)].join(', ')} | ${c.seconds.toFixed(1)} s | ` +
          `${mb(c.before.rss)} | ${mb(c.peak.rss)} | **+${mb(c.peak.rss - c.before.rss)}** | ${mb(c.before.anon)} / ${mb(c.peak.anon)} / +${mb(c.peak.anon - c.before.anon)} |`,
      );
    });
  }
  out();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
