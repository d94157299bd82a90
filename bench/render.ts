// bench/render: a rendered crawl (render=1) against a bare playwright-core loop rendering the
// same pages, in one run (docs/rendering.md).
//
//   npm run bench -- render [--pages N] [--rounds N]
//   --pages N    the site's size (200)
//   --rounds N   rounds (2); each round runs the bare loop and our crawl once, in alternated order
//
// The site (node:http on 127.0.0.1 in this process): `/` and `/p/1` … `/p/<N-1>`. Each page's
// HTML has a title, a description, an h1, a paragraph, a link to `/` and a deferred script
// (`/app.js`) which fetches `/data/<n>.json` and builds from it a second paragraph (150 words)
// and the links to the page's children (pages 5n+1 … 5n+5): every page but `/` is linked only
// by a script, so a crawl that does not render finds one page.
//
// (a) Bare: playwright-core launches the same Chromium with the same switches as ours (no proxy),
//     and renders the N URLs two at a time (RENDER_CONCURRENCY's default), each in a fresh
//     context: goto (load), network idle, content(), context closed. pages/s = N ÷ wall time.
// (b) Ours: `rankscope serve` (compiled, fresh SQLite, RENDER_CONCURRENCY=2, CRAWL_CONCURRENCY=2)
//     and POST /api/v1/crawls render=1 max_pages=N sitemap=0 external=0, polled until it has
//     finished: every page fetched, rendered through the guard proxy, both sides outlined, analysed
//     (33 checks) and stored, the issue pass at the end. pages/s = pages_done ÷ (POST → finished).
//     Memory: every 100 ms, the RSS of the server process plus that of each of its descendants
//     (Chromium's processes, the engine's worker threads are in the server's), summed; the peak is
//     kept. RSS counts pages shared between Chromium's processes once per process, so the sum
//     overstates; the PSS sum (smaps_rollup, shared pages split) is given beside it.
// Both are warm: the bare loop renders one page before its timing starts, and the server renders
// one report (which starts its browser and its engine workers) before the first crawl.
// Ratio = our pages/s ÷ the bare loop's, per round (same minutes), median kept. Targets: ratio
// ≥ 0.8, peak RSS (server + browser) ≤ 1 GB.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../src/browser/chromium.js';
import { createAccount } from '../src/accounts/accounts.js';
import { migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { RESULTS, ROOT } from './paths.js';
import { startRankscope } from './server.js';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive integer`);
  return value;
}

const PAGES = argument('--pages', 200);
const ROUNDS = argument('--rounds', 2);
const CONCURRENCY = 2;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_RATIO = 0.8;
const TARGET_RSS = 1e9;
/** The children of page n. */
const FANOUT = 5;

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–';
const mb = (bytes: number) => `${fmt(bytes / 1e6)} MB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// ---------------------------------------------------------------------------------------------
// The site.

/** Deterministic words for page n, part p (no two pages share their text). */
function words(n: number, part: number, count: number): string {
  let x = (n * 7919 + part * 104729 + 13) >>> 0;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return `word${(x >>> 8) % 50000}`;
  }).join(' ');
}

const pathOf = (n: number) => (n === 0 ? '/' : `/p/${n}`);

