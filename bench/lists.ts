// bench/lists: list queries on one account holding 100,000 reports, to show the indexes keep
// every filter and sort fast. Server-side time through inject() (no network), median and p95.
//
//   npm run bench -- lists                       # SQLite
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- lists
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { dropSchema, migrateToLatest, openDatabase, refreshStatistics } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { makeSnapshot } from '../src/analysis/snapshot.js';
import { runChecks } from '../src/analysis/run.js';
import { RESULTS } from './paths.js';
import { sql } from 'kysely';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const RUNS = 40;
const QUERIES = [
  '?per_page=25',
  '?per_page=25&page=2000',
  '?per_page=25&sort_by=url&sort=asc',
  '?per_page=25&sort_by=result',
  '?per_page=25&sort_by=generated_at&sort=asc',
  '?per_page=25&project=site42.example',
  '?per_page=25&project=site42.example&sort_by=generated_at',
  '?per_page=25&result=good',
  '?per_page=25&result=decent&sort_by=result&sort=asc',
  '?per_page=25&search=site4',
  '?per_page=25&search=p9999',
  '?per_page=100',
];

const pgUrl = process.env.BENCH_DATABASE_URL;
const engine = pgUrl ? 'postgres' : 'sqlite';
const dir = mkdtempSync(join(tmpdir(), 'rankscope-lists-'));
const schema = `lists_${randomBytes(3).toString('hex')}`;
const database = await openDatabase(pgUrl ?? `sqlite:${join(dir, 'lists.db')}`, pgUrl ? { schema } : {});
try {
  await migrateToLatest(database);
  const { user, key } = await createAccount(new UsersRepository(database.db), 'lists@example.com');
  const results = JSON.stringify(
    runChecks(
      makeSnapshot({ html: '<html lang="en"><head><title>Widgets for sale</title></head><body><h1>Widgets</h1></body></html>' }),
    ).results,
  );
  const seeded = Date.now();
  for (let i = 0; i < REPORTS; i += 1000) {
    await database.db
      .insertInto('reports')
      .values(
        Array.from({ length: Math.min(1000, REPORTS - i) }, (_, j) => {
          const n = i + j;
          const at = new Date(Date.UTC(2023, 0, 1) + ((n * 7919) % REPORTS) * 60_000).toISOString().replace('Z', '000Z');
          return {
            user_id: user.id,
            url: `https://site${n % 500}.example/p${n}`,
            project: `site${n % 500}.example`,
            result: (n * 37) % 101,
            results,
            privacy: 1,
            password_hash: null,
            generated_at: at,
            created_at: at,
            updated_at: at,
          };
        }),
      )
      .execute();
  }
  // what `serve` does at start and every hour (PostgreSQL's autovacuum analyses by itself)
  await refreshStatistics(database);
  if (engine === 'postgres') await sql`analyze reports`.execute(database.db);
  console.log(`seeded ${REPORTS} reports (${engine}) in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' }), database });
  await app.ready();
  const rows: string[] = [];
  for (const query of QUERIES) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS + 5; i++) {
      const started = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/reports${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      if (i >= 5) times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode}`);
      total = (res.json() as { meta: { total: number } }).meta.total;
    }
    times.sort((a, b) => a - b);
    rows.push(
      `| \`${query}\` | ${total} | ${times[Math.floor(RUNS / 2)].toFixed(1)} | ${times[Math.floor(RUNS * 0.95)].toFixed(1)} |`,
    );
  }
  await app.close();
  const text = [
    `## bench/lists — ${engine}, one account with ${REPORTS} reports, ${RUNS} runs each, ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| GET /api/v1/reports | matching | median ms | p95 ms |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  console.log(text);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, `lists-${engine}.md`), text);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
  if (pgUrl) await dropSchema(pgUrl, schema).catch(() => {});
}
