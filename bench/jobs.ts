// bench/jobs: job throughput on PostgreSQL with 1 and 2 instances, loopback only, in one run.
//
//   npm run bench -- jobs
//   BENCH_DATABASE_URL=postgres://…  (default postgres://postgres@127.0.0.1:5432/test; a schema of
//                                    its own, dropped after)
//   BENCH_JOBS (4,000 no-op jobs), BENCH_MONITORS (120 monitor runs), JOB_CONCURRENCY (4 per instance)
//
// 1. No-op jobs: BENCH_JOBS jobs are queued through the product's queue (pg-boss), due at one
//    moment, spread over the four kinds of job (each has its own share of JOB_CONCURRENCY, so
//    all of it is used) and over ten accounts (which take turns); 1, then 2 instance processes
//    (bench/jobs-worker.ts: openJobQueue with a no-op handler per kind, as `rankscope serve` runs
//    its workers) work them. jobs/s = jobs ÷ (last completion −
//    first start), from pg-boss's own timestamps. Beside it, in the same run, the baseline: the
//    same processes running a minimal SKIP LOCKED queue over plain pg (take a row, mark it done),
//    on the same number of rows.
// 2. Monitor runs: `rankscope serve` instances (1, then 2) on one database; BENCH_MONITORS
//    monitors on reports of pages served on 127.0.0.1 by this process are run at once through
//    POST /api/v1/monitors/{id}/run; runs/s = runs ÷ (time until every monitor has run). Monitor
//    runs have their kind's share of JOB_CONCURRENCY (a quarter: 1 of 4, 2 of 8).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/connection.js';
import { JobsRepository } from '../src/db/jobs-repository.js';
import { silentLog } from '../src/jobs/log.js';
import { JOB_KINDS, MIN_JOB_CONCURRENCY, splitSlots } from '../src/model/job-kinds.js';
import { openJobQueue } from '../src/jobs/open-queue.js';
import { systemClock } from '../src/time.js';
import { RESULTS, ROOT } from './paths.js';
import { freePort, waitFor } from './server.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const JOBS = Number(process.env.BENCH_JOBS ?? 4_000);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 120);
const CONCURRENCY = Number(process.env.JOB_CONCURRENCY ?? 4);
/** The no-op jobs' accounts: the queue hands each kind's slots to them in turn. */
const ACCOUNTS = 10;

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

interface Schema {
  name: string;
  url: string;
}

async function freshSchema(): Promise<Schema> {
  const name = `bench_jobs_${randomBytes(4).toString('hex')}`;
  const handle = await openDatabase(PG_URL, { schema: name, poolSize: 2 });
  await migrateToLatest(handle);
  await handle.close();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { name, url: url.toString() };
}

