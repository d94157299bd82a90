// bench/analytics: website analytics, loopback only, in one run.
//
//   npm run bench -- analytics
//   BENCH_DATABASE_URL=postgres://…  the PostgreSQL of part 2 (default postgres://postgres@127.0.0.1:5432/test,
//                                    a schema of its own, dropped after; `none` leaves PostgreSQL out)
//   BENCH_SECONDS (12), BENCH_CLIENTS (50), BENCH_EVENTS (1,000,000), BENCH_RUNS (100),
//   BENCH_BYTES_EVENTS (32,000), BENCH_ONLY=collection|stats|bytes (one part, while working on it)
//
// 1. Collection: POST /api/event against `rankscope serve` (compiled, its own process, SQLite,
//    EVENT_RATE_LIMIT=0, EVENT_WEBSITE_LIMIT=100000000 (counted per event, never reached: one
//    website gets every event), TRUST_PROXY=1, LOG_LEVEL=warn), against a floor (node:http with the very
//    collection code and no framework: what collecting and storing costs by itself) and against a
//    bare node:http server that reads the request and answers 202 `ok`, each in its own process.
//    wrk (one thread, 50 connections) twice, then autocannon once, the three servers in turn.
//    The requests vary: 2,048 prepared ones cycled (pages with a Zipf-like popularity,
//    referrers, utm campaigns, custom events with props, eight User-Agents, an address each in
//    X-Forwarded-For), so there are thousands of visitors, countries and browsers. Afterwards
//    the database must hold at least every acknowledged event and count each exactly once.
// 2. Stats: a website with 1,000,000 pageviews over 30 days (1,000 pages by Zipf, 50 referrers,
//    campaigns, 40 countries, browser/OS/device mixes, ~330,000 visitors, a diurnal curve),
//    stored through AnalyticsRepository.record() in batches of 5,000, the path the server's
//    writer takes, on SQLite and on PostgreSQL; then every stat name over the 30 days, as the
//    stats API pages it (10 rows), through HTTP against `rankscope serve` when the route exists,
//    else StatsService.query in this process (the report says which).
// 3. Stored bytes per event with every value distinct (a sender inventing a new page path,
//    referrer, source, campaign, language and screen per event, each a new visitor, the long
//    values at the lengths collection keeps): BENCH_BYTES_EVENTS (32,000) events through
//    AnalyticsRepository.record() in batches of 100, the database's growth ÷ events while each
//    dimension still has room (the first ANALYTICS_MAX_VALUES, 10,000) and after the cap, on SQLite
//    (file size after a WAL checkpoint) and PostgreSQL (pg_total_relation_size of every table).
// 4. The tracker: bytes on the wire of GET /js/script.js with gzip accepted, when it exists.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createAccount } from '../src/accounts/accounts.js';
import { AnalyticsRepository, DEFAULT_MAX_VALUES } from '../src/db/analytics-repository.js';
import { type DatabaseHandle, dropSchema, migrateToLatest, openDatabase, refreshStatistics } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { WebsitesRepository } from '../src/db/websites-repository.js';
import { SAMPLE_FIELDS } from '../src/model/dimensions.js';
import type { StoredEvent } from '../src/model/rollup.js';
import { STAT_NAMES, type StatName, StatsService } from '../src/tracking/stats-service.js';
import { formatTimestamp, systemClock } from '../src/time.js';
import { RESULTS, ROOT } from './paths.js';
import { freePort, startRankscope, waitFor } from './server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
/** `collection`, `stats` or `bytes`: one part only, while working on it (the results file then holds that part). */
const ONLY = process.env.BENCH_ONLY ?? null;
const PG_URL =
  process.env.BENCH_DATABASE_URL === 'none'
    ? null
    : (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const DOMAIN = 'shop.example';
/** The collection part's EVENT_WEBSITE_LIMIT: counted for every event, as in production, and never reached. */
const WEBSITE_LIMIT = 100_000_000;
const BYTES_EVENTS = Number(process.env.BENCH_BYTES_EVENTS ?? 32_000);

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

// ---------------------------------------------------------------------------------------------
// Deterministic data: a seeded generator, Zipf-like picks, weighted picks.

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks index i of n with probability ∝ 1 / (i + 1)^s. */
function zipf(n: number, s: number): (random: number) => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1) ** s;
    cumulative[i] = sum;
  }
  return (random) => {
    const target = random * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function weighted<T>(items: [T, number][]): (random: number) => T {
  const total = items.reduce((n, [, w]) => n + w, 0);
  return (random) => {
    let target = random * total;
    for (const [item, w] of items) {
      target -= w;
      if (target < 0) return item;
    }
    return items[items.length - 1][0];
  };
}

const PAGES = Array.from({ length: 1000 }, (_, i) =>
  i === 0
    ? '/'
    : i < 10
      ? `/${['pricing', 'features', 'blog', 'docs', 'about', 'contact', 'signup', 'login', 'changelog'][i - 1]}`
      : `/${['blog', 'docs', 'products'][i % 3]}/item-${i}`,
);
const REFERRERS = [
  'www.google.com',
  'duckduckgo.com',
  't.co',
  'www.bing.com',
  'news.ycombinator.com',
  'www.reddit.com',
  'www.facebook.com',
  'www.linkedin.com',
  'github.com',
  'search.brave.com',
  ...Array.from({ length: 40 }, (_, i) => `blog${i}.example.net`),
];
const CAMPAIGNS = Array.from({ length: 20 }, (_, i) => `campaign-${i}`);
const UTM_SOURCES = ['newsletter', 'twitter', 'facebook', 'linkedin', 'partner'];
const COUNTRIES: [string, string][] = [
  ['US', 'NA'],
  ['DE', 'EU'],
  ['GB', 'EU'],
  ['FR', 'EU'],
  ['IN', 'AS'],
  ['CA', 'NA'],
  ['NL', 'EU'],
  ['BR', 'SA'],
  ['JP', 'AS'],
  ['AU', 'OC'],
  ['ES', 'EU'],
  ['IT', 'EU'],
  ['PL', 'EU'],
  ['SE', 'EU'],
  ['CH', 'EU'],
  ['AT', 'EU'],
  ['BE', 'EU'],
  ['MX', 'NA'],
  ['CN', 'AS'],
  ['KR', 'AS'],
  ['SG', 'AS'],
  ['ID', 'AS'],
  ['TR', 'AS'],
  ['RU', 'EU'],
  ['UA', 'EU'],
  ['CZ', 'EU'],
  ['DK', 'EU'],
  ['NO', 'EU'],
  ['FI', 'EU'],
  ['IE', 'EU'],
  ['PT', 'EU'],
  ['AR', 'SA'],
  ['CO', 'SA'],
  ['ZA', 'AF'],
  ['NG', 'AF'],
  ['EG', 'AF'],
  ['IL', 'AS'],
  ['NZ', 'OC'],
  ['VN', 'AS'],
  ['Unknown', 'Unknown'],
];
/** browser, os, device, weight */
const AGENT_MIX: [[string, string, string], number][] = [
  [['Chrome', 'Windows', 'desktop'], 30],
  [['Chrome', 'Android', 'mobile'], 18],
  [['Mobile Safari', 'iOS', 'mobile'], 16],
  [['Safari', 'Mac OS', 'desktop'], 8],
  [['Edge', 'Windows', 'desktop'], 7],
  [['Firefox', 'Windows', 'desktop'], 4],
  [['Chrome', 'Mac OS', 'desktop'], 6],
  [['Firefox', 'Linux', 'desktop'], 2],
  [['Samsung Browser', 'Android', 'mobile'], 3],
  [['Mobile Safari', 'iOS', 'tablet'], 3],
  [['Chrome', 'Chromium OS', 'desktop'], 1],
  [['Opera', 'Windows', 'desktop'], 1],
];
const RESOLUTIONS = ['1920x1080', '390x844', '1366x768', '1536x864', '414x896', '1440x900', '2560x1440', '360x800', '820x1180'];
const LANGUAGES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP', 'nl-NL', 'it-IT', 'pl-PL', 'sv-SE', 'zh-CN'];
const EVENT_NAMES = ['Signup', 'Download', 'Outbound Link: Click', 'File Download', 'Purchase', 'Newsletter', '404', 'Search'];
/** Share of each UTC hour's traffic: a quiet night, a peak in the European afternoon. */
const HOURS = [2, 1.5, 1.2, 1, 1, 1.2, 2, 3, 4, 5, 5.5, 6, 6, 6.5, 7, 7, 6.5, 6, 5.5, 5, 4.5, 4, 3.5, 2.5];

// ---------------------------------------------------------------------------------------------
// Part 1: collection throughput

interface Measured {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
];

/** The prepared requests wrk cycles through: headers and body of each. */
export interface PreparedRequest {
  headers: Record<string, string>;
  body: string;
}

export function collectionRequests(websiteId: number, count = 2048): PreparedRequest[] {
  const random = prng(42);
  const page = zipf(PAGES.length, 1.1);
  const referrer = zipf(REFERRERS.length, 1.2);
  return Array.from({ length: count }, (_, i) => {
    // Public unicast addresses spread over the whole space, so the geo lookup finds many countries.
    let first = 1 + Math.floor(random() * 222);
    if (first === 10 || first === 127 || first === 100 || first === 172 || first === 192 || first === 169) first = 8;
    const address = `${first}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`;
    const custom = random() < 0.05;
    let url = `https://${random() < 0.1 ? 'www.' : ''}${DOMAIN}${PAGES[page(random())]}`;
    if (random() < 0.08)
      url += `?utm_source=${UTM_SOURCES[i % UTM_SOURCES.length]}&utm_campaign=${CAMPAIGNS[i % CAMPAIGNS.length]}`;
    const body: Record<string, unknown> = custom
      ? { n: EVENT_NAMES[i % EVENT_NAMES.length], u: url, i: websiteId, p: { plan: ['free', 'pro', 'team'][i % 3], step: i % 5 } }
      : {
          n: 'pageview',
          u: url,
          i: websiteId,
          r: random() < 0.55 ? `https://${REFERRERS[referrer(random())]}/` : null,
          sw: Number(RESOLUTIONS[i % RESOLUTIONS.length].split('x')[0]),
          sh: Number(RESOLUTIONS[i % RESOLUTIONS.length].split('x')[1]),
          l: LANGUAGES[i % LANGUAGES.length],
        };
    return {
      headers: {
        // sendBeacon's type for most, application/json for the rest (both are what the tracker sends)
        'content-type': i % 4 === 0 ? 'application/json' : 'text/plain;charset=UTF-8',
        'user-agent': UAS[Math.floor(random() * UAS.length)],
        'x-forwarded-for': address,
      },
      body: JSON.stringify(body),
    };
  });
}

/** wrk's Lua: the prepared requests formatted once, then cycled; the summary as JSON. */
export function wrkScript(requests: PreparedRequest[]): string {
  const lua = (s: string) => JSON.stringify(s); // ASCII only: JSON's escapes are Lua's
  return `
local specs = {
${requests
  .map(
    (r) =>
      `  { ${lua(r.body)}, { ${Object.entries(r.headers)
        .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
        .join(', ')} } },`,
  )
  .join('\n')}
}
local prepared = {}
local n = 0
init = function(args)
  for i, spec in ipairs(specs) do prepared[i] = wrk.format('POST', '/api/event', spec[2], spec[1]) end
end
request = function()
  n = n + 1
  if n > #prepared then n = 1 end
  return prepared[n]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"duration":%d,"errors":%d,"non2xx":%d,"p50":%f,"p99":%f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end`;
}

type Client = 'wrk' | 'autocannon';

async function wrk(url: string, script: string, seconds: number): Promise<Measured> {
  const { stdout } = await promisify(execFile)(
    'wrk',
    ['-t1', `-c${CLIENTS}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-s', script, url],
    { maxBuffer: 1 << 20 },
  );
  const r = JSON.parse(/RESULT (\{.*\})/.exec(stdout)![1]) as {
    requests: number;
    duration: number;
    errors: number;
    non2xx: number;
    p50: number;
    p99: number;
  };
  return { rps: Math.round(r.requests / (r.duration / 1e6)), ...r };
}

/** autocannon through the same prepared requests, each connection taking the next one. */
async function cannon(url: string, requests: PreparedRequest[], seconds: number): Promise<Measured> {
  let next = 0;
  const result = await autocannon({
    url,
    connections: CLIENTS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/event',
        setupRequest: (request) => {
          const r = requests[next++ % requests.length];
          return { ...request, headers: r.headers, body: r.body };
        },
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

function bareServer(port: number): string {
  return `import { createServer } from 'node:http';
createServer((req, res) => {
  let length = 0;
  req.on('data', (chunk) => (length += chunk.length));
  req.on('end', () => {
    res.writeHead(length > 0 ? 202 : 400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 2 });
    res.end('ok');
  });
}).listen(${port}, '127.0.0.1');
`;
}

/**
 * The floor: node:http and the very collection code `serve` runs (parseEventBody, the
 * EventCollector with its caches, the group-commit EventWriter and the store `serve` picks: on
 * its own SQLite file, the analytics write thread), compiled like the rest of the benchmark, and
 * no framework: what collecting and durably storing an event costs before any routing, hooks,
 * headers or logging.
 */
export function floorServer(port: number, databaseUrl: string): string {
  const src = new URL('../src/', import.meta.url).href;
  return `import { createServer } from 'node:http';
const src = ${JSON.stringify(src)};
const { openDatabase } = await import(src + 'db/connection.js');
const { WebsitesRepository } = await import(src + 'db/websites-repository.js');
const { AnalyticsRepository } = await import(src + 'db/analytics-repository.js');
const { EventCollector } = await import(src + 'tracking/collector.js');
const { EventWriter } = await import(src + 'tracking/event-writer.js');
const { analyticsEventStore } = await import(src + 'db/analytics-write-thread.js');
const { GeoLookup } = await import(src + 'tracking/client-info.js');
const { WindowCounter } = await import(src + 'limits/window-counter.js');
const { parseEventBody } = await import(src + 'tracking/event-input.js');
const { systemClock: clock } = await import(src + 'time.js');
const database = await openDatabase(${JSON.stringify(databaseUrl)});
const analytics = new AnalyticsRepository(database.db, database.engine, clock);
const collector = new EventCollector({
  websites: new WebsitesRepository(database.db, clock),
  analytics,
  writer: new EventWriter(analyticsEventStore(database, analytics)),
  geo: await GeoLookup.open(null),
  clock,
  websiteLimit: { counter: new WindowCounter(null, { warn() {} }), eventsPerSecond: ${WEBSITE_LIMIT} },
});
createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const parsed = parseEventBody(Buffer.concat(chunks).toString());
    if (!parsed.ok) {
      res.writeHead(400, { 'content-length': 0 });
      return res.end();
    }
    const forwarded = req.headers['x-forwarded-for'];
    const address = forwarded ? forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() : req.socket.remoteAddress;
    try {
      const outcome = await collector.collect(parsed.event, { address, userAgent: req.headers['user-agent'] ?? '' });
      res.writeHead(202, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': 2,
        'access-control-allow-origin': '*',
        ...(outcome.stored || outcome.dropped === undefined ? {} : { 'x-event-dropped': outcome.dropped }),
      });
      res.end('ok');
    } catch {
      res.writeHead(503, { 'content-length': 0 });
      res.end();
    }
  });
}).listen(${port}, '127.0.0.1');
`;
}

/** A fresh SQLite database with the account and the website the events name. */
async function collectionDatabase(file: string): Promise<{ databaseUrl: string; websiteId: number }> {
  const databaseUrl = `sqlite:${file}`;
  const handle = await openDatabase(databaseUrl);
  await migrateToLatest(handle);
  const { user } = await createAccount(new UsersRepository(handle.db), 'collect@example.com');
  const website = await new WebsitesRepository(handle.db).create({
    user_id: user.id,
    domain: DOMAIN,
    privacy: 1,
    password_hash: null,
    email: null,
    exclude_bots: 1,
    exclude_ips: null,
    exclude_params: null,
  });
  await handle.close();
  return { databaseUrl, websiteId: website.id };
}

async function collection(dir: string, procs: ChildProcess[]): Promise<void> {
  const ours = await collectionDatabase(join(dir, 'collect.db'));
  const floorDb = await collectionDatabase(join(dir, 'floor.db'));
  if (floorDb.websiteId !== ours.websiteId) throw new Error('the two databases should name the same website');
  const requests = collectionRequests(ours.websiteId);

  const { proc, api } = await startRankscope({
    DATABASE_URL: ours.databaseUrl,
    EVENT_RATE_LIMIT: '0',
    EVENT_WEBSITE_LIMIT: String(WEBSITE_LIMIT),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  procs.push(proc);
  const spawnScript = async (name: string, source: (port: number) => string) => {
    const port = await freePort();
    const file = join(dir, name);
    writeFileSync(file, source(port));
    procs.push(spawn(process.execPath, [file], { stdio: ['ignore', 'ignore', 'inherit'] }));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(url);
    return url;
  };
  const bare = await spawnScript('bare.mjs', bareServer);
  const floor = await spawnScript('floor.mjs', (port) => floorServer(port, floorDb.databaseUrl));
  const targets = { ours: api, floor, bare };

  for (const url of [api, floor]) {
    for (const r of requests.slice(0, 16)) {
      const res = await fetch(`${url}/api/event`, { method: 'POST', headers: r.headers, body: r.body });
      if (res.status !== 202 || res.headers.get('x-event-dropped')) {
        throw new Error(
          `${url}: the sample event was not stored: ${res.status} ${res.headers.get('x-event-dropped')} ${await res.text()}`,
        );
      }
    }
  }
  const script = join(dir, 'events.lua');
  writeFileSync(script, wrkScript(requests));

  type Round = { client: Client } & Record<keyof typeof targets, Measured>;
  const run = async (client: Client, url: string, seconds: number) =>
    client === 'wrk' ? wrk(url, script, seconds) : cannon(url, requests, seconds);
  // Warm all three (JIT, SQLite's files, the caches), then alternate measured rounds.
  for (const url of Object.values(targets)) await run('wrk', url, 3);
  const rounds: Round[] = [];
  for (const client of ['wrk', 'wrk', 'autocannon'] as Client[]) {
    const round = { client } as Round;
    for (const [name, url] of Object.entries(targets) as [keyof typeof targets, string][])
      round[name] = await run(client, url, SECONDS);
    rounds.push(round);
    console.log(`${client}: ours ${round.ours.rps}/s, floor ${round.floor.rps}/s, bare ${round.bare.rps}/s`);
  }

  // Every acknowledged event is stored and counted once (the clients' counts leave out the
  // warm-up and the responses still in flight when they stop, so stored ≥ acknowledged).
  const handle = await openDatabase(ours.databaseUrl);
  const stored = Number(
    (
      await handle.db
        .selectFrom('analytics_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rolled = await handle.db
    .selectFrom('analytics_rollups')
    .select(['dimension', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('dimension', 'in', ['pageviews', 'event'])
    .groupBy('dimension')
    .execute();
  const count = (d: string) => Number(rolled.find((r) => r.dimension === d)?.n ?? 0);
  const acknowledged = rounds.reduce((n, r) => n + r.ours.requests - r.ours.non2xx, 0);
  const visitorsDistinct = Number(
    (
      await handle.db
        .selectFrom('analytics_events')
        .select((eb) => eb.fn.count<number>('visitor').distinct().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await handle.close();

  const fmt = (m: Measured) =>
    `${m.rps.toLocaleString('en')}/s · p50 ${m.p50.toFixed(1)} ms · p99 ${m.p99.toFixed(1)} ms${m.non2xx + m.errors ? ` · **${m.non2xx} non-2xx, ${m.errors} errors**` : ''}`;
  const ratio = (a: Measured, b: Measured) => (a.rps / b.rps).toFixed(2);
  out(`## 1. Collection: POST /api/event on SQLite, ${CLIENTS} connections, ${SECONDS} s per measurement`);
  out();
  out(
    '| client | Rankscope (`rankscope serve`) | floor: node:http + the same collection code | bare node:http, 202 `ok` | Rankscope ÷ bare | floor ÷ bare | Rankscope ÷ floor |',
  );
  out('|---|---|---|---|---|---|---|');
  for (const r of rounds) {
    out(
      `| ${r.client} | ${fmt(r.ours)} | ${fmt(r.floor)} | ${fmt(r.bare)} | ${ratio(r.ours, r.bare)} | ${ratio(r.floor, r.bare)} | ${ratio(r.ours, r.floor)} |`,
    );
  }
  out();
  out(
    `Requests: ${requests.length.toLocaleString('en')} prepared events cycled (pageviews over ${PAGES.length.toLocaleString('en')} pages by a Zipf-like ` +
      `popularity, referrers, utm campaigns, screen sizes, languages; 5% custom events with props; JSON and sendBeacon's text/plain), ` +
      `8 User-Agents, a public address each in X-Forwarded-For (TRUST_PROXY=1): ${visitorsDistinct.toLocaleString('en')} visitors. ` +
      'wrk runs one thread (-t1), autocannon runs in this process; on two cores the client takes one, the server the other.',
  );
  out();
  out(
    `Rankscope's database afterwards: ${stored.toLocaleString('en')} events stored for ${acknowledged.toLocaleString('en')} acknowledged in the measured runs ` +
      `(plus the warm-up and 16 sample events); rollups ${count('pageviews').toLocaleString('en')} pageviews + ${count('event').toLocaleString('en')} custom events ` +
      `= ${(count('pageviews') + count('event')).toLocaleString('en')}: ${count('pageviews') + count('event') === stored ? 'each stored event counted once' : '**MISMATCH with the stored events**'}.`,
  );
  const wrkRounds = rounds.filter((r) => r.client === 'wrk');
  const best = Math.max(...wrkRounds.map((r) => r.ours.rps));
  const ratios = wrkRounds.map((r) => r.ours.rps / r.bare.rps);
  out();
  out(
    `Targets (wrk): ≥ 5,000 events/s: ${best >= 5000 ? 'met' : 'missed'} (best ${best.toLocaleString('en')}/s); ` +
      `≥ 0.35 × bare: ${Math.max(...ratios) >= 0.35 ? 'met' : 'missed'} (${ratios.map((r) => r.toFixed(2)).join(', ')}); ` +
      `0 non-2xx: ${rounds.every((r) => r.ours.non2xx === 0 && r.ours.errors === 0) ? 'met' : 'missed'}.`,
  );
  out();
}

