// bench/load: 60 s of mixed traffic from 50 concurrent clients against `rankscope serve`
// (lists, shows, updates, creates of reports against pages served on 127.0.0.1, websites), then
// checks that no write was lost. Loopback only.
//
//   npm run bench -- load                                  # SQLite
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- load
//   BENCH_SECONDS=60 BENCH_CLIENTS=50 (defaults)
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { makeSnapshot } from '../src/analysis/snapshot.js';
import { runChecks } from '../src/analysis/run.js';
import { RESULTS } from './paths.js';
import { startRankscope } from './server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ACCOUNTS = 10;
const SEEDED_REPORTS = 200; // per account
const SEEDED_WEBSITES = 20; // per account

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blue widgets for sale | Widget Shop</title>
<meta name="description" content="Hand-made widgets."><meta name="viewport" content="width=device-width"></head><body>
<nav>${Array.from({ length: 15 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(' ')}</nav><h1>Blue widgets</h1>
${'<p>Our blue widgets are made by hand and built to last for years.</p>'.repeat(60)}<img src="/w.jpg" alt="A widget"></body></html>`;

type Op =
  | 'list reports'
  | 'show report'
  | 'list websites'
  | 'update report'
  | 'update website'
  | 'create report'
  | 'create website'
  | 'delete report';
const MIX: [Op, number][] = [
  ['list reports', 30],
  ['show report', 25],
  ['list websites', 10],
  ['update report', 10],
  ['update website', 5],
  ['create report', 12],
  ['create website', 5],
  ['delete report', 3],
];

interface Client {
  key: string;
  /** Reports this client may update or delete (its own share of the account's). */
  reports: number[];
  websites: number[];
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const engine = pgUrl ? 'postgres' : 'sqlite';
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-load-'));
  const schema = `load_${randomBytes(3).toString('hex')}`;
  let databaseUrl = `sqlite:${join(dir, 'load.db')}`;
  if (pgUrl) {
    const u = new URL(pgUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
  }
  let server: ChildProcess | undefined;
  const site = createServer((req, res) => {
    if (req.url?.startsWith('/page')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  try {
    // seed accounts, reports, websites
    const handle = await openDatabase(pgUrl ?? databaseUrl, pgUrl ? { schema } : {});
    await migrateToLatest(handle);
    const results = JSON.stringify(runChecks(makeSnapshot({ html: PAGE, finalUrl: 'https://shop.example/page' })).results);
    const accounts: { id: number; key: string; reports: number[]; websites: number[] }[] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const { user, key } = await createAccount(new UsersRepository(handle.db), `load${a}@example.com`);
      const at = '2024-01-01T00:00:00.000000Z';
      const reports = await handle.db
        .insertInto('reports')
        .values(
          Array.from({ length: SEEDED_REPORTS }, (_, i) => ({
            user_id: user.id,
            url: `https://site${i % 20}.example/p${i}`,
            project: `site${i % 20}.example`,
            result: (i * 7) % 101,
            results,
            privacy: 1,
            password_hash: null,
            generated_at: at,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      const websites = await handle.db
        .insertInto('websites')
        .values(
          Array.from({ length: SEEDED_WEBSITES }, (_, i) => ({
            user_id: user.id,
            domain: `seeded${i}.example`,
            privacy: 1,
            password_hash: null,
            email: null,
            exclude_bots: 1,
            exclude_ips: null,
            exclude_params: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      accounts.push({ id: user.id, key, reports: reports.map((r) => r.id), websites: websites.map((w) => w.id) });
    }
    await handle.close();

    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const pageOrigin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;

    let api: string;
    ({ proc: server, api } = await startRankscope({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
    }));

    // each client owns a disjoint share of its account's rows, so expected final values are exact
    const clients: Client[] = Array.from({ length: CLIENTS }, (_, c) => {
      const account = accounts[c % ACCOUNTS];
      const share = Math.floor(c / ACCOUNTS);
      const shares = Math.ceil(CLIENTS / ACCOUNTS);
      return {
        key: account.key,
        reports: account.reports.filter((_, i) => i % shares === share),
        websites: account.websites.filter((_, i) => i % shares === share),
      };
    });

    const dispatcher = new Agent({ connections: CLIENTS, keepAliveTimeout: 10_000 });
    const latencies = new Map<Op, number[]>(MIX.map(([op]) => [op, []]));
    const statuses = new Map<string, number>();
    let serverErrors = 0;
    let clientErrors = 0;
    const expectedReportPrivacy = new Map<number, number>();
    const expectedWebsiteBots = new Map<number, number>();
    const createdReports = new Map<number, string>(); // id → key
    const createdWebsites = new Map<number, string>();
    const deletedReports = new Set<number>();
    let domainCounter = 0;
    const totalWeight = MIX.reduce((n, [, w]) => n + w, 0);
    const pick = (): Op => {
      let r = Math.random() * totalWeight;
      for (const [op, w] of MIX) {
        r -= w;
        if (r < 0) return op;
      }
      return MIX[0][0];
    };
    const random = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

    async function call(client: Client, op: Op, method: string, path: string, body?: string) {
      const started = performance.now();
      const res = await request(api + path, {
        method: method as 'GET',
        dispatcher,
        headers: {
          authorization: `Bearer ${client.key}`,
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body,
      });
      const text = await res.body.text();
      latencies.get(op)!.push(performance.now() - started);
      statuses.set(`${op} ${res.statusCode}`, (statuses.get(`${op} ${res.statusCode}`) ?? 0) + 1);
      if (res.statusCode >= 500) serverErrors++;
      return { status: res.statusCode, json: () => JSON.parse(text) as { data: { id: number } } };
    }

    const deadline = Date.now() + SECONDS * 1000;
    const started = Date.now();
    await Promise.all(
      clients.map(async (client) => {
        while (Date.now() < deadline) {
          const op = pick();
          try {
            switch (op) {
              case 'list reports': {
                const q = random([
                  '',
                  '?result=good',
                  '?sort_by=result&sort=asc',
                  '?search=site1&per_page=25',
                  '?project=site3.example&per_page=10',
                  '?sort_by=generated_at&page=2&per_page=50',
                ]);
                await call(client, op, 'GET', `/api/v1/reports${q}`);
                break;
              }
              case 'show report':
                await call(client, op, 'GET', `/api/v1/reports/${random(client.reports)}`);
                break;
              case 'list websites':
                await call(client, op, 'GET', `/api/v1/websites?per_page=${random(['10', '25', '100'])}&sort_by=domain`);
                break;
              case 'update report': {
                const id = random(client.reports);
                const privacy = Math.random() < 0.5 ? 0 : 1;
                const res = await call(client, op, 'PATCH', `/api/v1/reports/${id}`, `privacy=${privacy}`);
                if (res.status === 200) expectedReportPrivacy.set(id, privacy);
                else if (!(res.status === 404 && deletedReports.has(id))) clientErrors++;
                break;
              }
              case 'update website': {
                const id = random(client.websites);
                const bots = Math.random() < 0.5 ? 0 : 1;
                const res = await call(client, op, 'PUT', `/api/v1/websites/${id}?exclude_bots=${bots}`);
                if (res.status === 200) expectedWebsiteBots.set(id, bots);
                else clientErrors++;
                break;
              }
              case 'create report': {
                const res = await call(
                  client,
                  op,
                  'POST',
                  '/api/v1/reports',
                  `url=${encodeURIComponent(`${pageOrigin}/page-${Math.floor(Math.random() * 100)}`)}&privacy=0`,
                );
                if (res.status === 201) {
                  const id = res.json().data.id;
                  createdReports.set(id, client.key);
                  client.reports.push(id);
                } else clientErrors++;
                break;
              }
              case 'create website': {
                const res = await call(
                  client,
                  op,
                  'POST',
                  '/api/v1/websites',
                  `domain=load-${domainCounter++}-${randomBytes(3).toString('hex')}.example&exclude_ips=10.0.0.0%2F8`,
                );
                if (res.status === 201) {
                  const id = res.json().data.id;
                  createdWebsites.set(id, client.key);
                  client.websites.push(id);
                } else clientErrors++;
                break;
              }
              case 'delete report': {
                if (client.reports.length < 5) break;
                const id = client.reports.pop()!;
                const res = await call(client, op, 'DELETE', `/api/v1/reports/${id}`);
                if (res.status === 200) {
                  deletedReports.add(id);
                  expectedReportPrivacy.delete(id);
                } else clientErrors++;
                break;
              }
            }
          } catch {
            clientErrors++;
          }
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;

    // lost writes: read everything back through a fresh connection to the database
    const check = await openDatabase(pgUrl ?? databaseUrl, pgUrl ? { schema } : {});
    let lost = 0;
    const reportRows = new Map(
      (await check.db.selectFrom('reports').select(['id', 'privacy']).execute()).map((r) => [r.id, r.privacy]),
    );
    const websiteRows = new Map(
      (await check.db.selectFrom('websites').select(['id', 'exclude_bots']).execute()).map((w) => [w.id, w.exclude_bots]),
    );
    await check.close();
    for (const id of createdReports.keys()) if (!deletedReports.has(id) && !reportRows.has(id)) lost++;
    for (const id of createdWebsites.keys()) if (!websiteRows.has(id)) lost++;
    for (const id of deletedReports) if (reportRows.has(id)) lost++;
    for (const [id, privacy] of expectedReportPrivacy) if (reportRows.get(id) !== privacy) lost++;
    for (const [id, bots] of expectedWebsiteBots) if (websiteRows.get(id) !== bots) lost++;
    const writes =
      createdReports.size + createdWebsites.size + deletedReports.size + expectedReportPrivacy.size + expectedWebsiteBots.size;

    const pct = (xs: number[], p: number) => {
      if (xs.length === 0) return 0;
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    };
    const all = [...latencies.values()].flat();
    const lines = [
      `## bench/load — ${engine}, ${CLIENTS} clients, ${elapsed.toFixed(0)} s, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| operation | requests | p50 ms | p99 ms |',
      '|---|---|---|---|',
      ...MIX.map(([op]) => {
        const xs = latencies.get(op)!;
        return `| ${op} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} |`;
      }),
      `| **all** | ${all.length} (${(all.length / elapsed).toFixed(0)} req/s) | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} |`,
      '',
      `5xx responses: ${serverErrors}. Unexpected client-side outcomes: ${clientErrors}. ` +
        `Acknowledged writes checked afterwards: ${writes}; lost: ${lost}.`,
      `Statuses: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}.`,
      '',
    ];
    console.log(lines.join('\n'));
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, `load-${engine}.md`), lines.join('\n'));
    await dispatcher.close();
    if (serverErrors > 0 || lost > 0) process.exitCode = 1;
  } finally {
    server?.kill('SIGTERM');
    site.close();
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) await dropSchema(pgUrl, schema).catch(() => {});
  }
}

await main();
