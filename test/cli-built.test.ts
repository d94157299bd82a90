// The product as a user runs it: `node bin/rankscope.mjs …` on the compiled dist/ (bin/
// compiles it first when src/ is newer), and the engine as a library in another project.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goodPage, startSite, type PageSite } from './helpers/pages.js';
import { runCli, runCommand, startServer } from './helpers/spawn.js';
import { CHECKS } from '../src/analysis/checks/index.js';

const run = (command: string, args: string[], cwd: string) => runCommand(command, args, { cwd });

const rankscope = (args: string[], env: Record<string, string> = {}) => runCli(args, env);

describe('the built CLI, as a user runs it', () => {
  let site: PageSite;
  let dir: string;
  before(async () => {
    site = await startSite({ '/': goodPage() });
    dir = mkdtempSync(join(tmpdir(), 'rankscope-built-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('help, analyze --json, users create, crawl --json, and serve answering /health', { timeout: 180_000 }, async () => {
    const help = await rankscope(['help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: rankscope <command>/);

    const analysed = await rankscope(['analyze', `${site.origin}/`, '--json'], { ALLOW_PRIVATE_ADDRESSES: 'true' });
    assert.equal(analysed.code, 0, analysed.stderr);
    const report = JSON.parse(analysed.stdout);
    assert.equal(report.url, `${site.origin}/`);
    assert.equal(Object.keys(report.results).length, CHECKS.length);

    const database = `sqlite:${join(dir, 'db.sqlite')}`;
    const created = await rankscope(['users', 'create', 'built@example.com'], { DATABASE_URL: database });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout.trim().split('\n').at(-1)!, /^rk_[A-Za-z0-9_-]{43}$/);

    const crawled = await rankscope(['crawl', `${site.origin}/`, '--json'], {
      DATABASE_URL: database,
      ADMIN_EMAIL: 'built@example.com',
      ALLOW_PRIVATE_ADDRESSES: 'true',
    });
    assert.equal(crawled.code, 0, crawled.stderr);
    const crawl = JSON.parse(crawled.stdout) as { crawl: { status: string; pages_done: number }; pages: { url: string }[] };
    assert.equal(crawl.crawl.status, 'finished');
    assert.deepEqual(
      crawl.pages.map((page) => page.url),
      [`${site.origin}/`],
    );

    // bin/ ran the bundle of the CLI (scripts/bundle-cli.mjs), which finds package.json two levels up
    assert.ok(existsSync('dist/bundle/index.js'), 'bin/ built dist/bundle/');
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    // No Chromium where it is looked for: /health says this instance cannot render.
    const server = await startServer({ DATABASE_URL: database, LOG_LEVEL: 'warn', CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      const health = await fetch(`http://127.0.0.1:${server.port}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', database: 'ok', version, render: false });
    } finally {
      assert.equal(await server.stop(), 0, 'SIGTERM ends it cleanly');
    }
  });
});

describe('the engine as a library, installed in another project', () => {
  let site: PageSite;
  let project: string;
  before(async () => {
    site = await startSite({ '/': goodPage() });
    project = mkdtempSync(join(tmpdir(), 'rankscope-consumer-'));
  });
  after(async () => {
    await site.close();
    rmSync(project, { recursive: true, force: true });
  });

  test("import { analyze, analyzeHtml, checks } from 'rankscope' works, with its types", { timeout: 180_000 }, async () => {
    // dist/ as `npm install` builds it: the JavaScript (bin/ compiles it when stale) and the declarations
    assert.equal((await runCli(['help'])).code, 0);
    const types = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], process.cwd());
    assert.equal(types.code, 0, types.stdout + types.stderr);

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', process.cwd()],
      project,
    );
    assert.equal(installed.code, 0, installed.stderr);

    writeFileSync(
      join(project, 'use.mjs'),
      `import { analyze, analyzeHtml, checks, DEFAULT_CONFIG } from 'rankscope';
const html = '<!doctype html><html lang="en"><head><title>Blue widgets</title></head><body><h1>Widgets</h1></body></html>';
const local = analyzeHtml(html, { url: 'https://example.com/blue-widgets', headers: { 'content-encoding': 'gzip' } });
const config = { ...DEFAULT_CONFIG, request: { ...DEFAULT_CONFIG.request, allowPrivateAddresses: true } };
const fetched = await analyze(process.argv[2], { config });
console.log(JSON.stringify({ checks: checks.length, first: checks[0], local: { url: local.url, title: local.results.title, gzip: local.results.text_compression.passed }, fetched: { url: fetched.url, n: Object.keys(fetched.results).length } }));
`,
    );
    const used = await run(process.execPath, ['use.mjs', `${site.origin}/`], project);
    assert.equal(used.code, 0, used.stderr);
    const out = JSON.parse(used.stdout);
    assert.equal(out.checks, CHECKS.length);
    assert.equal(out.first.name, 'title');
    assert.equal(out.first.importance, 'high');
    assert.equal(typeof out.first.fix, 'string');
    assert.deepEqual(out.local, {
      url: 'https://example.com/blue-widgets',
      title: { passed: true, importance: 'high', value: 'Blue widgets' },
      gzip: true,
    });
    assert.deepEqual(out.fetched, { url: `${site.origin}/`, n: CHECKS.length });

    // and a TypeScript program type-checks against the published declarations
    writeFileSync(
      join(project, 'use.ts'),
      `import { analyzeHtml, checks, type AnalysedPage, type CheckName } from 'rankscope';
const page: AnalysedPage = analyzeHtml('<title>x</title>', { url: 'https://example.com/' });
const name: CheckName = checks[0].name;
const passed: boolean = page.results[name].passed;
// @ts-expect-error: no such check
page.results.no_such_check;
export { passed };
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
      }),
    );
    const checked = await run(
      process.execPath,
      [join(process.cwd(), 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      project,
    );
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });
});