// ---------------------------------------------------------------------------------------------
// Part 2: stats on a website with 1,000,000 pageviews

const FROM = '2026-10-01';
const DAYS = 30;
const dayOf = (i: number) => new Date(Date.parse(`${FROM}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
const TO = dayOf(DAYS - 1);

/** One day's events in arrival order: sessions of visitors, each with its pages and attributes. */
function dayEvents(websiteId: number, day: number, pageviews: number, random: () => number): StoredEvent[] {
  const page = zipf(PAGES.length, 1.1);
  const referrer = zipf(REFERRERS.length, 1.2);
  const country = zipf(COUNTRIES.length, 1.0);
  const agent = weighted(AGENT_MIX);
  const hour = weighted(HOURS.map((w, h) => [h, w] as [number, number]));
  const start = Date.parse(`${dayOf(day)}T00:00:00Z`);
  const events: StoredEvent[] = [];
  let views = 0;
  let visitor = 0;
  while (views < pageviews) {
    const id = createHash('sha256').update(`${day}/${visitor++}`).digest('base64url').slice(0, 22);
    const [browser, os, device] = agent(random());
    const [countryCode, continent] = COUNTRIES[country(random())];
    const resolution = device === 'desktop' ? RESOLUTIONS[Math.floor(random() * 4)] : RESOLUTIONS[4 + Math.floor(random() * 5)];
    const language = random() < 0.9 ? LANGUAGES[Math.floor(random() * random() * LANGUAGES.length)] : null;
    // One visit, a second one for about one visitor in ten, hours later.
    let at = start + hour(random()) * 3_600_000 + Math.floor(random() * 3_600_000);
    for (let visit = 0; visit < (random() < 0.1 ? 2 : 1); visit++) {
      const campaign = random() < 0.08 ? Math.floor(random() * CAMPAIGNS.length) : null;
      const ref = random() < 0.55 ? REFERRERS[referrer(random())] : null;
      const length = 1 + Math.floor(-Math.log(1 - random()) * 2.2); // about 3 pages a visit
      for (let p = 0; p < length && views < pageviews; p++) {
        if (at >= start + 86_400_000) break;
        const first = p === 0;
        const base = {
          ...SAMPLE_FIELDS,
          websiteId,
          at,
          createdAt: formatTimestamp(new Date(at)),
          day: dayOf(day),
          hour: new Date(at).toISOString().slice(11, 13),
          page: PAGES[page(random())],
          visitor: id,
          referrer: first ? ref : null,
          source: first ? (campaign !== null ? UTM_SOURCES[campaign % UTM_SOURCES.length] : ref) : null,
          campaign: first && campaign !== null ? CAMPAIGNS[campaign] : null,
          browser,
          os,
          device,
          country: countryCode,
          continent,
          city: null,
          language,
          resolution,
        };
        events.push({ ...base, name: 'pageview', props: null });
        views++;
        if (random() < 0.03) {
          events.push({
            ...base,
            at: at + 1000,
            name: EVENT_NAMES[Math.floor(random() * random() * EVENT_NAMES.length)],
            props: JSON.stringify({ plan: 'pro' }),
          });
        }
        at += 10_000 + Math.floor(random() * 170_000);
      }
      at += 3_600_000 + Math.floor(random() * 4 * 3_600_000);
    }
  }
  return events.sort((a, b) => a.at - b.at);
}

interface Seeded {
  websiteId: number;
  key: string;
  seconds: number;
  events: number;
  visitors: number;
}

async function seed(handle: DatabaseHandle): Promise<Seeded> {
  await migrateToLatest(handle);
  const { user, key } = await createAccount(new UsersRepository(handle.db), 'stats@example.com');
  const website = await new WebsitesRepository(handle.db).create({
    user_id: user.id,
    domain: DOMAIN,
    privacy: 1,
    password_hash: null,
    email: null,
    exclude_bots: 1,
    exclude_ips: null,
    exclude_params: null,
  });
  const repo = new AnalyticsRepository(handle.db, handle.engine, systemClock);
  const random = prng(7);
  const started = performance.now();
  let events = 0;
  for (let day = 0; day < DAYS; day++) {
    const perDay = Math.floor(EVENTS / DAYS) + (day < EVENTS % DAYS ? 1 : 0);
    const batch = dayEvents(website.id, day, perDay, random);
    for (let i = 0; i < batch.length; i += 5000) await repo.record(batch.slice(i, i + 5000));
    events += batch.length;
    if ((day + 1) % 10 === 0)
      console.log(`seeding ${handle.engine}: ${day + 1}/${DAYS} days, ${events.toLocaleString('en')} events`);
  }
  const seconds = (performance.now() - started) / 1000;
  // what `serve` does at start and hourly (PostgreSQL's autovacuum analyses by itself, later)
  await refreshStatistics(handle);
  if (handle.engine === 'postgres') await sql`analyze`.execute(handle.db);
  const visitors = await new StatsService(repo).query({ websiteId: website.id, name: 'visitors', from: FROM, to: TO });
  return { websiteId: website.id, key, seconds, events, visitors: visitors.rows.reduce((n, r) => n + r.count, 0) };
}

interface Latency {
  name: StatName;
  p50: number;
  p99: number;
  runs: number;
  total: number;
  top: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Each name RUNS times (after 3 unmeasured), at most ~8 s per name. */
async function timeNames(ask: (name: StatName) => Promise<{ total: number; top: string }>): Promise<Latency[]> {
  const results: Latency[] = [];
  for (const name of STAT_NAMES) {
    let answer = await ask(name);
    for (let i = 0; i < 2; i++) await ask(name);
    const times: number[] = [];
    const deadline = performance.now() + 8000;
    while (times.length < RUNS && (times.length < 20 || performance.now() < deadline)) {
      const t0 = performance.now();
      answer = await ask(name);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    results.push({ name, p50: percentile(times, 50), p99: percentile(times, 99), runs: times.length, ...answer });
  }
  return results;
}

async function stats(
  engine: 'sqlite' | 'postgres',
  dir: string,
  procs: ChildProcess[],
  viaHttp: boolean,
): Promise<{ seeded: Seeded; latencies: Latency[] }> {
  const schema = `bench_analytics_${randomBytes(3).toString('hex')}`;
  const file = join(dir, 'stats.db');
  let databaseUrl: string;
  if (engine === 'postgres') {
    const u = new URL(PG_URL!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
  } else databaseUrl = `sqlite:${file}`;
  const handle = await openDatabase(engine === 'postgres' ? PG_URL! : databaseUrl, engine === 'postgres' ? { schema } : {});
  try {
    const seeded = await seed(handle);
    console.log(`seeded ${seeded.events} events (${engine}) in ${seeded.seconds.toFixed(1)} s`);
    let latencies: Latency[];
    if (viaHttp) {
      const { proc, api } = await startRankscope({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
      procs.push(proc);
      latencies = await timeNames(async (name) => {
        const res = await fetch(
          `${api}/api/v1/stats/${seeded.websiteId}?name=${name}${name === 'prop' ? '&prop=plan' : ''}&from=${FROM}&to=${TO}`,
          {
            headers: { authorization: `Bearer ${seeded.key}`, accept: 'application/json' },
          },
        );
        const body = (await res.json()) as { data: { value: string; count: number }[]; meta?: { total?: number } };
        if (res.status !== 200) throw new Error(`stats ${name}: ${res.status} ${JSON.stringify(body)}`);
        return {
          total: body.meta?.total ?? body.data.length,
          top: body.data[0] ? `${body.data[0].value} ${body.data[0].count}` : '',
        };
      });
      proc.kill('SIGTERM');
    } else {
      const service = new StatsService(new AnalyticsRepository(handle.db, handle.engine, systemClock));
      latencies = await timeNames(async (name) => {
        const page = await service.query(
          { websiteId: seeded.websiteId, name, prop: name === 'prop' ? 'plan' : null, from: FROM, to: TO },
          10,
          0,
        );
        return { total: page.total, top: page.rows[0] ? `${page.rows[0].value} ${page.rows[0].count}` : '' };
      });
    }
    return { seeded, latencies };
  } finally {
    await handle.close();
    if (engine === 'postgres') await dropSchema(PG_URL!, schema).catch(() => {});
    else rmSync(file, { force: true });
  }
}

async function postgresReachable(): Promise<boolean> {
  if (!PG_URL) return false;
  try {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function statsPart(dir: string, procs: ChildProcess[], viaHttp: boolean): Promise<void> {
  const engines: ('sqlite' | 'postgres')[] = ['sqlite'];
  if (await postgresReachable()) engines.push('postgres');
  const measured: { engine: string; seeded: Seeded; latencies: Latency[] }[] = [];
  for (const engine of engines) measured.push({ engine, ...(await stats(engine, dir, procs, viaHttp)) });

  out(
    `## 2. Stats: every name over ${DAYS} days (${FROM} to ${TO}), limit 10, on a website with ${EVENTS.toLocaleString('en')} pageviews`,
  );
  out();
  out(
    viaHttp
      ? 'Measured through HTTP: `GET /api/v1/stats/{id}?name=…&from=…&to=…` against `rankscope serve`, one request at a time (client-side time).'
      : 'Measured in process: `StatsService.query({…}, 10, 0)` (the stats HTTP route is not on this branch yet), one query at a time; the route adds its HTTP and JSON cost on top.',
  );
  out();
  for (const m of measured) {
    out(
      `- ${m.engine}: seeded through \`AnalyticsRepository.record()\` in batches of 5,000 in ${m.seeded.seconds.toFixed(1)} s ` +
        `(${Math.round(m.seeded.events / m.seeded.seconds).toLocaleString('en')} events/s; ${m.seeded.events.toLocaleString('en')} events with the custom ones, ` +
        `${m.seeded.visitors.toLocaleString('en')} visitors counted over the 30 days)`,
    );
  }
  out();
  out(`| name | ${measured.map((m) => `${m.engine} p50 ms | ${m.engine} p99 ms`).join(' | ')} | values | top value |`);
  out(`|---|${measured.map(() => '---|---|').join('')}---|---|`);
  STAT_NAMES.forEach((name, i) => {
    const first = measured[0].latencies[i];
    out(
      `| ${name} | ${measured.map((m) => `${m.latencies[i].p50.toFixed(1)} | ${m.latencies[i].p99.toFixed(1)}`).join(' | ')} | ${first.total} | ${first.top.replace(/\|/g, '\\|')} |`,
    );
  });
  out();
  out(
    `Runs per name: ${[...new Set(measured.flatMap((m) => m.latencies.map((l) => l.runs)))].join('/')} after 3 unmeasured. ` +
      `Target p50 ≤ 50 ms: ${measured
        .map(
          (m) =>
            `${m.engine} ${m.latencies.every((l) => l.p50 <= 50) ? 'met' : 'missed'} (slowest p50 ${Math.max(...m.latencies.map((l) => l.p50)).toFixed(1)} ms)`,
        )
        .join('; ')}.`,
  );
  out();
}