function pageHtml(n: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rendered bench page ${n}</title>
<meta name="description" content="Page ${n} of the rendered crawl benchmark site, whose links come from a script.">
<meta name="viewport" content="width=device-width, initial-scale=1"><script src="/app.js" defer></script></head>
<body><h1>Bench page ${n}</h1><p>${words(n, 0, 80)}</p><div id="app">Loading…</div><a href="/">Home</a></body></html>`;
}

const APP_JS = `
const match = /^\\/p\\/(\\d+)$/.exec(location.pathname);
const n = match ? Number(match[1]) : 0;
fetch('/data/' + n + '.json').then((r) => r.json()).then((data) => {
  const app = document.getElementById('app');
  app.textContent = '';
  const p = document.createElement('p');
  p.textContent = data.text;
  app.appendChild(p);
  const nav = document.createElement('nav');
  for (const href of data.links) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'Page ' + href;
    nav.appendChild(a);
  }
  app.appendChild(nav);
});
`;

function dataOf(n: number): string {
  const links: string[] = [];
  for (let c = FANOUT * n + 1; c <= FANOUT * n + FANOUT && c < PAGES; c++) links.push(pathOf(c));
  return JSON.stringify({ text: words(n, 1, 150), links });
}

interface Site {
  origin: string;
  pageGets: number;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const site = { origin: '', pageGets: 0, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const page = path === '/' ? 0 : /^\/p\/(\d+)$/.exec(path) ? Number(path.slice(3)) : null;
    if (page !== null && page < PAGES) {
      site.pageGets++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(page));
      return;
    }
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
    const data = /^\/data\/(\d+)\.json$/.exec(path);
    if (data && Number(data[1]) < PAGES) {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(dataOf(Number(data[1])));
    }
    if (path === '/warm') return void res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(PAGES + 1));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site.origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  site.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return site;
}

// ---------------------------------------------------------------------------------------------
// Memory of a process tree.

function statusField(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

function pss(pid: number): number {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${all[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').trim();
        if (children) all.push(...children.split(' ').map(Number));
      } catch {}
    }
  }
  return all;
}

interface Sampler {
  stop(): { peakRss: number; peakPss: number; peakServerRss: number; peakProcesses: number };
}

/** Samples the tree under `root` every 100 ms (`self`: leave `root` itself out). */
function sample(root: number, { self = false } = {}): Sampler {
  let peakRss = 0;
  let peakPss = 0;
  let peakServerRss = 0;
  let peakProcesses = 0;
  const tick = () => {
    const pids = tree(root).filter((pid) => !self || pid !== root);
    let rss = 0;
    let proportional = 0;
    for (const pid of pids) {
      rss += statusField(pid, 'VmRSS');
      proportional += pss(pid);
    }
    peakRss = Math.max(peakRss, rss);
    peakPss = Math.max(peakPss, proportional);
    peakServerRss = Math.max(peakServerRss, statusField(root, 'VmRSS'));
    peakProcesses = Math.max(peakProcesses, pids.length);
  };
  tick();
  const timer = setInterval(tick, 100);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return { peakRss, peakPss, peakServerRss, peakProcesses };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// (a) The bare loop.

interface Run {
  pages: number;
  seconds: number;
  rate: number;
  loadAtStart: string;
  peakRss: number;
  peakPss: number;
  note: string;
}

async function bare(site: Site): Promise<Run> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: chromiumArgs(512) });
  const renderOne = async (url: string) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
      await page.waitForLoadState('networkidle', { timeout: 15_000 });
      return await page.content();
    } finally {
      await context.close();
    }
  };
  try {
    await renderOne(`${site.origin}/warm`);
    const loadAtStart = load();
    // The bench process's own children: the browser's processes (the site serves in this process).
    const sampler = sample(process.pid, { self: true });
    const urls = Array.from({ length: PAGES }, (_, n) => `${site.origin}${pathOf(n)}`);
    let next = 0;
    let links = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < urls.length) {
          const html = await renderOne(urls[next++]);
          links += (html.match(/<a href="\/p\//g) ?? []).length;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const memory = sampler.stop();
    return {
      pages: PAGES,
      seconds,
      rate: PAGES / seconds,
      loadAtStart,
      peakRss: memory.peakRss,
      peakPss: memory.peakPss,
      note: `${links} script-built links seen in the DOMs`,
    };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (b) Ours.

interface Server {
  api: string;
  key: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServer(dir: string): Promise<Server> {
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  const handle = await openDatabase(databaseUrl);
  await migrateToLatest(handle);
  const account = await createAccount(new UsersRepository(handle.db), 'bench@example.com');
  await handle.close();
  const { proc, api } = await startRankscope({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_MINUTE: '0',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    CHROMIUM_PATH: CHROMIUM,
    RENDER_CONCURRENCY: String(CONCURRENCY),
    CRAWL_CONCURRENCY: '2',
    CRAWL_MAX_PAGES: String(Math.max(PAGES, 1000)),
  });
  return {
    api,
    key: account.key,
    pid: proc.pid!,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

async function call(server: Server, method: string, path: string, form?: Record<string, string>) {
  const res = await fetch(`${server.api}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.key}`,
      accept: 'application/json',
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text).data;
}

async function crawl(server: Server, site: Site, render: boolean): Promise<Run & { issues: number; found: number }> {
  const loadAtStart = load();
  const sampler = sample(server.pid);
  const started = performance.now();
  const made = await call(server, 'POST', '/crawls', {
    url: `${site.origin}/`,
    max_pages: String(PAGES),
    sitemap: '0',
    external: '0',
    render: render ? '1' : '0',
  });
  let crawl = made;
  while (crawl.status === 'queued' || crawl.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    crawl = await call(server, 'GET', `/crawls/${made.id}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const memory = sampler.stop();
  if (crawl.status !== 'finished') throw new Error(`crawl ${made.id} ended ${crawl.status}`);
  return {
    pages: crawl.pages_done,
    found: crawl.pages_found,
    issues: crawl.issues,
    seconds,
    rate: crawl.pages_done / seconds,
    loadAtStart,
    peakRss: memory.peakRss,
    peakPss: memory.peakPss,
    note: `status ${crawl.status}, pages_done ${crawl.pages_done}, pages_failed ${crawl.pages_failed}, ${crawl.issues} issues; server alone ${mb(memory.peakServerRss)}, ${memory.peakProcesses} processes at most`,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-render-bench-'));
  const site = await startSite();
  const server = await startServer(dir);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const header = `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model.trim()}, load average ${load()} at the start, Node ${process.version}, rankscope ${commit}, Chromium ${CHROMIUM}.`;
  const rows: { round: number; tool: string; run: Run }[] = [];
  const ratios: number[] = [];
  let unrendered: (Run & { issues: number; found: number }) | null = null;
  try {
    // Warm: the server's first rendered page starts its browser, the first analysis its engine workers.
    await call(server, 'POST', '/reports', { url: `${site.origin}/warm`, render: '1' });
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
      let a: Run | null = null;
      let b: Run | null = null;
      for (const tool of order) {
        if (tool === 'bare') {
          a = await bare(site);
          rows.push({ round, tool: 'bare playwright-core loop', run: a });
        } else {
          b = await crawl(server, site, true);
          rows.push({ round, tool: 'rankscope, render=1', run: b });
        }
        console.error(`round ${round}: ${tool} done`);
      }
      ratios.push(b!.rate / a!.rate);
    }
    unrendered = await crawl(server, site, false);
  } finally {
    await server.stop();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const bares = rows.filter((r) => r.tool.startsWith('bare')).map((r) => r.run);
  const ours = rows.filter((r) => r.tool.startsWith('rankscope')).map((r) => r.run);
  const ratio = median(ratios);
  const peakRss = Math.max(...ours.map((r) => r.peakRss));
  const peakPss = Math.max(...ours.map((r) => r.peakPss));

  out(`# bench/render: a rendered crawl next to a bare playwright-core loop`);
  out();
  out(header);
  out();
  out(
    `The site: \`/\` and \`/p/1\` … \`/p/${PAGES - 1}\` on 127.0.0.1 (node:http in the bench process). Each page's HTML has a title, a description, an h1, 80 words and a link to \`/\`; its deferred script fetches \`/data/<n>.json\` and builds 150 more words and the links to its ${FANOUT} children, so every page but \`/\` is linked only by a script. Both sides render the same ${PAGES} pages ${CONCURRENCY} at a time, each in a fresh context, with the same Chromium and switches (ours through the guard proxy), both warmed first.`,
  );
  out();
  out('| | Runs | Pages | Median wall | Pages/s, median (runs) | Peak RSS (sum) | Peak PSS (sum) |');
  out('|---|---|---|---|---|---|---|');
  out(
    `| (a) bare playwright-core loop (Chromium's processes) | ${bares.length} | ${PAGES} | ${fmt(median(bares.map((r) => r.seconds)), 1)} s | **${fmt(median(bares.map((r) => r.rate)), 2)}** (${bares.map((r) => fmt(r.rate, 2)).join(', ')}) | ${mb(Math.max(...bares.map((r) => r.peakRss)))} | ${mb(Math.max(...bares.map((r) => r.peakPss)))} |`,
  );
  out(
    `| (b) rankscope serve, crawl render=1 (server + Chromium) | ${ours.length} | ${ours.map((r) => r.pages).join(', ')} | ${fmt(median(ours.map((r) => r.seconds)), 1)} s | **${fmt(median(ours.map((r) => r.rate)), 2)}** (${ours.map((r) => fmt(r.rate, 2)).join(', ')}) | **${mb(peakRss)}** | ${mb(peakPss)} |`,
  );
  out();
  out(
    `- (b) ÷ (a), per round, median: **${fmt(ratio, 2)}** (rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}), target ≥ ${TARGET_RATIO}: **${ratio >= TARGET_RATIO ? 'met' : 'missed'}**.`,
  );
  out(
    `- Peak memory of the server plus its Chromium processes (sampled every 100 ms), target ≤ ${mb(TARGET_RSS)}: PSS summed **${mb(peakPss)}**: **${peakPss <= TARGET_RSS ? 'met' : 'missed'}**; RSS summed ${mb(peakRss)}: ${peakRss <= TARGET_RSS ? 'met' : 'missed'}. The RSS sum counts the pages of the Chromium binary and its shared libraries once in every one of its processes (about 50–170 MB each, mostly file-backed and shared); PSS splits each shared page between the processes that map it, so its sum is the physical memory the server and the browser hold together.`,
  );
  if (unrendered) {
    out(
      `- The same site crawled without render: ${unrendered.found} ${unrendered.found === 1 ? 'page' : 'pages'} found (the links exist only after the scripts run), ${fmt(unrendered.seconds, 2)} s.`,
    );
  }
  out(
    '- What (b) does per page besides the render: the HTTP fetch (robots.txt, status, headers), the guard proxy, outlining the raw HTML and the DOM, the 33 checks on the DOM, the report and the page row stored in SQLite; at the end the issue pass.',
  );
  out();
  out('Every run:');
  out();
  out('| Round | Side | Load at start | Wall | Pages | Pages/s | Peak RSS | Peak PSS | Notes |');
  out('|---|---|---|---|---|---|---|---|---|');
  for (const { round, tool, run } of rows) {
    out(
      `| ${round} | ${tool} | ${run.loadAtStart} | ${fmt(run.seconds, 1)} s | ${run.pages} | ${fmt(run.rate, 2)} | ${mb(run.peakRss)} | ${mb(run.peakPss)} | ${run.note} |`,
    );
  }
  out();
  out(`Load average at the end: ${load()}.`);
  writeFileSync(join(RESULTS, 'render.md'), `${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
