// Faults: a crash in the middle of writes, a shutdown in the middle of an analysis, and two
// instances racing for the same row.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { startServer } from '../helpers/spawn.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { testApp } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connection.js';

describe('faults', () => {
  let site: PageSite;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rankscope-faults-'));
    site = await startSite({
      '/page.html': goodPage(),
      '/slow.html': (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(goodPage('Slow but sure'));
        }, 1500);
      },
    });
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (api: string, key: string, path: string) =>
    fetch(`${api}/api/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `url=${encodeURIComponent(site.origin + path)}`,
    });

  test('kill -9 during a stream of creates on SQLite: every acknowledged create survives, integrity ok', async () => {
    const file = join(dir, 'crash.sqlite');
    const env = {
      DATABASE_URL: `sqlite:${file}`,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    };
    const server = await startServer(env);
    const key = /(rk_\S+)/.exec(server.output())![1];
    const api = `http://127.0.0.1:${server.port}`;
    const acknowledged: number[] = [];
    let stop = false;
    const workers = Array.from({ length: 6 }, async () => {
      while (!stop) {
        try {
          const res = await create(api, key, '/page.html');
          if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: number } }).data.id);
          else assert.fail(`unexpected ${res.status}`);
        } catch (error) {
          if (!stop) throw error; // only the kill may break a request
        }
      }
    });
    // Kill once the stream is well under way (not after a fixed time: a loaded machine starts slower).
    await until(() => acknowledged.length >= 12);
    stop = true;
    server.child.kill('SIGKILL');
    await Promise.all(workers);
    await server.stop();
    assert.ok(acknowledged.length >= 10, `${acknowledged.length} creates acknowledged before the kill`);

    const db = new SQLite(file);
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      const stored = new Set((db.prepare('select id from reports').all() as { id: number }[]).map((r) => r.id));
      const lost = acknowledged.filter((id) => !stored.has(id));
      assert.deepEqual(lost, [], 'no acknowledged create was lost');
    } finally {
      db.close();
    }

    // and it starts again on the same file, serving what was written
    const again = await startServer(env);
    try {
      const res = await fetch(`${api.replace(String(server.port), String(again.port))}/api/v1/reports/${acknowledged[0]}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.status, 200);
    } finally {
      await again.stop();
    }
  });

  test('SIGTERM: new connections are refused, the running analysis finishes and is stored, exit 0', async () => {
    const file = join(dir, 'term.sqlite');
    const env = {
      DATABASE_URL: `sqlite:${file}`,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    };
    const server = await startServer(env);
    const key = /(rk_\S+)/.exec(server.output())![1];
    const api = `http://127.0.0.1:${server.port}`;
    const inFlight = create(api, key, '/slow.html');
    // SIGTERM once the analysis is fetching the page (which answers after 1.5 s)
    await until(() => site.hits('/slow.html') >= 1);
    server.child.kill('SIGTERM');
    await until(() =>
      fetch(`${api}/health`).then(
        () => false,
        () => true,
      ),
    );
    await assert.rejects(fetch(`${api}/health`), 'a new connection is refused once shutting down');
    const res = await inFlight;
    assert.equal(res.status, 201, 'the in-flight create completed');
    const id = ((await res.json()) as { data: { id: number } }).data.id;
    assert.equal(await server.exited, 0, 'clean exit');
    const db = new SQLite(file, { readonly: true });
    try {
      const row = db.prepare('select url from reports where id = ?').get(id) as { url: string } | undefined;
      assert.equal(row?.url, `${site.origin}/slow.html`);
    } finally {
      db.close();
    }
  });

  test('two instances on one database create the same domain at once: exactly one wins', async () => {
    const first = await testApp();
    const second = await openDatabase(
      first.db.schema ? process.env.TEST_DATABASE_URL! : first.db.url,
      first.db.schema ? { schema: first.db.schema } : {},
    );
    const other = await buildApp({ config: first.config, database: second });
    try {
      const { key } = await first.account();
      for (let round = 0; round < 15; round++) {
        const send = (app: typeof other) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/websites',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
            payload: `domain=race-${round}.example`,
          });
        const results = await Promise.all([send(first.app), send(other)]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 422], `round ${round}`);
        const loser = results.find((r) => r.statusCode === 422)!;
        assert.deepEqual(loser.json().errors, { domain: ['The domain has already been taken.'] });
      }
      const list = await first.call(key, { method: 'GET', url: '/api/v1/websites?per_page=100' });
      assert.equal(list.json().meta.total, 15);
    } finally {
      await other.close();
      await second.close();
      await first.close();
    }
  });
});