// ---------------------------------------------------------------------------------------------
// Part 3: stored bytes per event, every value distinct

/** Random letters and digits: values PostgreSQL cannot compress (a run of one letter shrank to a few bytes). */
const NOISE = (() => {
  const random = prng(11);
  return Array.from({ length: 4096 }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 36)]).join('');
})();

/** Event i of a sender that makes every value new: the longest values collection keeps (page 2,000, hosts and utm values 255). */
function distinctEvent(websiteId: number, i: number): StoredEvent {
  const pad = (prefix: string, length: number) => {
    const from = (i * 7919) % (NOISE.length - length);
    return prefix + NOISE.slice(from, from + Math.max(0, length - prefix.length));
  };
  const at = Date.parse('2026-11-02T12:00:00Z') + i;
  const createdAt = formatTimestamp(new Date(at), 0);
  return {
    ...SAMPLE_FIELDS,
    websiteId,
    at,
    createdAt,
    day: createdAt.slice(0, 10),
    hour: createdAt.slice(11, 13),
    name: 'pageview',
    page: pad(`/p/${i}/`, 2000),
    visitor: i.toString(36).padStart(22, '0'),
    referrer: pad(`r${i}.`, 255),
    source: pad(`s${i}-`, 255),
    campaign: pad(`c${i}-`, 255),
    browser: 'Chrome',
    os: 'Windows',
    device: 'desktop',
    country: 'US',
    continent: 'NA',
    city: null,
    language: `en-${i.toString(36)}`,
    resolution: `${1 + (i % 100_000)}x${1 + Math.floor(i / 100_000)}`,
    props: null,
  };
}