function startWorker(schema: Schema, bare: boolean): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, '.bench', 'bench', 'jobs-worker.js')], {
    env: {
      ...process.env,
      DATABASE_URL: schema.url,
      JOB_CONCURRENCY: String(CONCURRENCY),
      BARE_QUEUE: bare ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.removeAllListeners('exit');
          child.on('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Throughput {
  perSecond: number;
  seconds: number;
}

/** The product's queue (pg-boss) working `JOBS` no-op jobs with `instances` processes. */
async function noopRun(instances: number): Promise<Throughput> {
  const schema = await freshSchema();
  const handle = await openDatabase(PG_URL, { schema: schema.name, poolSize: 4 });
  const queue = openJobQueue(
    handle,
    new JobsRepository(handle.db),
    { leaseSeconds: 60, slots: splitSlots(MIN_JOB_CONCURRENCY) },
    { clock: systemClock, log: silentLog },
  );
  for (const kind of JOB_KINDS) queue.register(`bench.noop.${kind}`, async () => {}, { kind });
  const workers: ChildProcess[] = [];
  try {
    // Queued before the workers start, due together a moment after they are up.
    const dueAt = Date.now() + 60_000;
    for (let i = 0; i < JOBS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, JOBS - i) }, (_, j) => {
          // Spread over the kinds (each has its own slots) and over accounts (they take turns).
          const n = i + j;
          const kind = JOB_KINDS[n % JOB_KINDS.length];
          return queue.send(`bench.noop.${kind}`, { n }, { startAfter: dueAt, account: 1 + (n % ACCOUNTS) });
        }),
      );
    }
    for (let i = 0; i < instances; i++) workers.push(await startWorker(schema, false));
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const jobs = `${schema.name}_jobs.job`;
    await client.query(`update ${jobs} set start_after = now() where name like 'bench.noop.%'`);
    try {
      await until(async () => {
        const { rows } = await client.query(
          `select count(*)::int as n from ${jobs} where name like 'bench.noop.%' and state = 'completed'`,
        );
        return rows[0].n >= JOBS;
      }, 'the no-op jobs');
      const { rows } = await client.query(
        `select extract(epoch from max(completed_on) - min(started_on))::float as seconds from ${jobs} where name like 'bench.noop.%'`,
      );
      return { perSecond: JOBS / rows[0].seconds, seconds: rows[0].seconds };
    } finally {
      await client.end();
    }
  } finally {
    await stopAll(workers);
    await queue.stop();
    await handle.close();
    await dropSchema(PG_URL, schema.name);
  }
}

/** The baseline: a minimal SKIP LOCKED queue over plain pg, in the same worker processes. */
async function bareRun(instances: number): Promise<Throughput> {
  const schema = await freshSchema();
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  const workers: ChildProcess[] = [];
  try {
    await client.query(
      `create table bare_jobs (id serial primary key, payload jsonb not null, state text not null,
        started_at timestamptz, done_at timestamptz)`,
    );
    await client.query(`create index bare_jobs_state on bare_jobs (state, id)`);
    await client.query(
      `insert into bare_jobs (payload, state) select jsonb_build_object('n', g), 'held' from generate_series(1, $1) g`,
      [JOBS],
    );
    for (let i = 0; i < instances; i++) workers.push(await startWorker(schema, true));
    await client.query(`update bare_jobs set state = 'queued'`);
    await until(async () => {
      const { rows } = await client.query(`select count(*)::int as n from bare_jobs where state = 'done'`);
      return rows[0].n >= JOBS;
    }, 'the bare jobs');
    const { rows } = await client.query(
      `select extract(epoch from max(done_at) - min(started_at))::float as seconds from bare_jobs`,
    );
    return { perSecond: JOBS / rows[0].seconds, seconds: rows[0].seconds };
  } finally {
    await stopAll(workers);
    await client.end();
    await dropSchema(PG_URL, schema.name);
  }
}

// ---------------------------------------------------------------------------------------------
// Monitor runs through `rankscope serve`.

/** Pages to analyse: each a small, complete page with its robots.txt, sitemap and 404. */
function pageServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    if (!path.startsWith('/page/')) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>Not found');
      return;
    }
    const n = path.slice('/page/'.length);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Monitored page number ${n} of the benchmark</title>
<meta name="description" content="A page the jobs benchmark monitors: it is analysed again at each run.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.ico"></head>
<body><h1>Page ${n}</h1>${'<p>Monitoring keeps an eye on the score of this page over time, week after week. </p>'.repeat(20)}
<a href="/page/${Number(n) + 1}">next</a></body></html>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

