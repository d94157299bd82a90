// bench/api: the API's throughput on a seeded database, loopback only.
//
//   npm run bench -- api                     # SQLite (a temporary file)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- api
//
// Seeds 10,000 reports whose results come from analysing real pages (corpus A when it is
// present: bench/README.md, else generated pages), starts `rankscope serve` as a child process and,
// in the same run, a bare node:http server that returns the very same bytes from memory. Then
// a "floor" server: node:http with the same key lookup and the same SQL, and no framework at all
// (what any implementation that authenticates and reads its database must at least spend).
// autocannon (and wrk, when installed) measure GET /reports/{id} and GET /reports?per_page=100
// against all three, and report creation (a real fetch + analysis of a page served on 127.0.0.1)
// at concurrency 8.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { RESULTS, ROOT, SHARED } from './paths.js';
import { freePort, waitFor } from './server.js';
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { PRIVACY_LEVELS } from '../src/model/privacy.js';
import { makeSnapshot } from '../src/analysis/snapshot.js';
import { runChecks } from '../src/analysis/run.js';
import { buildArtifacts } from '../src/analysis/artifacts/index.js';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 10_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const CORPUS = join(SHARED, 'corpus', 'A');
const root = ROOT;

/**
 * `news`: results of corpus A's pages (news sites with hundreds of links: ~29 KB of results
 * each); `small`: results of small generated pages (a few KB each, a typical small site).
 */
const RESULTS_KIND = process.env.BENCH_RESULTS === 'small' || !existsSync(CORPUS) ? 'small' : 'news';

function samplePages(): { name: string; html: string }[] {
  if (RESULTS_KIND === 'news') {
    return readdirSync(CORPUS)
      .filter((f) => f.endsWith('.html'))
      .slice(0, 60)
      .map((f) => ({ name: f, html: readFileSync(join(CORPUS, f), 'utf8') }));
  }
  // A small business's page: navigation, a few sections with images, a footer, some scripts.
  return Array.from({ length: 20 }, (_, i) => {
    const nav = Array.from({ length: 12 + (i % 8) }, (_, n) => `<a href="/section-${n}">Section ${n}</a>`).join(' ');
    const sections = Array.from(
      { length: 6 },
      (_, n) =>
        `<h2>Widgets, part ${n}</h2><p>${'Our hand-made widgets are built to last. '.repeat(12)}</p><img src="/img/w${n}.jpg" alt="${n % 3 ? `Widget ${n}` : ''}">`,
    ).join('');
    const footer = Array.from({ length: 8 }, (_, n) => `<a href="https://partner${n}.example/">Partner ${n}</a>`).join(' ');
    return {
      name: `page${i}.html`,
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} about widgets | Widget Shop</title>
<meta name="description" content="Widgets ${i}"><meta name="viewport" content="width=device-width">
<meta property="og:title" content="Widgets ${i}"><link rel="stylesheet" href="/site.css"><script src="/app.js"></script>
<script src="https://cdn.example/lib.js" async></script></head><body><nav>${nav}</nav><h1>Widgets ${i}</h1>${sections}
<footer>${footer} <a href="https://twitter.com/widgets">Twitter</a> <a href="https://facebook.com/widgets">Facebook</a></footer></body></html>`,
    };
  });
}

function child(args: string[], env: Record<string, string>): ChildProcess {
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return proc;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
}

/** wrk's summary as JSON (its Lua `done` hook), so no output scraping. */
const WRK_SCRIPT = (o: LoadOptions) => `
wrk.method = ${JSON.stringify(o.method ?? 'GET')}
${o.body ? `wrk.body = ${JSON.stringify(o.body)}` : ''}
${Object.entries(o.headers ?? {})
  .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
  .join('\n')}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"duration":%d,"errors":%d,"non2xx":%d,"p50":%f,"p99":%f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end`;

const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;
type Client = 'autocannon' | 'wrk';
/** autocannon (the issue's tool) always; wrk too when installed (Debian's package): its C client
 * keeps up with the server where autocannon's JavaScript one saturates first. */
const CLIENTS: Client[] = HAS_WRK ? ['autocannon', 'wrk'] : ['autocannon'];

/** Drives `options.url` for DURATION seconds with the given client. */
async function load(client: Client, options: LoadOptions, scratch: string): Promise<Measured> {
  const connections = options.connections ?? CONNECTIONS;
  if (client === 'wrk') {
    const script = join(scratch, `wrk-${randomBytes(4).toString('hex')}.lua`);
    writeFileSync(script, WRK_SCRIPT(options));
    const { stdout } = await promisify(execFile)(
      'wrk',
      ['-t1', `-c${connections}`, `-d${DURATION}s`, '--latency', '-s', script, options.url],
      {
        maxBuffer: 1 << 20,
      },
    );
    const r = JSON.parse(/RESULT (\{.*\})/.exec(stdout)![1]) as {
      requests: number;
      duration: number;
      errors: number;
      non2xx: number;
      p50: number;
      p99: number;
    };
    return { rps: Math.round(r.requests / (r.duration / 1e6)), p50: r.p50, p99: r.p99, errors: r.errors, non2xx: r.non2xx };
  }
  const result = await autocannon({ duration: DURATION, connections, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The floor server's source: the API's show and list work with the database drivers alone
 * (better-sqlite3 or pg, resolved from this project), no framework, no hooks, no logging.
 */
function floorServer(engine: 'sqlite' | 'postgres', database: string, port: number, listBody: string): string {
  const tail = listBody.slice(listBody.lastIndexOf('],"links":'));
  return `import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(root, 'package.json'))});
