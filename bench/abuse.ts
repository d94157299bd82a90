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
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESULTS } from './paths.js';
import { startRankscope } from './server.js';
import { migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';

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

async function main(): Promise<void> {
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

  /** GET /health back to back until `until` settles; latencies in ms. */
  async function healthDuring(until: Promise<unknown>): Promise<number[]> {
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
  out('# bench/abuse');
  out();
  out(
    `${new Date().toISOString()} · Node ${process.version} · load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  out();

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
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'abuse.md'), `${lines.join('\n')}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
