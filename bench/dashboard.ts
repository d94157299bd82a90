// bench/dashboard: the dashboard's server time per page, through inject() (no network), on an
// account holding 100 reports: the reports list and a report's detail next to the API call
// each page makes (GET /api/v1/reports, GET /api/v1/reports/{id}) in the same run, then the
// round trip sign in → create a report (of a page served on 127.0.0.1) → view it.
//
//   npm run bench -- dashboard
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { hashPassword } from '../src/accounts/passwords.js';
import { seedReport } from '../test/helpers/seed.js';
import { RESULTS } from './paths.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const PASSWORD = 'bench password 1';
const dir = mkdtempSync(join(tmpdir(), 'rankscope-dash-'));
const database = await openDatabase(`sqlite:${join(dir, 'dash.db')}`);
await migrateToLatest(database);
const users = new UsersRepository(database.db);
const { user, key } = await createAccount(users, 'dashboard@example.com');
await users.setPasswordHash(user.id, await hashPassword(PASSWORD));
let last = 0;
for (let i = 0; i < 100; i++) {
  const row = await seedReport(database, user.id, {
    url: `https://www.example.com/page-${i}`,
    result: 40 + ((i * 37) % 60),
    generated_at: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000000Z`,
  });
  last = row.id;
}

// A page to analyse, on loopback.
const site = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="en"><head><title>Blue widgets for sale</title><meta name="description" content="Blue widgets, made to order."></head><body><h1>Blue widgets</h1><p>Made to order.</p></body></html>',
  );
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' }),
  database,
});
await app.ready();

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n: number) => n.toFixed(2);

async function timed(
  run: () => Promise<{ statusCode: number }>,
  expect: number,
  runs = RUNS,
): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const res = await run();
    times.push(performance.now() - start);
    if (res.statusCode !== expect) throw new Error(`answered ${res.statusCode}, expected ${expect}`);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const signIn = () =>
  app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    payload: form({ email: user.email, password: PASSWORD }),
  });

const rows: string[] = [];
try {
  const session = await signIn();
  const cookie = `rankscope_session=${session.cookies.find((c) => c.name === 'rankscope_session')!.value}`;
  const page = (url: string) => () => app.inject({ method: 'GET', url, headers: { cookie } });
  const api = (url: string) => () =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
  const csrf = /name="_token" value="([^"]+)"/.exec((await page('/app/reports')()).body)![1];

  for (const [name, pagePath, apiPath] of [
    ['reports list (100 reports, first page)', '/app/reports', '/api/v1/reports'],
    [
      'reports list, filtered and sorted',
      '/app/reports?search=page-1&sort_by=result&sort=asc',
      '/api/v1/reports?search=page-1&sort_by=result&sort=asc',
    ],
    ['report detail (33 checks, history chart)', `/app/reports/${last}`, `/api/v1/reports/${last}`],
  ] as const) {
    const dash = await timed(page(pagePath), 200);
    const bare = await timed(api(apiPath), 200);
    rows.push(
      `| ${name} | ${ms(dash.p50)} | ${ms(dash.p99)} | ${ms(bare.p50)} | ${ms(bare.p99)} | ${(dash.p50 / bare.p50).toFixed(2)} |`,
    );
  }

  // The round trip, 20 times: sign in, create a report from a URL (the analysis included), view it.
  const trip = { signIn: [] as number[], create: [] as number[], view: [] as number[] };
  for (let i = 0; i < 20; i++) {
    let start = performance.now();
    const s = await signIn();
    trip.signIn.push(performance.now() - start);
    if (s.statusCode !== 303) throw new Error(`sign-in answered ${s.statusCode}`);
    start = performance.now();
    const created = await app.inject({
      method: 'POST',
      url: '/app/reports',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: form({ _token: csrf, url: `${siteUrl}?n=${i}` }),
    });
    trip.create.push(performance.now() - start);
    if (created.statusCode !== 303) throw new Error(`create answered ${created.statusCode}: ${created.body.slice(0, 300)}`);
    start = performance.now();
    const view = await app.inject({ method: 'GET', url: String(created.headers.location), headers: { cookie } });
    trip.view.push(performance.now() - start);
    if (view.statusCode !== 200) throw new Error(`view answered ${view.statusCode}`);
  }
  const med = (xs: number[]) =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.5,
    );

  const text = [
    `# bench/dashboard`,
    '',
    `${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model.trim()} · Node ${process.version} · load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · SQLite · server time through inject() (no network), ${RUNS} runs after 10 unmeasured`,
    '',
    '## Pages on an account with 100 reports, next to the API call each page makes',
    '',
    '| page | dashboard p50 ms | dashboard p99 ms | API p50 ms | API p99 ms | page ÷ API (p50) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Target: server time per page p50 ≤ 20 ms on the list of 100 reports.',
    '',
    '## Round trip (20 times, medians)',
    '',
    '| step | median ms |',
    '|---|---|',
    `| sign in (argon2id verification) | ${ms(med(trip.signIn))} |`,
    `| create a report from a URL (POST /app/reports: fetch, 33 checks, store, 303) | ${ms(med(trip.create))} |`,
    `| view the new report (GET /app/reports/{id}) | ${ms(med(trip.view))} |`,
    '',
  ].join('\n');
  console.log(text);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'dashboard.md'), text);
} finally {
  await app.close();
  site.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