/** What the database takes on disk: SQLite's file after a checkpoint, PostgreSQL's tables with their indexes and TOAST. */
async function databaseBytes(handle: DatabaseHandle, schema: string | null): Promise<number> {
  if (handle.engine === 'sqlite') {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(handle.db);
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(handle.db);
    const size = await sql<{ page_size: number }>`pragma page_size`.execute(handle.db);
    return Number(pages.rows[0].page_count) * Number(size.rows[0].page_size);
  }
  const { rows } = await sql<{ bytes: string }>`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relkind = 'r'`.execute(handle.db);
  return Number(rows[0].bytes);
}

interface StoredBytes {
  engine: string;
  before: number;
  after: number;
  beforeEvents: number;
  afterEvents: number;
  pageRows: number;
  stored: number;
}

async function storedBytes(engine: 'sqlite' | 'postgres', dir: string): Promise<StoredBytes> {
  const schema = engine === 'postgres' ? `bench_bytes_${randomBytes(3).toString('hex')}` : null;
  const file = join(dir, 'bytes.db');
  const handle = engine === 'postgres' ? await openDatabase(PG_URL!, { schema: schema! }) : await openDatabase(`sqlite:${file}`);
  try {
    await migrateToLatest(handle);
    const { user } = await createAccount(new UsersRepository(handle.db), 'bytes@example.com');
    const website = await new WebsitesRepository(handle.db).create({
      user_id: user.id,
      domain: DOMAIN,
      privacy: 1,
      password_hash: null,
      email: null,
      exclude_bots: 1,
      exclude_ips: null,
      exclude_params: null,
    });
    const repo = new AnalyticsRepository(handle.db, handle.engine, systemClock);
    const cap = repo.maxValues;
    const record = async (from: number, to: number) => {
      for (let i = from; i < to; i += 100) {
        const failures = await repo.record(
          Array.from({ length: Math.min(100, to - i) }, (_, j) => distinctEvent(website.id, i + j)),
        );
        if (failures.length > 0) throw new Error(`${engine}: ${failures.length} events not stored: ${failures[0].error.message}`);
      }
    };
    const empty = await databaseBytes(handle, schema);
    const beforeEvents = Math.min(cap, BYTES_EVENTS);
    await record(0, beforeEvents);
    const full = await databaseBytes(handle, schema);
    await record(beforeEvents, BYTES_EVENTS);
    const end = await databaseBytes(handle, schema);
    const pageRows = Number(
      (
        await handle.db
          .selectFrom('analytics_rollups')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('website_id', '=', website.id)
          .where('dimension', '=', 'page')
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.log(`stored bytes (${engine}): ${empty} → ${full} → ${end}`);
    return {
      engine,
      before: (full - empty) / beforeEvents,
      after: BYTES_EVENTS > beforeEvents ? (end - full) / (BYTES_EVENTS - beforeEvents) : Number.NaN,
      beforeEvents,
      afterEvents: BYTES_EVENTS - beforeEvents,
      pageRows,
      stored: await repo.countEvents(website.id),
    };
  } finally {
    await handle.close();
    if (schema) await dropSchema(PG_URL!, schema).catch(() => {});
    else rmSync(file, { force: true });
  }
}

async function storedBytesPart(dir: string): Promise<void> {
  const engines: ('sqlite' | 'postgres')[] = ['sqlite'];
  if (await postgresReachable()) engines.push('postgres');
  const measured: StoredBytes[] = [];
  for (const engine of engines) measured.push(await storedBytes(engine, dir));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  out(
    `## 3. Stored bytes per event, every value distinct (${BYTES_EVENTS.toLocaleString('en')} events, ANALYTICS_MAX_VALUES ${DEFAULT_MAX_VALUES.toLocaleString('en')})`,
  );
  out();
  out(
    'Each event a new visitor with a new page path (2,000 characters), referrer host, utm_source and utm_campaign (255 each), ' +
      'language and screen: what a sender inventing values per event makes collection store. Through `AnalyticsRepository.record()` ' +
      "in batches of 100 (the writer's path); the database's growth ÷ events.",
  );
  out();
  out(
    '| engine | before the cap (first events of the day) | after the cap (values counted under `(other)`) | `page` rollup rows at the end | events stored |',
  );
  out('|---|---|---|---|---|');
  for (const m of measured) {
    out(
      `| ${m.engine} | ${kb(m.before)} per event (${m.beforeEvents.toLocaleString('en')} events) | ${kb(m.after)} per event (${m.afterEvents.toLocaleString('en')} events) | ${m.pageRows.toLocaleString('en')} | ${m.stored.toLocaleString('en')} |`,
    );
  }
  out();
  out(
    'Before the cap an event adds its raw row, its visitor row and a rollup row (and its index entry) in every dimension it brings a new value to; ' +
      'after it, its raw row and its visitor row, and an increment of the `(other)` rows.',
  );
  out();
}

/** GET /js/script.js as a browser asks for it (gzip accepted): the bytes on the wire, and the plain script's. */
async function trackerSize(api: string): Promise<string> {
  const get = (headers: Record<string, string>) =>
    new Promise<{ status: number; encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${api}/js/script.js`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  const served = await get({ 'accept-encoding': 'gzip, deflate, br' });
  if (served.status !== 200)
    return `TODO: not measured. GET /js/script.js answered ${served.status}: the tracker script is not on this branch.`;
  const plain = await get({});
  return (
    `GET /js/script.js with \`Accept-Encoding: gzip, deflate, br\`: **${served.bytes.length.toLocaleString('en')} bytes** on the wire ` +
    `(Content-Encoding: ${served.encoding ?? 'none'}); the plain script is ${plain.bytes.length.toLocaleString('en')} bytes ` +
    `(gzip -9 of it here: ${gzipSync(plain.bytes, { level: 9 }).length.toLocaleString('en')} bytes).`
  );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-analytics-'));
  const procs: ChildProcess[] = [];
  try {
    // bin/ compiles dist/ when src/ is newer; do it now rather than inside a timed start.
    const built = spawnSync(process.execPath, ['bin/rankscope.mjs', 'help'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (built.status !== 0) throw new Error('rankscope did not build');

    out('# bench/analytics');
    out();
    const cpu = cpus();
    out(
      `${new Date().toISOString()} · ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'} · Node ${process.version} · ` +
        `load average at start ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} · \`rankscope serve\` compiled (dist/), its own process`,
    );
    out();

    if (ONLY === null || ONLY === 'collection') await collection(dir, procs);
    for (const p of procs.splice(0)) p.kill('SIGTERM');

    // What this build serves: the tracker, and whether the stats route exists (401 without a key).
    const probe = await startRankscope({ DATABASE_URL: `sqlite:${join(dir, 'probe.db')}`, LOG_LEVEL: 'warn' });
    const tracker = await trackerSize(probe.api);
    const viaHttp = (await fetch(`${probe.api}/api/v1/stats/1?name=pageviews&from=${FROM}&to=${TO}`)).status !== 404;
    probe.proc.kill('SIGTERM');
    if (ONLY === null || ONLY === 'stats') await statsPart(dir, procs, viaHttp);
    if (ONLY === null || ONLY === 'bytes') await storedBytesPart(dir);

    out('## 4. Tracker');
    out();
    out(tracker);
    out();
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'analytics.md'), `${lines.join('\n')}\n`);
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run, unless imported for its request generator (a profiling session, say).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