async function startServe(
  schema: Schema,
  extraEnv: Record<string, string>,
): Promise<{ proc: ChildProcess; api: string; output: () => string }> {
  const port = await freePort();
  let output = '';
  const proc = spawn(process.execPath, ['bin/rankscope.mjs', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: schema.url,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      JOB_CONCURRENCY: String(CONCURRENCY),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const api = `http://127.0.0.1:${port}`;
  await waitFor(`${api}/health`);
  return { proc, api, output: () => output };
}

async function monitorRun(instances: number, pages: string): Promise<Throughput> {
  const schema = await freshSchema();
  const servers: { proc: ChildProcess; api: string; output: () => string }[] = [];
  try {
    servers.push(await startServe(schema, {}));
    const key = servers[0]
      .output()
      .split('\n')
      .find((line) => /^[A-Za-z0-9_-]{40,}$/.test(line.trim()))
      ?.trim();
    if (!key) throw new Error(`no API key printed:\n${servers[0].output()}`);
    for (let i = 1; i < instances; i++) servers.push(await startServe(schema, {}));
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' };
    const monitors: number[] = [];
    for (let i = 0; i < MONITORS; i++) {
      const report = await fetch(`${servers[0].api}/api/v1/reports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${pages}/page/${i}` }),
      });
      if (report.status !== 201) throw new Error(`report: ${report.status} ${await report.text()}`);
      const reportId = ((await report.json()) as { data: { id: number } }).data.id;
      const monitor = await fetch(`${servers[0].api}/api/v1/monitors`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ report_id: reportId, frequency: 'weekly', email: 0 }),
      });
      if (monitor.status !== 201) throw new Error(`monitor: ${monitor.status} ${await monitor.text()}`);
      monitors.push(((await monitor.json()) as { data: { id: number } }).data.id);
    }
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const started = performance.now();
      await Promise.all(
        monitors.map(async (id, i) => {
          const api = servers[i % servers.length].api;
          const run = await fetch(`${api}/api/v1/monitors/${id}/run`, { method: 'POST', headers });
          if (run.status !== 202) throw new Error(`run: ${run.status} ${await run.text()}`);
        }),
      );
      await until(async () => {
        const { rows } = await client.query(`select count(*)::int as n from monitors where last_run_at is not null`);
        return rows[0].n >= MONITORS;
      }, 'every monitor to run');
      const seconds = (performance.now() - started) / 1000;
      return { perSecond: MONITORS / seconds, seconds };
    } finally {
      await client.end();
    }
  } finally {
    await stopAll(servers.map((s) => s.proc));
    await dropSchema(PG_URL, schema.name);
  }
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const started = new Date();
  out('# bench/jobs: job throughput on PostgreSQL, 1 and 2 instances');
  out();
  out(
    `Run ${started.toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}; JOB_CONCURRENCY=${CONCURRENCY} per instance.`,
  );
  out();
  out(`## No-op jobs (${fmt(JOBS)} jobs, due at once)`);
  out();
  out('| Instances | Rankscope queue (pg-boss) | Bare SKIP LOCKED queue | Ratio |');
  out('|---|---|---|---|');
  for (const instances of [1, 2]) {
    const ours = await noopRun(instances);
    const bare = await bareRun(instances);
    out(
      `| ${instances} | ${fmt(ours.perSecond)} jobs/s (${fmt(ours.seconds, 2)} s) | ${fmt(bare.perSecond)} jobs/s (${fmt(bare.seconds, 2)} s) | ${fmt(ours.perSecond / bare.perSecond, 2)} |`,
    );
  }
  out();
  if (MONITORS > 0) {
    const { server, base } = await pageServer();
    try {
      out(`## Monitor runs (${fmt(MONITORS)} monitors run at once; each fetches and analyses a loopback page)`);
      out();
      out('| Instances | Runs/s | Wall time |');
      out('|---|---|---|');
      for (const instances of [1, 2]) {
        const runs = await monitorRun(instances, base);
        out(`| ${instances} | ${fmt(runs.perSecond, 1)} | ${fmt(runs.seconds, 2)} s |`);
      }
      out();
    } finally {
      server.close();
    }
  }
  out(`Finished in ${fmt((Date.now() - started.getTime()) / 1000)} s.`);
  writeFileSync(join(RESULTS, 'jobs.md'), `${lines.join('\n')}\n`);
}

await main();