const COLUMNS = 'id, user_id, url, project, result, ${engine === 'sqlite' ? 'cast(results as blob) as results' : 'results'}, privacy, password_hash, generated_at, created_at, updated_at';
const SQL = {
  user: 'select * from users where api_key_hash = $1',
  show: \`select \${COLUMNS} from reports where user_id = $1 and id = $2\`,
  count: 'select count(*) as n from reports where user_id = $1',
  page: \`select \${COLUMNS} from reports where id in (select id from reports where user_id = $1 order by id desc limit 100 offset 0) order by id desc\`,
};
${
  engine === 'sqlite'
    ? `const Database = require('better-sqlite3');
const db = new Database(${JSON.stringify(database)});
db.pragma('journal_mode = WAL'); db.pragma('mmap_size = 268435456'); db.pragma('cache_size = -65536');
const statements = Object.fromEntries(Object.entries(SQL).map(([k, s]) => [k, db.prepare(s.replace(/\\$\\d/g, '?'))]));
const query = async (name, params) => statements[name].all(...params);`
    : `const { Pool } = require('pg');
const pool = new Pool({ connectionString: ${JSON.stringify(database)}, max: 10 });
const query = async (name, params) => (await pool.query({ name, text: SQL[name], values: params })).rows;`
}
const TAIL = Buffer.from(${JSON.stringify(tail)});
const report = (r) => [
  Buffer.from(\`{"id":\${r.id},"url":\${JSON.stringify(r.url)},"project":\${JSON.stringify(r.project)},"result":\${r.result},"results":\`),
  typeof r.results === 'string' ? Buffer.from(r.results) : r.results,
  Buffer.from(\`,"privacy":\${r.privacy},"password":\${r.password_hash !== null},"generated_at":\${JSON.stringify(r.generated_at)},"created_at":\${JSON.stringify(r.created_at)},"updated_at":\${JSON.stringify(r.updated_at)}}\`),
];
createServer(async (req, res) => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const [user] = token ? await query('user', [createHash('sha256').update(token).digest('hex')]) : [];
  let body;
  if (!user) body = null;
  else if (req.url.startsWith('/api/v1/reports?')) {
    await query('count', [user.id]);
    const rows = await query('page', [user.id]);
    body = Buffer.concat([Buffer.from('{"data":['), ...rows.flatMap((r, i) => (i ? [Buffer.from(','), ...report(r)] : report(r))), TAIL]);
  } else {
    const [r] = await query('show', [user.id, Number(req.url.split('/').pop())]);
    body = r ? Buffer.concat([Buffer.from('{"data":'), ...report(r), Buffer.from(',"status":200}')]) : null;
  }
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body ? body.length : 0 });
  res.end(body);
}).listen(${port}, '127.0.0.1');
`;
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const engine = pgUrl ? 'postgres' : 'sqlite';
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-bench-'));
  const schema = `bench_${randomBytes(3).toString('hex')}`;
  let databaseUrl: string;
  if (pgUrl) {
    const u = new URL(pgUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
  } else {
    databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  }
  const procs: ChildProcess[] = [];
  try {
    // 1. seed
    const handle = await openDatabase(pgUrl ?? databaseUrl, pgUrl ? { schema } : {});
    await migrateToLatest(handle);
    const { user, key } = await createAccount(new UsersRepository(handle.db), 'bench@example.com');
    const pages = samplePages();
    const results = pages.map((p, i) => {
      const snapshot = makeSnapshot({ html: p.html, finalUrl: `https://site${i % 40}.example/${p.name}` });
      return runChecks(snapshot, undefined, buildArtifacts(snapshot.html, snapshot.finalUrl));
    });
    const seededAt = Date.now();
    const rows = Array.from({ length: REPORTS }, (_, i) => {
      const r = results[i % results.length];
      const project = `site${i % 200}.example`;
      const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('Z', '000Z');
      return {
        user_id: user.id,
        url: `https://${project}/page/${i}`,
        project,
        result: r.result,
        results: JSON.stringify(r.results),
        privacy: PRIVACY_LEVELS[i % 3],
        password_hash: null,
        generated_at: at,
        created_at: at,
        updated_at: at,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await handle.db
        .insertInto('reports')
        .values(rows.slice(i, i + 500))
        .execute();
    const avgBytes = Math.round(rows.reduce((n, r) => n + r.results.length, 0) / rows.length);
    await handle.close();
    console.log(`seeded ${REPORTS} reports (${engine}) in ${Date.now() - seededAt} ms; results JSON averages ${avgBytes} bytes`);

    // 2. the API, as `rankscope serve`
    const apiPort = await freePort();
    procs.push(
      child(['bin/rankscope.mjs', 'serve'], {
        DATABASE_URL: databaseUrl,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        ALLOW_PRIVATE_ADDRESSES: 'true',
        ANALYSIS_CONCURRENCY: '8',
      }),
    );
    const api = `http://127.0.0.1:${apiPort}`;
    await waitFor(`${api}/health`);
    const headers = { authorization: `Bearer ${key}` };
    const showPath = `/api/v1/reports/${Math.floor(REPORTS / 2)}`;
    const listPath = '/api/v1/reports?per_page=100';
    const showBody = await (await fetch(api + showPath, { headers })).text();
    const listBody = await (await fetch(api + listPath, { headers })).text();
    if (!showBody.startsWith('{"data":{') || JSON.parse(listBody).data.length !== 100) throw new Error('unexpected API answers');

    // 3. the bare node:http server with the same bytes, in its own process like the API
    const barePort = await freePort();
    const bareScript = join(dir, 'bare.mjs');
    writeFileSync(
      bareScript,
      `import { createServer } from 'node:http';
const bodies = ${JSON.stringify({ [showPath]: showBody, [listPath]: listBody })};
const buffers = Object.fromEntries(Object.entries(bodies).map(([k, v]) => [k, Buffer.from(v)]));
createServer((req, res) => {
  const body = buffers[req.url];
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body ? body.length : 0 });
  res.end(body);
}).listen(${barePort}, '127.0.0.1');`,
    );
    procs.push(child([bareScript], {}));
    const bare = `http://127.0.0.1:${barePort}`;
    await waitFor(bare);

    // 4. the floor: the same work as the API's handlers (hash the key, look the account up, read
    // the report or the page of reports, assemble the JSON), on node:http with the drivers alone
    const floorPort = await freePort();
    const floorScript = join(dir, 'floor.mjs');
    writeFileSync(
      floorScript,
      floorServer(engine, pgUrl ? databaseUrl : databaseUrl.slice('sqlite:'.length), floorPort, listBody),
    );
    procs.push(child([floorScript], {}));
    const floor = `http://127.0.0.1:${floorPort}`;
    await waitFor(floor);
    const floorShow = await (await fetch(floor + showPath, { headers })).text();
    const floorList = await (await fetch(floor + listPath, { headers })).text();
    if (floorShow !== showBody || floorList !== listBody) throw new Error('the floor server answers different bytes');

    const measure = async (client: Client, path: string) => {
      const apiRun = await load(client, { url: api + path, headers }, dir);
      const floorRun = await load(client, { url: floor + path, headers }, dir);
      const bareRun = await load(client, { url: bare + path }, dir);
      return { client, apiRun, floorRun, bareRun, ratio: apiRun.rps / bareRun.rps };
    };
    const shows: Awaited<ReturnType<typeof measure>>[] = [];
    const lists: Awaited<ReturnType<typeof measure>>[] = [];
    for (const client of CLIENTS) {
      shows.push(await measure(client, showPath));
      lists.push(await measure(client, listPath));
    }

    // 5. creation against a local page server (one of the sample pages, with robots.txt)
    const page = pages[Math.floor(pages.length / 2)];
    const site = createServer((req, res) => {
      if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page.html);
      } else if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const sitePort = (site.address() as { port: number }).port;
    const create = await load(
      'autocannon',
      {
        url: `${api}/api/v1/reports`,
        method: 'POST',
        connections: 8,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: `url=${encodeURIComponent(`http://127.0.0.1:${sitePort}/page.html`)}`,
      },
      dir,
    );
    site.close();

    const fmt = (m: Measured) =>
      `${m.rps} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms${m.errors + m.non2xx ? `, ${m.errors} errors, ${m.non2xx} non-2xx` : ''}`;
    const pct = (a: Measured, b: Measured) => `${((a.rps / b.rps) * 100).toFixed(0)}%`;
    const row = (what: string, m: Awaited<ReturnType<typeof measure>>) =>
      `| ${what}, ${m.client} | ${fmt(m.apiRun)} | ${fmt(m.floorRun)} | ${fmt(m.bareRun)} | ${pct(m.apiRun, m.bareRun)} | ${pct(m.floorRun, m.bareRun)} | ${pct(m.apiRun, m.floorRun)} |`;
    const lines = [
      `## bench/api — ${engine}, ${REPORTS} reports (${RESULTS_KIND} results, ${avgBytes} B average), ${DURATION} s per run, ${CONNECTIONS} connections (8 for creation), ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| measurement | Rankscope | floor: node:http + same queries | bare node:http, same bytes | Rankscope / bare | floor / bare | Rankscope / floor |',
      '|---|---|---|---|---|---|---|',
      ...shows.map((m) => row(`GET ${showPath} (${showBody.length} B)`, m)),
      ...lists.map((m) => row(`GET ${listPath} (${listBody.length} B)`, m)),
      `| POST /api/v1/reports, concurrency 8, page of ${page.html.length} B, autocannon | ${fmt(create)} | — | — | — | — | — |`,
      '',
      `${engine === 'sqlite' ? 'Targets' : 'For comparison with the targets (they apply to SQLite)'}, per load generator:`,
      '',
      ...CLIENTS.map((client, i) => {
        const [show, list] = [shows[i], lists[i]];
        return (
          `- ${client}: show ≥ 50% of bare: ${show.ratio >= 0.5 ? 'met' : 'missed'} (${(show.ratio * 100).toFixed(0)}%; the floor reaches ${pct(show.floorRun, show.bareRun)}); ` +
          `100-report page ≥ 300 req/s: ${list.apiRun.rps >= 300 ? 'met' : 'missed'} (${list.apiRun.rps}; bare ${list.bareRun.rps})`
        );
      }),
      `- creation ≥ 50 reports/s with zero errors: ${create.rps >= 50 && create.errors + create.non2xx === 0 ? 'met' : 'missed'} (${create.rps}).`,
    ];
    console.log(lines.join('\n'));
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, `api-${engine}-${RESULTS_KIND}.md`), `${lines.join('\n')}\n`);
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) await dropSchema(pgUrl, schema).catch(() => {});
  }
}

await main();
