// The product as a user runs it: `node bin/rankscope.mjs …` on the compiled dist/ (bin/
// compiles it first when src/ is newer), not the TypeScript sources the other tests load.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goodPage, startSite, type PageSite } from './helpers/pages.js';
import { runCli, startServer } from './helpers/spawn.js';

const rankscope = (args: string[], env: Record<string, string> = {}) => runCli(args, env, { compiled: true });

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

  test('help, analyze --json, users create, and serve answering /health', { timeout: 180_000 }, async () => {
    const help = await rankscope(['help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: rankscope <command>/);

    const analysed = await rankscope(['analyze', `${site.origin}/`, '--json'], { ALLOW_PRIVATE_ADDRESSES: 'true' });
    assert.equal(analysed.code, 0, analysed.stderr);
    const report = JSON.parse(analysed.stdout);
    assert.equal(report.url, `${site.origin}/`);
    assert.equal(Object.keys(report.results).length, 33);

    const database = `sqlite:${join(dir, 'db.sqlite')}`;
    const created = await rankscope(['users', 'create', 'built@example.com'], { DATABASE_URL: database });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout.trim().split('\n').at(-1)!, /^rk_[A-Za-z0-9_-]{43}$/);

    const server = await startServer({ DATABASE_URL: database, LOG_LEVEL: 'warn' }, { compiled: true });
    try {
      const health = await fetch(`http://127.0.0.1:${server.port}/health`);
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { status: string }).status, 'ok');
    } finally {
      assert.equal(await server.stop(), 0, 'SIGTERM ends it cleanly');
    }
  });
});
